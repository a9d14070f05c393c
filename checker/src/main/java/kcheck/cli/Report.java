package kcheck.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import kcheck.engine.MetricResult;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.Model;
import kcheck.report.TraceFactory;
import kcheck.trace.TimelineRenderer;
import kcheck.trace.Trace;
import kcheck.variantfile.VariantFile;

/** The human-readable report of a check: verdict lines, figures, metric tables, timelines. */
final class Report {
    private Report() {
    }

    static void header(PrintStream out, Model m) {
        header(out, m, null);
    }

    /** The model line, and for a variant from a file, the file and the SHA-256 of what was checked. */
    static void header(PrintStream out, Model m, VariantFile vf) {
        out.println("model " + m.name() + ", variant " + m.variant() + " (" + m.params() + ")");
        if (vf != null) {
            out.println("variant file: " + vf.path() + " (sha256 " + vf.sha256() + ")");
        }
    }

    /**
     * What the search will do, printed before it starts: strategy, store, workers, reductions,
     * limits, and the properties checked (with the opt-in ones left out of a default selection).
     */
    static void plan(PrintStream out, Model m, Options o, boolean defaultSelection, int width) {
        List<String> red = o.reductions() ? m.reductions() : List.of();
        StringBuilder b = new StringBuilder();
        kcheck.trace.Text.para(b, "search: " + o.strategy().name().toLowerCase(Locale.ROOT) + ", "
                + o.store().name().toLowerCase(Locale.ROOT) + " store, " + o.workers() + " worker" + (o.workers() > 1 ? "s" : "")
                + ", reductions: " + (red.isEmpty() ? "none" : String.join("; ", red)), width, "", "  ");
        List<String> limits = new java.util.ArrayList<>();
        if (o.maxStates() != Options.DEFAULT_MAX_STATES) {
            limits.add(Format.count(o.maxStates()) + " states");
        }
        if (o.timeLimit() != null) {
            limits.add(kcheck.engine.Durations.format(o.timeLimit()));
        }
        limits.add("memory " + Format.bytes(o.memoryBytes()));
        b.append("limits: ").append(String.join(", ", limits)).append('\n');
        StringBuilder props = new StringBuilder("properties: ");
        props.append(String.join(", ", m.properties().stream().map(kcheck.model.Property::id).toList()));
        if (defaultSelection) {
            List<String> optIn = kcheck.model.Models.get(m.name()).properties().stream().filter(kcheck.model.PropertyInfo::optIn)
                    .map(kcheck.model.PropertyInfo::id).toList();
            if (!optIn.isEmpty()) {
                props.append(" (opt-in, checked only when named: ").append(String.join(", ", optIn)).append(')');
            }
        }
        kcheck.trace.Text.para(b, props.toString(), width, "", "  ");
        out.print(b);
    }

    static void search(PrintStream out, RunResult r) {
        plan(out, r);
        figures(out, r);
    }

    /** The search line as the run's statistics report it (for outputs printed after the search only). */
    static void plan(PrintStream out, RunResult r) {
        RunResult.Stats s = r.stats();
        String reductions = s.reductions().isEmpty() ? "none" : String.join("; ", s.reductions());
        out.println("search: " + s.strategy().name().toLowerCase(Locale.ROOT) + ", "
                + s.store().name().toLowerCase(Locale.ROOT) + " store, " + s.workers() + " worker"
                + (s.workers() > 1 ? "s" : "") + ", reductions: " + reductions);
    }

    /**
     * The cycle analysis's share of the run's time, against the search's: {@code cycle analysis 10.8 s
     * after a search of 23.0 s: no-spin-on-readers 3.2 s, no-spin-on-preempted-owner 7.6 s}.
     */
    static String analysisLine(RunResult.Stats s) {
        StringBuilder b = new StringBuilder("cycle analysis ").append(Format.seconds(s.analysisTotal()))
                .append(" s after a search of ").append(Format.seconds(s.searchSeconds())).append(" s:");
        String sep = " ";
        for (java.util.Map.Entry<String, Double> e : s.analysisSeconds().entrySet()) {
            b.append(sep).append(e.getKey()).append(' ').append(Format.seconds(e.getValue())).append(" s");
            sep = ", ";
        }
        return b.toString();
    }

    /** The figures of a finished search: states, transitions, depth, time, memory; random seed; limits hit. */
    static void figures(PrintStream out, RunResult r) {
        RunResult.Stats s = r.stats();
        StringBuilder b = new StringBuilder();
        b.append(Format.count(s.states())).append(" distinct states, ").append(Format.count(s.transitions()))
                .append(" transitions, depth ").append(s.depth()).append(", ").append(Format.seconds(s.seconds())).append(" s (")
                .append(Format.rate(s.statesPerSecond())).append(" states/s), ")
                .append(String.format(Locale.ROOT, "%.1f", s.bytesPerState())).append(" bytes/state");
        if (s.strategy() != kcheck.engine.Strategy.RANDOM) {
            b.append(" + ").append(String.format(Locale.ROOT, "%.0f", s.linkBytesPerState())).append(" for trace links");
        }
        out.println(b);
        if (!s.analysisSeconds().isEmpty()) {
            out.println(analysisLine(s));
        }
        if (s.strategy() == kcheck.engine.Strategy.RANDOM) {
            out.println("seed: " + s.seed() + " (pass --seed " + s.seed() + " to repeat)");
        }
        if (s.ampleStates() > 0) {
            out.println("partial-order reduction: " + Format.count(s.ampleStates()) + " states expanded with an ample set");
        }
        if (s.omission() > 0) {
            out.println(String.format(Locale.ROOT, "fingerprints: probability that a state was omitted ~ %.2e", s.omission()));
        }
        if (s.diskBytes() > 0) {
            out.println("disk: " + Format.bytes(s.diskBytes()) + " at the end (trace links, last levels, fingerprint runs)");
        }
        if (!s.complete() && !s.limit().isEmpty()) {
            out.println("NOT EXHAUSTIVE: stopped by " + s.limit());
        }
    }

