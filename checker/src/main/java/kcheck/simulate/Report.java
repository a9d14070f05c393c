package kcheck.simulate;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import kcheck.model.SimulationProfile;
import kcheck.model.SimulationProfile.Measure;

/** The simulation's outputs: the text tables, {@code --json}, CSV and one SVG plot per measure. */
public final class Report {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    static final String[] STATS = {"mean", "p50", "p99", "max"};
    private static final String[] COLORS = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

    private Report() {
    }

    /** The figures of every simulation (variant x CPU count) and the before/after comparisons. */
    public record Outcome(SimulationProfile profile, String workload, long seed, int runs, double precision, CostModel costs,
                          List<Simulation.Result> results, List<Comparison> comparisons, List<Timing> timings) {
        public List<String> variants() {
            List<String> out = new ArrayList<>();
            for (Simulation.Result r : results) {
                if (!out.contains(r.config().variant())) {
                    out.add(r.config().variant());
                }
            }
            return out;
        }

        public List<Integer> cpus() {
            return new ArrayList<>(new TreeSet<>(results.stream().map(r -> r.config().cpus()).toList()));
        }

        Simulation.Result result(String variant, int cpus) {
            for (Simulation.Result r : results) {
                if (r.config().variant().equals(variant) && r.config().cpus() == cpus) {
                    return r;
                }
            }
            return null;
        }
    }

    /** A JMH measurement of the reference code: time per call of one variant at one CPU count (score +- 99.9% error). */
    public record Timing(String benchmark, String variant, int cpus, double score, double error, String unit) {
    }

    /** Pairs each configuration of the first variant with the same configuration of the second. */
    public static List<Comparison> compare(List<Simulation.Result> results, List<String> variants, double precision) {
        List<Comparison> out = new ArrayList<>();
        if (variants.size() < 2) {
            return out;
        }
        for (Simulation.Result a : results) {
            if (!a.config().variant().equals(variants.get(0))) {
                continue;
            }
            for (Simulation.Result b : results) {
                if (b.config().variant().equals(variants.get(1)) && b.config().cpus() == a.config().cpus()) {
                    out.addAll(Comparison.of(a, b, precision));
                }
            }
        }
        return out;
    }

    /* ---------------- text ---------------- */

    public static void text(PrintStream out, Outcome o) {
        for (Simulation.Result r : o.results()) {
            Simulation.Config c = r.config();
            out.printf(Locale.ROOT, "simulate %s, variant %s, workload %s (%s)%n", c.model(), c.variant(), o.workload(), params(r.modelParams()));
            out.printf(Locale.ROOT, "  %,d runs, seed %d, %d worker%s: %,d steps, %s simulated, %.2f s wall (%,.0f runs/s); runs ended: %s%n",
                    c.runs(), c.seed(), r.workers(), r.workers() == 1 ? "" : "s", r.steps(), duration(r.simulatedNs()), r.wallSeconds(),
                    c.runs() / Math.max(1e-9, r.wallSeconds()), ends(r.ends()));
            for (int m = 0; m < r.measures().size(); m++) {
                measureTable(out, r, m, o.precision());
            }
            out.println();
        }
        if (!o.comparisons().isEmpty()) {
            out.println(o.variants().get(0) + " vs " + o.variants().get(1) + " (ratio " + o.variants().get(0) + " / " + o.variants().get(1)
                    + ", same runs; [95% CI]: the pooled ratio +- Student's t over the batches' ratios;");
            out.println("  a ratio of maxima has none, as a maximum has none: it keeps growing with the runs):");
            for (Comparison cmp : o.comparisons()) {
                Measure me = measure(o.profile(), cmp.claim().measure());
                String unit = me.unit().equals("fraction") ? "" : " " + Format.shownUnit(me.unit());
                out.printf(Locale.ROOT, "  %s %s%s, %d CPUs: %s %s%s, %s %s%s: ratio %s%n", cmp.claim().measure(), cmp.claim().statistic(),
                        cmp.components().isEmpty() ? "" : " on " + cmp.components(), cmp.cpus(), cmp.first(), Format.value(cmp.a().value(), me.unit()),
                        unit, cmp.second(), Format.value(cmp.b().value(), me.unit()), unit, cmp.ratioText());
                out.printf(Locale.ROOT, "      the post: %s (ratio %s)%n", cmp.claim().post(), Format.number(cmp.claim().postRatio()));
            }
            out.println();
        }
        if (!o.timings().isEmpty()) {
            out.println("time per call of the Java port, JMH (" + o.timings().get(0).benchmark() + ", this machine; +- 99.9% error):");
            for (Timing t : o.timings()) {
                out.printf(Locale.ROOT, "  %-8s %3d CPUs: %8.2f +- %.2f %s%n", t.variant(), t.cpus(), t.score(), t.error(), t.unit());
            }
            for (int c : o.cpus()) {
                List<Timing> at = o.timings().stream().filter(t -> t.cpus() == c).toList();
                if (at.size() >= 2) {
                    out.printf(Locale.ROOT, "  %s / %s at %d CPUs: %.3f%n", at.get(0).variant(), at.get(1).variant(), c,
                            at.get(0).score() / at.get(1).score());
                }
            }
            out.println();
        }
        List<String> changed = o.costs().overrides();
        out.println("costs: " + (changed.isEmpty() ? "the documented defaults (kcheck simulate " + o.profile().model()
                + " --show-costs; docs/simulate.md)" : String.join("; ", changed) + "; the rest as documented (--show-costs)"));
    }

