package kcheck.simulate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import kcheck.model.SimulationProfile.Claim;

/**
 * A post's claim checked on two simulations of the same configuration (before and after, same
 * seed): the claim's statistic on the claim's components, in each, and their ratio with a 95%
 * confidence interval from the ratio in each batch of runs (the batches of both simulations are
 * the same runs, with the same random streams).
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
            double ratio = sa.value() / sb.value();
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
            out.add(new Comparison(c, name(comps, first.data()[m].length), first.config().cpus(), first.config().variant(),
                    second.config().variant(), sa, sb, ratio, Distribution.halfWidth(rs, n)));
        }
        return out;
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

    public String ratioText() {
        return Double.isNaN(ratioHalfWidth) ? String.format(Locale.ROOT, "%.2f", ratio)
                : String.format(Locale.ROOT, "%.2f [%.2f, %.2f]", ratio, ratio - ratioHalfWidth, ratio + ratioHalfWidth);
    }
}
