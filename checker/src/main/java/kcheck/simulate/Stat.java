package kcheck.simulate;

/**
 * One statistic of a {@link Distribution} with its 95% confidence interval and the runs needed
 * for a half-width of {@code precision} x the estimate.
 */
public record Stat(String name, double value, double halfWidth, long runsNeeded, double floor, double ceiling) {

    /** {@code name} (mean, p50, p99, max) of {@code d}; max gets no interval. */
    public static Stat of(String name, Distribution d, double precision) {
        double v = d.statistic(name);
        if (name.equals("max") || name.equals("min")) {
            return new Stat(name, v, Double.NaN, -1, Double.NaN, Double.NaN);
        }
        double h = d.halfWidth(Distribution.of(name));
        return new Stat(name, v, h, d.runsFor(v, h, precision), d.min(), d.max());
    }

    /** The interval's low end (never below the smallest value: a quantile's batch interval can overshoot). */
    public double low() {
        return Double.isNaN(floor) ? value - halfWidth : Math.max(floor, value - halfWidth);
    }

    /** The interval's high end (never above the largest value). */
    public double high() {
        return Double.isNaN(ceiling) ? value + halfWidth : Math.min(ceiling, value + halfWidth);
    }
}
