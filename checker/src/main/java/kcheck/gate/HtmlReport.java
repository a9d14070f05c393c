package kcheck.gate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import kcheck.engine.MetricResult;
import kcheck.trace.MetricsPlot;

/**
 * {@code verify --html FILE}: the verdict table as one self-contained HTML page, and for every
 * metric of the baseline an SVG bar chart of its maxima per component (CPU, task, counter), one
 * bar per variant, for each set of bounds: the posts' claims as pictures.
 */
public final class HtmlReport {
    private HtmlReport() {
    }

    public static String render(List<Verification.Row> rows, Map<Verification.Row, String> traceFiles, boolean quick, String kcheck) {
        long bad = rows.stream().filter(r -> !r.matches()).count();
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>kcheck verify</title>\n<style>\n")
                .append("body { font: 14px/1.4 system-ui, sans-serif; margin: 20px; color: #1d1d1f; }\n")
                .append("table { border-collapse: collapse; } th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; }\n")
                .append("th { background: #f3f3f3; } td.n { text-align: right; font-family: monospace; }\n")
                .append(".VIOLATED { color: #c62828; font-weight: 600; } .HOLDS { color: #2e7d32; } .INCOMPLETE { color: #8d6e00; }\n")
                .append("tr.differs { background: #ffebee; } .plots { display: flex; flex-wrap: wrap; gap: 16px; }\n")
                .append(".plot { border: 1px solid #ddd; padding: 6px; background: #fff; } .note { color: #555; }\n")
                .append("</style>\n</head>\n<body>\n");
        b.append("<h1>kcheck verify</h1>\n<p>").append(bad == 0 ? "All " + rows.size() + " verdicts match the baseline"
                : bad + " of " + rows.size() + " verdicts differ from the baseline").append(quick ? " (quick bounds)." : ".")
                .append(" <span class=\"note\">").append(esc(kcheck)).append("</span></p>\n");
        plots(b, rows);
        b.append("<h2>Verdicts</h2>\n<table>\n<tr><th>model</th><th>property</th><th>variant</th><th>params</th><th>verdict</th>"
                + "<th>expected</th><th>states</th><th>seconds</th><th>trace</th></tr>\n");
        for (Verification.Row r : rows) {
            b.append("<tr").append(r.matches() ? "" : " class=\"differs\"").append("><td>").append(esc(r.entry().model()))
                    .append("</td><td>").append(esc(r.entry().property())).append("</td><td>").append(esc(r.entry().variant()))
                    .append("</td><td>").append(esc(JUnitXml.params(r))).append("</td><td class=\"")
                    .append(r.result().figure() ? "figure" : r.result().verdict()).append("\">").append(esc(r.shown()))
                    .append("</td><td>").append(r.expectedShown()).append("</td><td class=\"n\">")
                    .append(String.format(Locale.ROOT, "%,d", r.run().stats().states())).append("</td><td class=\"n\">")
                    .append(String.format(Locale.ROOT, "%.2f", r.run().stats().seconds())).append("</td><td>")
                    .append(esc(traceFiles.getOrDefault(r, ""))).append("</td></tr>\n");
        }
        b.append("</table>\n</body>\n</html>\n");
        return b.toString();
    }

    /** One chart per (model, metric, bounds), a series per variant (mutants left out). */
    private static void plots(StringBuilder b, List<Verification.Row> rows) {
        Map<String, List<Verification.Row>> groups = new LinkedHashMap<>();
        for (Verification.Row r : rows) {
            if (r.result().metric() == null || kcheck.model.Models.get(r.entry().model()).variant(r.entry().variant()).mutant()) {
                continue;
            }
            groups.computeIfAbsent(r.entry().model() + " \u00b7 " + r.entry().property() + " \u00b7 " + JUnitXml.params(r),
                    k -> new ArrayList<>()).add(r);
        }
        if (groups.isEmpty()) {
            return;
        }
        b.append("<h2>Metrics: maximum per component over all reachable states, per variant</h2>\n<div class=\"plots\">\n");
        for (Map.Entry<String, List<Verification.Row>> g : groups.entrySet()) {
            MetricResult first = g.getValue().get(0).result().metric();
            List<MetricsPlot.Series> series = new ArrayList<>();
            for (Verification.Row r : g.getValue()) {
                MetricResult m = r.result().metric();
                if (m.components().equals(first.components())) {
                    series.add(new MetricsPlot.Series(r.entry().variant(), m.max()));
                }
            }
            b.append("<div class=\"plot\">").append(MetricsPlot.svg(g.getKey(), first.components(), series, first.saturation(),
                    first.bound())).append("</div>\n");
        }
        b.append("</div>\n");
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
