package kcheck.model;

/**
 * A number (or a vector of numbers, one per component such as a CPU id) per state. The engine
 * reports the maximum of each component over all reachable states with a shortest trace reaching
 * it. With a {@link #bound()}, a component above the bound is a violation.
 */
public abstract non-sealed class Metric extends Property {

    protected Metric(String id, String description) {
        super(id, description);
    }

    /** Number of components; 1 for a scalar metric. */
    public int components() {
        return 1;
    }

    /** Name of component {@code c} for tables ("CPU 0"); the metric id for a scalar. */
    public String componentName(int c) {
        return id();
    }

    /** Value of component {@code c} in {@code state}. */
    public abstract long value(long[] state, int c);

    /** Largest allowed value, or {@link Long#MAX_VALUE} for a metric that is only measured. */
    public long bound() {
        return Long.MAX_VALUE;
    }

    /**
     * The value at which this metric's counter saturates (stops counting), or
     * {@link Long#MAX_VALUE} if it never does. A model declares it only for a counter it packs in
     * a bounded field whose cap, once reached, means the count is unbounded in the model (the
     * counted event lies on a cycle of the state graph, so it can repeat forever); reports then
     * print a maximum at this value as "&ge; k (saturated: unbounded in this model)" instead of
     * a plain k.
     */
    public long saturation() {
        return Long.MAX_VALUE;
    }

    @Override
    public final Kind kind() {
        return Kind.METRIC;
    }
}
