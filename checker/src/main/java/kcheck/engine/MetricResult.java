package kcheck.engine;

import java.util.List;

/**
 * A metric's maxima over the explored states: per component its largest value and a shortest
 * trace reaching it (BFS), and the bound if the metric has one.
 */
public record MetricResult(List<String> components, long[] max, RawTrace[] witnesses, long bound) {

    /** The largest value over all components. */
    public long overall() {
        long m = Long.MIN_VALUE;
        for (long v : max) {
            m = Math.max(m, v);
        }
        return m;
    }
}
