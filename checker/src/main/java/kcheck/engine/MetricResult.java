package kcheck.engine;

import java.util.List;

/**
 * A metric's maxima over the explored states: per component its largest value and a shortest
 * trace reaching it (BFS), the bound if the metric has one, and the value its counter saturates
 * at ({@link kcheck.model.Metric#saturation()}; {@link Long#MAX_VALUE}: never).
 */
public record MetricResult(List<String> components, long[] max, RawTrace[] witnesses, long bound, long saturation) {

    public MetricResult(List<String> components, long[] max, RawTrace[] witnesses, long bound) {
        this(components, max, witnesses, bound, Long.MAX_VALUE);
    }

    /**
     * A maximum as reports print it: the number, or for a value at the saturation
     * {@code "≥ k (saturated: unbounded in this model)"}.
     */
    public String format(long value) {
        if (value == Long.MIN_VALUE) {
            return "-";
        }
        return value >= saturation ? "\u2265 " + value + " (saturated: unbounded in this model)" : Long.toString(value);
    }

    /** A maximum in a table cell: the number, or {@code "≥ k"} at the saturation. */
    public String brief(long value) {
        if (value == Long.MIN_VALUE) {
            return "-";
        }
        return value >= saturation ? "\u2265 " + value : Long.toString(value);
    }

    /** True if component {@code c} reached the saturation value: its true maximum is unbounded in the model. */
    public boolean saturated(int c) {
        return max[c] != Long.MIN_VALUE && max[c] >= saturation;
    }

    /** The largest value over all components. */
    public long overall() {
        long m = Long.MIN_VALUE;
        for (long v : max) {
            m = Math.max(m, v);
        }
        return m;
    }
}
