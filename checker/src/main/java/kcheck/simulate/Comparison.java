package kcheck.simulate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import kcheck.model.SimulationProfile.Claim;

/**
 * A post's claim checked on two simulations of the same configuration (before and after, same
 * seed): the claim's statistic on the claim's components, in each, and their ratio. A ratio of
 * means or percentiles has a 95% confidence interval by batch means: centred on the ratio of the
 * pooled statistics, its half-width from the ratio in each batch of runs (Student's t; the batches
 * of both simulations are the same runs, with the same random streams). A ratio of maxima (or
 * minima) has none, as the maximum itself has none: it keeps growing with the runs, so a batch's
 * maximum is not a sample of the pooled one, and an interval from the batches' ratios would not
 * cover the ratio it is printed with (seeds 2008 and 7 gave 0.93 [0.88, 0.98] and 1.15 [1.07,
 * 1.23] for one configuration).
 */
public record Comparison(Claim claim, String components, int cpus, String first, String second, Stat a, Stat b, double ratio,
                         double ratioHalfWidth) {

    /** The comparisons of {@code first} vs {@code second} (same cpus) for each claim of the profile. */
    public static List<Comparison> of(Simulation.Result first, Simulation.Result second, double precision) {
        List<Comparison> out = new ArrayList<>();
        for (Claim c : first.profile().claims(first.config().workload())) {
            int m = first.measure(c.measure());
            if (m < 0) {
                throw new IllegalStateException("claim on unknown measure " + c.measure());
            }
            int[] comps = components(c.components(), first.data()[m].length);
            Distribution da = pooled(first, m, comps);
            Distribution db = pooled(second, m, comps);
            Stat sa = Stat.of(c.statistic(), da, precision);
            Stat sb = Stat.of(c.statistic(), db, precision);
            out.add(new Comparison(c, name(comps, first.data()[m].length), first.config().cpus(), first.config().variant(),
                    second.config().variant(), sa, sb, sa.value() / sb.value(), extreme(c) ? Double.NaN : batchHalfWidth(c, da, db)));
        }
        return out;
    }

    /** A claim on the maximum or the minimum: its ratio gets no interval. */
    static boolean extreme(Claim c) {
        return c.statistic().equals("max") || c.statistic().equals("min");
    }

    /** The 95% half-width of the claim's ratio from its value in each batch of runs (NaN with fewer than two). */
    private static double batchHalfWidth(Claim c, Distribution da, Distribution db) {
        int batches = Math.min(da.batches(), db.batches());
        double[] rs = new double[batches];
        int n = 0;
        var f = Distribution.of(c.statistic());
        for (int i = 0; i < batches; i++) {
            Distribution x = da.batch(i);
            Distribution y = db.batch(i);
            if (x.count() > 0 && y.count() > 0) {
                double r = f.applyAsDouble(x) / f.applyAsDouble(y);
                if (!Double.isNaN(r) && !Double.isInfinite(r)) {
                    rs[n++] = r;
                }
            }
        }
        return Distribution.halfWidth(rs, n);
    }

    static Distribution pooled(Simulation.Result r, int m, int[] comps) {
        Distribution[] parts = new Distribution[comps.length];
        for (int i = 0; i < comps.length; i++) {
            parts[i] = r.data()[m][comps[i]];
        }
        return parts.length == 1 ? parts[0] : Distribution.pool(parts);
    }

    /** The component indices {@code spec} names among {@code count}: all, last:K, or "i,j,...". */
    static int[] components(String spec, int count) {
        if (spec.equals("all")) {
            int[] out = new int[count];
            for (int i = 0; i < count; i++) {
                out[i] = i;
            }
            return out;
        }
        if (spec.startsWith("last:")) {
            int k = Math.min(count, Integer.parseInt(spec.substring(5)));
            int[] out = new int[k];
            for (int i = 0; i < k; i++) {
                out[i] = count - k + i;
            }
            return out;
        }
        String[] parts = spec.split(",");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = Math.min(count - 1, Integer.parseInt(parts[i].trim()));
        }
        return out;
    }

    private static String name(int[] comps, int count) {
        if (count == 1) {
            return "";
        }
        if (comps.length == count) {
            return "all CPUs";
        }
        if (comps.length == 1) {
            return "CPU " + comps[0];
        }
        boolean run = true;
        for (int i = 1; i < comps.length; i++) {
            run &= comps[i] == comps[i - 1] + 1;
        }
        if (run) {
            return "CPUs " + comps[0] + "-" + comps[comps.length - 1];
        }
        StringBuilder b = new StringBuilder("CPUs ");
        for (int i = 0; i < comps.length; i++) {
            b.append(i == 0 ? "" : ",").append(comps[i]);
        }
        return b.toString();
    }

    /** "1.09 [1.07, 1.10]", or for maxima "0.93 (no interval: a maximum)". */
    public String ratioText() {
        if (Double.isNaN(ratioHalfWidth)) {
            return String.format(Locale.ROOT, "%.2f", ratio) + (extreme(claim) ? " (no interval: a " + (claim.statistic().equals("max")
                    ? "maximum" : "minimum") + ")" : "");
        }
        return String.format(Locale.ROOT, "%.2f [%.2f, %.2f]", ratio, ratio - ratioHalfWidth, ratio + ratioHalfWidth);
    }
}
