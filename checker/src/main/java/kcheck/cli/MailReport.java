package kcheck.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import kcheck.engine.MetricResult;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Strategy;
import kcheck.engine.Verdict;
import kcheck.model.Model;
import kcheck.model.Models;
import kcheck.report.BuildInfo;
import kcheck.trace.MailRenderer;
import kcheck.trace.Reproduce;
import kcheck.trace.Text;
import kcheck.trace.Trace;
import kcheck.variantfile.VariantFile;
import kcheck.variantfile.VariantSource;

/**
 * {@code check --format mail}: the whole check as plain text to paste under a patch, every line
 * at most {@link MailRenderer#WIDTH} characters: what was checked and how far, every verdict, each
 * violation's steps in compact form with the kernel functions they run, the legend, and the
 * command that reproduces the run with the SHA-256 of the variant's source.
 */
final class MailReport {
    private MailReport() {
    }

    static String render(Model m, RunResult r, VariantFile vf, Long seed, List<Trace> traces, List<String> named) {
        int w = MailRenderer.WIDTH;
        StringBuilder out = new StringBuilder();
        Text.para(out, "kcheck: " + m.name() + ", variant " + m.variant() + " (" + m.params() + ")", w, "", "  ");
        if (vf != null) {
            Text.para(out, "variant file: " + vf.path(), w, "", "  ");
        }
        RunResult.Stats s = r.stats();
        String how = s.complete() ? "exhaustive" : s.limit().isEmpty() ? "stopped once every property was violated"
                : "NOT exhaustive (stopped by " + s.limit() + ")";
        Text.para(out, s.strategy().name().toLowerCase(Locale.ROOT) + " search, " + how + ": " + Format.count(s.states())
                + " states, depth " + s.depth() + ", " + Format.seconds(s.seconds()) + " s", w, "", "  ");
        if (!s.reductions().isEmpty()) {
            List<String> names = new ArrayList<>();
            for (String red : s.reductions()) {
                int i = red.indexOf(" (");
                names.add(i > 0 ? red.substring(0, i) : red);
            }
            Text.para(out, "reductions: " + String.join(", ", names), w, "", "  ");
        }
        if (s.strategy() == Strategy.RANDOM) {
            out.append("seed: ").append(s.seed()).append('\n');
        }
        out.append('\n');
        int idw = 0;
        for (PropertyResult p : r.properties()) {
            idw = Math.max(idw, p.id().length());
        }
        out.append("verdicts:\n");
        for (PropertyResult p : r.properties()) {
            String detail = detail(r, p);
            String lead = String.format(Locale.ROOT, "  %-" + idw + "s  %-10s ", p.id(), Report.verdictWord(p));
            if (lead.length() > w / 2) {
                Text.para(out, p.id() + "  " + Report.verdictWord(p) + "  " + detail, w, "  ", "      ");
            } else {
                Text.para(out, detail, w, lead, " ".repeat(lead.length()));
            }
        }
        for (PropertyResult p : r.properties()) {
            MetricResult mr = p.metric();
            if (mr == null) {
                continue;
            }
            StringBuilder comps = new StringBuilder();
            for (int c = 0; c < mr.max().length; c++) {
                comps.append(c == 0 ? "" : "; ").append(mr.components().get(c)).append(": ").append(mr.format(mr.max()[c]));
            }
            Text.para(out, p.id() + " (maximum per " + (mr.max().length > 1 ? "component" : "run") + "): " + comps, w, "  ",
                    "    ");
        }
        Trace first = null;
        for (Trace t : traces) {
            if (!"VIOLATED".equals(t.verdict())) {
                continue;
            }
            first = first == null ? t : first;
            out.append('\n').append(MailRenderer.section(t, w));
        }
        List<String> legend = Models.get(m.name()).legend();
        if (!legend.isEmpty()) {
            out.append("\nlegend:\n");
            for (String l : legend) {
                Text.para(out, l, w, "  ", "      ");
            }
        }
        out.append('\n').append("reproduce (").append(BuildInfo.label()).append("):\n");
        List<String> cmd = new ArrayList<>();
        cmd.add("kcheck check " + m.name());
        cmd.add(vf != null ? "--variant-file " + vf.path() : "--variant " + m.variant());
        m.params().asMap().forEach((k, v) -> cmd.add("--param " + k + "=" + v));
        if (named != null) {
            named.forEach(p -> cmd.add("--property " + p));
        }
        if (s.strategy() == Strategy.RANDOM) {
            cmd.add("--strategy random --seed " + s.seed());
        }
        cmd.add("--format mail");
        Reproduce.shell(out, cmd, w, "  ", "      ");
        String sha = vf != null ? vf.sha256() : VariantSource.sha256(Models.get(m.name()), m.variant());
        if (sha != null) {
            Text.para(out, "sha256 of the " + (vf != null ? "variant file" : "variant's source (" + m.variant() + ")") + ":", w,
                    "  ", "  ");
            out.append("  ").append(sha).append('\n');
        }
        return out.toString();
    }

    private static String detail(RunResult r, PropertyResult p) {
        if (p.verdict() == Verdict.VIOLATED && p.trace() != null) {
            return p.trace().loopStart() >= 0 ? "lasso: " + p.trace().loopStart() + "-step stem, "
                    + (p.trace().length() - p.trace().loopStart()) + "-step cycle"
                    : (r.stats().shortestTraces() ? "shortest trace, " : "trace, ") + p.trace().length() + " steps";
        }
        return p.message();
    }
}