    private static void measureTable(PrintStream out, Simulation.Result r, int m, double precision) {
        Measure me = r.measures().get(m);
        Distribution[] ds = r.data()[m];
        out.printf(Locale.ROOT, "%s (%s): %s; 95%% CI from %d batches of runs%n", me.id(), Format.shownUnit(me.unit()), me.description(),
                ds[0].batches());
        List<String[]> rows = new ArrayList<>();
        String pct = Format.number(precision * 100);
        rows.add(new String[] {me.perCpu() ? "CPU" : "", "samples", "mean [95% CI]", "p50 [95% CI]", "p99 [95% CI]", "max",
            "runs for +-" + pct + "%: mean", "p99"});
        for (int k = 0; k < ds.length; k++) {
            Distribution d = ds[k];
            Stat mean = Stat.of("mean", d, precision);
            Stat p50 = Stat.of("p50", d, precision);
            Stat p99 = Stat.of("p99", d, precision);
            rows.add(new String[] {me.perCpu() ? Integer.toString(k) : "", String.format(Locale.ROOT, "%,d", d.count()),
                ci(mean, me.unit()), ci(p50, me.unit()), ci(p99, me.unit()), Format.value(d.max(), me.unit()), runs(mean.runsNeeded()),
                runs(p99.runsNeeded())});
        }
        table(out, rows);
    }

    private static String runs(long n) {
        return n < 0 ? "-" : String.format(Locale.ROOT, "%,d", n);
    }

    static String ci(Stat s, String unit) {
        if (Double.isNaN(s.value())) {
            return "-";
        }
        if (Double.isNaN(s.halfWidth())) {
            return Format.value(s.value(), unit);
        }
        return Format.value(s.value(), unit) + " [" + Format.value(s.low(), unit) + ", " + Format.value(s.high(), unit) + "]";
    }

    private static void table(PrintStream out, List<String[]> rows) {
        int cols = rows.get(0).length;
        int[] w = new int[cols];
        for (String[] r : rows) {
            for (int i = 0; i < cols; i++) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder b = new StringBuilder(" ");
            for (int i = 0; i < cols; i++) {
                if (w[i] == 0) {
                    continue;
                }
                b.append(' ');
                b.append(i == 0 || i >= 2 && i <= 4 ? pad(r[i], w[i], true) : pad(r[i], w[i], false));
            }
            out.println(b.toString().stripTrailing());
        }
    }

    private static String pad(String s, int w, boolean left) {
        String fill = " ".repeat(Math.max(0, w - s.length()));
        return left ? s + fill : fill + s;
    }

    static String params(Map<String, String> p) {
        StringBuilder b = new StringBuilder();
        p.forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return b.toString();
    }

    static String duration(double ns) {
        if (ns >= 1e9) {
            return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
        }
        if (ns >= 1e6) {
            return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f us", ns / 1e3);
    }

    static String ends(Map<String, Integer> ends) {
        StringBuilder b = new StringBuilder();
        ends.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append(' ').append(String.format(Locale.ROOT, "%,d", v)));
        return b.toString();
    }

    static Measure measure(SimulationProfile p, String id) {
        return p.measures().stream().filter(m -> m.id().equals(id)).findFirst().orElseThrow();
    }

