package kcheck.simulate;

import java.util.Arrays;
import java.util.function.ToDoubleFunction;

/**
 * The values of one measure component over all runs of a simulation, in run order, cut into
 * batches of consecutive runs: every statistic comes with a 95% confidence interval from the
 * spread of that statistic over the batches (the method of batch means: the runs are independent,
 * the values within one run are not), and with the number of runs that interval says is needed
 * for a requested half-width.
 */
public final class Distribution {
    /** Batches of runs for confidence intervals (fewer when there are fewer runs). */
    public static final int BATCHES = 20;

    private final double[] values;
    private final int[] batchStart;
    private final int runs;
    private double[] sorted;

    /**
     * @param values     every value, in run order
     * @param batchStart index of the first value of each batch, plus {@code values.length} at the end
     * @param runs       the number of runs the values come from
     */
    public Distribution(double[] values, int[] batchStart, int runs) {
        this.values = values;
        this.batchStart = batchStart;
        this.runs = runs;
    }

    /** The values of several components (e.g. CPUs 6 and 7) pooled, batch by batch. */
    public static Distribution pool(Distribution... parts) {
        int batches = parts[0].batchStart.length - 1;
        int total = 0;
        for (Distribution d : parts) {
            total += d.values.length;
        }
        double[] v = new double[total];
        int[] start = new int[batches + 1];
        int k = 0;
        for (int b = 0; b < batches; b++) {
            start[b] = k;
            for (Distribution d : parts) {
                int from = d.batchStart[b];
                int to = d.batchStart[b + 1];
                System.arraycopy(d.values, from, v, k, to - from);
                k += to - from;
            }
        }
        start[batches] = k;
        return new Distribution(v, start, parts[0].runs);
    }

    public int count() {
        return values.length;
    }

    public int runs() {
        return runs;
    }

    public int batches() {
        return batchStart.length - 1;
    }

    /** The statistic {@code name}: mean, p50, p99, max or min (NaN without values). */
    public double statistic(String name) {
        return of(name).applyAsDouble(this);
    }

    /** The statistic {@code name} as a function of a distribution. */
    public static ToDoubleFunction<Distribution> of(String name) {
        return switch (name) {
            case "mean" -> Distribution::mean;
            case "p50" -> d -> d.quantile(0.50);
            case "p90" -> d -> d.quantile(0.90);
            case "p99" -> d -> d.quantile(0.99);
            case "max" -> Distribution::max;
            case "min" -> Distribution::min;
            default -> throw new IllegalArgumentException("unknown statistic " + name + " (mean, p50, p90, p99, max, min)");
        };
    }

    public double mean() {
        if (values.length == 0) {
            return Double.NaN;
        }
        double s = 0;
        for (double v : values) {
            s += v;
        }
        return s / values.length;
    }

    public double max() {
        return values.length == 0 ? Double.NaN : sorted()[values.length - 1];
    }

    public double min() {
        return values.length == 0 ? Double.NaN : sorted()[0];
    }

    /** The {@code q}-quantile by nearest rank: the smallest value with at least q of the values at or below it. */
    public double quantile(double q) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] s = sorted();
        int i = (int) Math.ceil(q * s.length) - 1;
        return s[Math.max(0, Math.min(s.length - 1, i))];
    }

    private double[] sorted() {
        if (sorted == null) {
            sorted = values.clone();
            Arrays.sort(sorted);
        }
        return sorted;
    }

    /** Batch {@code b} alone. */
    public Distribution batch(int b) {
        double[] v = Arrays.copyOfRange(values, batchStart[b], batchStart[b + 1]);
        return new Distribution(v, new int[] {0, v.length}, 1);
    }

    /**
     * The half-width of the 95% confidence interval of {@code stat} (Student's t over the batches
     * that have values); NaN with fewer than two such batches.
     */
    public double halfWidth(ToDoubleFunction<Distribution> stat) {
        int b = batches();
        double[] xs = new double[b];
        int n = 0;
        for (int i = 0; i < b; i++) {
            if (batchStart[i + 1] > batchStart[i]) {
                xs[n++] = stat.applyAsDouble(batch(i));
            }
        }
        return halfWidth(xs, n);
    }

    /** The 95% half-width of the mean of {@code xs[0..n)} (Student's t); NaN for n &lt; 2. */
    static double halfWidth(double[] xs, int n) {
        if (n < 2) {
            return Double.NaN;
        }
        double m = 0;
        for (int i = 0; i < n; i++) {
            m += xs[i];
        }
        m /= n;
        double ss = 0;
        for (int i = 0; i < n; i++) {
            ss += (xs[i] - m) * (xs[i] - m);
        }
        return t975(n - 1) * Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
    }

    /**
     * Runs needed for a 95% half-width of {@code precision} x the estimate, from the half-width
     * measured with {@link #runs()} runs (the half-width shrinks as 1/sqrt(runs)); -1 if unknown.
     */
    public long runsFor(double estimate, double halfWidth, double precision) {
        if (Double.isNaN(halfWidth) || Double.isNaN(estimate) || estimate == 0 || precision <= 0) {
            return -1;
        }
        double target = precision * Math.abs(estimate);
        return Math.max(1, (long) Math.ceil(runs * (halfWidth / target) * (halfWidth / target)));
    }

    private static final double[] T975 = {Double.NaN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
        2.048, 2.045, 2.042};

    /** The 0.975 quantile of Student's t with {@code df} degrees of freedom (1.96 beyond 30). */
    static double t975(int df) {
        return df < T975.length ? T975[df] : 1.96;
    }
}