    static void verdicts(PrintStream out, RunResult r) {
        int w = 12;
        for (PropertyResult p : r.properties()) {
            w = Math.max(w, p.id().length());
        }
        for (PropertyResult p : r.properties()) {
            String extra = p.trace() != null && p.verdict() == Verdict.VIOLATED
                    ? (p.trace().loopStart() >= 0 ? "lasso: " + p.trace().loopStart() + "-step stem, "
                    + (p.trace().length() - p.trace().loopStart()) + "-step cycle"
                    : (r.stats().shortestTraces() ? "shortest trace " : "trace ")
                    + p.trace().length() + " steps"
                    + (r.stats().strategy() == kcheck.engine.Strategy.BFS && !r.stats().shortestTraces()
                    ? " (partial-order reduction: may not be shortest; --no-reduction gives a shortest)" : "")
                    + (p.trace().before() >= 0 ? " (random walk of " + p.trace().before() + " steps, minimised to "
                    + p.trace().length() + ")" : ""))
                    : p.message();
            out.printf(Locale.ROOT, "  %-" + w + "s  %-10s  %s%n", p.id(), verdictWord(p), extra);
        }
    }

    /** What goes where a verdict is printed: the verdict, or "metric" for a figure (a metric without a bound is not a claim). */
    static String verdictWord(PropertyResult p) {
        return p.figure() ? "metric" : p.verdict().name();
    }

    static void metrics(PrintStream out, RunResult r) {
        for (PropertyResult p : r.properties()) {
            MetricResult m = p.metric();
            if (m == null) {
                continue;
            }
            out.println();
            out.println(p.id() + (p.verdict() == Verdict.HOLDS ? " (maximum over all reachable states)"
                    : " (maximum over the states explored)") + ": " + p.description());
            int cw = 12;
            int vw = 6;
            for (int c = 0; c < m.max().length; c++) {
                cw = Math.max(cw, m.components().get(c).length());
                vw = Math.max(vw, m.format(m.max()[c]).length());
            }
            for (int c = 0; c < m.max().length; c++) {
                String wit = m.witnesses()[c] != null ? "   witness: " + m.witnesses()[c].length() + " steps"
                        : m.max()[c] != Long.MIN_VALUE && p.verdict() != Verdict.HOLDS ? "   witness: not rebuilt (the run had reached its limit)" : "";
                out.printf(Locale.ROOT, "  %-" + cw + "s %" + vw + "s%s%n", m.components().get(c), m.format(m.max()[c]), wit);
            }
        }
    }

    /**
     * Prints the timeline of every violation, wrapped to {@code width}, and of the overall maximum
     * of each metric in {@code witnesses} (the metrics the user named: a witness is shown only when
     * asked for), the traces naming {@code variantFile} (may be null).
     */
    static void timelines(PrintStream out, RunResult r, Long seed, java.util.Set<String> witnesses, String variantFile, int width) {
        for (PropertyResult p : r.properties()) {
            if (p.verdict() == Verdict.VIOLATED && p.trace() != null) {
                out.println();
                out.print(TimelineRenderer.render(TraceFactory.withVariantFile(TraceFactory.of(r.model(), p, null, seed, false,
                        p.verdict().name()), variantFile), width));
            } else if (witness(p, witnesses) >= 0) {
                MetricResult m = p.metric();
                int best = witness(p, witnesses);
                out.println();
                out.println("witness of the maximum " + p.id() + " (" + m.components().get(best) + " = "
                        + m.format(m.max()[best]) + "):");
                out.print(TimelineRenderer.render(TraceFactory.withVariantFile(TraceFactory.of(r.model(), p, m.witnesses()[best], seed,
                        false, "WITNESS"), variantFile), width));
            }
        }
    }

    /** The component whose witness is shown for {@code p}: a metric in {@code witnesses} with a maximum above 0; else -1. */
    private static int witness(PropertyResult p, java.util.Set<String> witnesses) {
        if (p.metric() == null || p.verdict() == Verdict.VIOLATED || !witnesses.contains(p.id())) {
            return -1;
        }
        int best = best(p.metric());
        return best >= 0 && p.metric().witnesses()[best] != null && p.metric().max()[best] > 0 ? best : -1;
    }

    static int best(MetricResult m) {
        int best = -1;
        for (int c = 0; c < m.max().length; c++) {
            if (m.max()[c] != Long.MIN_VALUE && (best < 0 || m.max()[c] > m.max()[best])) {
                best = c;
            }
        }
        return best;
    }

    /**
     * The traces a run writes: every violation, then the witness of the overall maximum of each
     * metric in {@code witnesses} (the metrics the user named), each naming {@code variantFile}
     * (may be null).
     */
    static List<Trace> traces(RunResult r, Long seed, boolean full, java.util.Set<String> witnesses, String variantFile) {
        List<Trace> out = new java.util.ArrayList<>();
        for (PropertyResult p : r.properties()) {
            if (p.verdict() == Verdict.VIOLATED && p.trace() != null) {
                out.add(TraceFactory.withVariantFile(TraceFactory.of(r.model(), p, null, seed, full, p.verdict().name()), variantFile));
            }
        }
        for (PropertyResult p : r.properties()) {
            int best = witness(p, witnesses);
            if (best >= 0) {
                out.add(TraceFactory.withVariantFile(TraceFactory.of(r.model(), p, p.metric().witnesses()[best], seed, full,
                        "WITNESS"), variantFile));
            }
        }
        return out;
    }
}