    /** The costs with their values, distributions and sources (--show-costs). */
    public static void costs(PrintStream out, SimulationProfile p, CostModel costs) {
        out.println("costs of " + p.model() + " (override with --cost FILE or --set-cost NAME=VALUE; docs/simulate.md):");
        for (CostModel.Entry e : costs.entries()) {
            String dist = e.distribution().equals("-") ? "" : " " + e.distribution();
            out.printf(Locale.ROOT, "  %-20s %10s %-9s%-8s %s%n", e.cost().name(), Format.number(e.value()), e.cost().unit(), dist,
                    e.isDefault() ? "" : "(" + e.origin() + ")");
            out.println("      " + e.cost().source());
        }
        out.println("workloads:");
        for (SimulationProfile.Workload w : p.workloads()) {
            out.printf(Locale.ROOT, "  %-12s %s%n", w.name(), w.description());
        }
    }

    /* ---------------- JSON ---------------- */

    public static ObjectNode json(Outcome o) {
        ObjectNode root = F.objectNode();
        root.put("model", o.profile().model());
        root.put("workload", o.workload());
        root.put("seed", o.seed());
        root.put("runs", o.runs());
        root.put("precision", o.precision());
        ArrayNode costs = root.putArray("costs");
        for (CostModel.Entry e : o.costs().entries()) {
            ObjectNode c = costs.addObject();
            c.put("name", e.cost().name());
            c.put("value", e.value());
            c.put("unit", e.cost().unit());
            c.put("distribution", e.distribution());
            c.put("source", e.cost().source());
            c.put("origin", e.origin());
        }
        ArrayNode sims = root.putArray("simulations");
        for (Simulation.Result r : o.results()) {
            ObjectNode s = sims.addObject();
            s.put("variant", r.config().variant());
            s.put("cpus", r.config().cpus());
            s.put("runs", r.config().runs());
            ObjectNode params = s.putObject("params");
            r.modelParams().forEach(params::put);
            s.put("steps", r.steps());
            s.put("simulatedSeconds", r.simulatedNs() / 1e9);
            s.put("wallSeconds", Math.round(r.wallSeconds() * 1000) / 1000.0);
            s.put("runsPerSecond", Math.round(r.config().runs() / Math.max(1e-9, r.wallSeconds())));
            s.put("workers", r.workers());
            ObjectNode ends = s.putObject("ends");
            r.ends().forEach(ends::put);
            ArrayNode ms = s.putArray("measures");
            for (int m = 0; m < r.measures().size(); m++) {
                Measure me = r.measures().get(m);
                ObjectNode mo = ms.addObject();
                mo.put("id", me.id());
                mo.put("unit", me.unit());
                mo.put("description", me.description());
                ArrayNode comps = mo.putArray("components");
                for (int k = 0; k < r.data()[m].length; k++) {
                    Distribution d = r.data()[m][k];
                    ObjectNode co = comps.addObject();
                    if (me.perCpu()) {
                        co.put("cpu", k);
                    }
                    co.put("samples", d.count());
                    for (String st : STATS) {
                        Stat x = Stat.of(st, d, o.precision());
                        ObjectNode so = co.putObject(st);
                        so.put("value", x.value());
                        if (!Double.isNaN(x.halfWidth())) {
                            so.putArray("ci95").add(x.low()).add(x.high());
                            so.put("runsNeeded", x.runsNeeded());
                        }
                    }
                }
            }
        }
        ArrayNode jmh = root.putArray("jmh");
        for (Timing t : o.timings()) {
            ObjectNode j = jmh.addObject();
            j.put("benchmark", t.benchmark());
            j.put("variant", t.variant());
            j.put("cpus", t.cpus());
            j.put("score", t.score());
            j.put("error", t.error());
            j.put("unit", t.unit());
        }
        ArrayNode cmp = root.putArray("comparisons");
        for (Comparison c : o.comparisons()) {
            ObjectNode co = cmp.addObject();
            co.put("measure", c.claim().measure());
            co.put("statistic", c.claim().statistic());
            co.put("components", c.components());
            co.put("cpus", c.cpus());
            co.put("first", c.first());
            co.put("second", c.second());
            co.put("firstValue", c.a().value());
            co.put("secondValue", c.b().value());
            co.put("ratio", c.ratio());
            if (!Double.isNaN(c.ratioHalfWidth())) {
                co.putArray("ratioCi95").add(c.ratio() - c.ratioHalfWidth()).add(c.ratio() + c.ratioHalfWidth());
                co.put("ratioCi95Method", "batch means: the pooled ratio +- Student's t over the ratio in each batch of runs");
            } else if (Comparison.extreme(c.claim())) {
                co.put("ratioCi95Method", "none: a maximum or minimum keeps growing or shrinking with the runs");
            }
            co.put("post", c.claim().post());
            co.put("postRatio", c.claim().postRatio());
        }
        return root;
    }

