package kcheck.gate;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The verdict table as a markdown summary (for CI job summaries and review comments). */
public final class Markdown {
    private Markdown() {
    }

    public static String render(List<Verification.Row> rows, Map<Verification.Row, String> traceFiles, boolean quick) {
        long bad = rows.stream().filter(r -> !r.matches()).count();
        StringBuilder b = new StringBuilder("# kcheck verify\n\n");
        b.append(bad == 0 ? "All " + rows.size() + " verdicts match the baseline"
                : bad + " of " + rows.size() + " verdicts differ from the baseline");
        b.append(quick ? " (quick bounds).\n\n" : ".\n\n");
        b.append("| model | property | variant | params | verdict | expected | states | seconds | trace |\n");
        b.append("|---|---|---|---|---|---|---:|---:|---|\n");
        for (Verification.Row r : rows) {
            b.append("| ").append(r.entry().model()).append(" | ").append(r.entry().property()).append(" | ")
                    .append(r.entry().variant()).append(" | ").append(JUnitXml.params(r).replace("|", "\\|")).append(" | ")
                    .append(r.matches() ? "" : "**").append(r.shown()).append(r.matches() ? "" : "**").append(" | ")
                    .append(r.expectedShown()).append(" | ").append(String.format(Locale.ROOT, "%,d", r.run().stats().states()))
                    .append(" | ").append(String.format(Locale.ROOT, "%.2f", r.run().stats().seconds())).append(" | ")
                    .append(traceFiles.getOrDefault(r, "")).append(" |\n");
        }
        return b.toString();
    }
}