    /* ---------------- CSV ---------------- */

    public static String csv(Outcome o) {
        StringBuilder b = new StringBuilder("model,workload,variant,cpus,measure,unit,component,samples,runs,seed,"
                + "mean,mean_lo,mean_hi,p50,p50_lo,p50_hi,p99,p99_lo,p99_hi,max,runs_needed_mean,runs_needed_p99\n");
        for (Simulation.Result r : o.results()) {
            for (int m = 0; m < r.measures().size(); m++) {
                Measure me = r.measures().get(m);
                for (int k = 0; k < r.data()[m].length; k++) {
                    Distribution d = r.data()[m][k];
                    Stat mean = Stat.of("mean", d, o.precision());
                    Stat p50 = Stat.of("p50", d, o.precision());
                    Stat p99 = Stat.of("p99", d, o.precision());
                    b.append(String.join(",", o.profile().model(), o.workload(), r.config().variant(), Integer.toString(r.config().cpus()),
                            me.id(), me.unit(), me.perCpu() ? "CPU " + k : me.id(), Integer.toString(d.count()),
                            Integer.toString(r.config().runs()), Long.toString(o.seed()),
                            num(mean.value()), num(mean.low()), num(mean.high()), num(p50.value()), num(p50.low()), num(p50.high()),
                            num(p99.value()), num(p99.low()), num(p99.high()), num(d.max()), Long.toString(mean.runsNeeded()),
                            Long.toString(p99.runsNeeded())));
                    b.append('\n');
                }
            }
        }
        return b.toString();
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.6g", v);
    }

    /* ---------------- SVG ---------------- */

    /**
     * One plot per measure with values, by measure id: x = CPU id (one CPU count, a per-CPU
     * measure) or CPU count; a panel for the mean and one for the p99, each variant a line.
     */
    public static Map<String, String> svgs(Outcome o) {
        Map<String, String> out = new LinkedHashMap<>();
        List<Integer> cpus = o.cpus();
        List<String> variants = o.variants();
        for (Measure me : o.profile().measures()) {
            boolean byCpu = me.perCpu() && cpus.size() == 1;
            List<String> xs = new ArrayList<>();
            int points = byCpu ? cpus.get(0) : cpus.size();
            for (int i = 0; i < points; i++) {
                xs.add(Integer.toString(byCpu ? i : cpus.get(i)));
            }
            double scale = Format.scale(me.unit());
            List<SvgPlot.Panel> panels = new ArrayList<>();
            boolean any = false;
            for (String st : new String[] {"mean", "p99"}) {
                List<SvgPlot.Series> series = new ArrayList<>();
                for (int vi = 0; vi < variants.size(); vi++) {
                    double[] y = new double[points];
                    double[] lo = new double[points];
                    double[] hi = new double[points];
                    for (int i = 0; i < points; i++) {
                        Simulation.Result r = o.result(variants.get(vi), byCpu ? cpus.get(0) : cpus.get(i));
                        int m = r.measure(me.id());
                        Distribution d = byCpu ? r.data()[m][i] : Comparison.pooled(r, m, Comparison.components("all", r.data()[m].length));
                        any |= d.count() > 0;
                        Stat s = Stat.of(st, d, o.precision());
                        y[i] = s.value() / scale;
                        lo[i] = s.low() / scale;
                        hi[i] = s.high() / scale;
                    }
                    series.add(new SvgPlot.Series(variants.get(vi) + " " + st, COLORS[vi % COLORS.length], st.equals("p99"), y, lo, hi));
                }
                panels.add(new SvgPlot.Panel(st + " (" + Format.shownUnit(me.unit()) + ")", series));
            }
            if (!any) {
                continue;
            }
            String title = o.profile().model() + ": " + me.id();
            String sub = me.description() + (byCpu || !me.perCpu() ? "" : " (all CPUs pooled)");
            String foot = "workload " + o.workload() + ", " + String.format(Locale.ROOT, "%,d", o.runs()) + " runs per point, seed "
                    + o.seed();
            out.put(me.id(), SvgPlot.render(title, List.of(sub, foot), byCpu ? "CPU id" : "CPUs", xs, panels));
        }
        return out;
    }
}
