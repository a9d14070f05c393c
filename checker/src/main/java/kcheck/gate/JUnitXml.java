package kcheck.gate;

import java.util.List;
import java.util.Locale;


/**
 * The verdict table as JUnit XML (the schema CI systems read): one {@code testcase} per
 * baseline entry; a verdict that differs from the baseline is a {@code failure} whose message
 * names the entry and whose body is the timeline of the trace, if any.
 */
public final class JUnitXml {
    private JUnitXml() {
    }

    /** {@code timeline} gives the rendered trace of a row (or "" if none). */
    public static String render(List<Verification.Row> rows, java.util.function.Function<Verification.Row, String> timeline,
                                boolean quick) {
        long failures = rows.stream().filter(r -> !r.matches()).count();
        double total = rows.stream().mapToDouble(r -> r.run().stats().seconds()).sum();
        StringBuilder b = new StringBuilder();
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        b.append("<testsuites name=\"kcheck verify\" tests=\"").append(rows.size()).append("\" failures=\"").append(failures)
                .append("\" errors=\"0\">\n");
        b.append("  <testsuite name=\"kcheck").append(quick ? " (quick bounds)" : "").append("\" tests=\"").append(rows.size())
                .append("\" failures=\"").append(failures).append("\" errors=\"0\" skipped=\"0\" time=\"")
                .append(String.format(Locale.ROOT, "%.3f", total)).append("\">\n");
        for (Verification.Row r : rows) {
            Baseline.Entry e = r.entry();
            b.append("    <testcase classname=\"kcheck.").append(esc(e.model())).append('.').append(esc(e.variant()))
                    .append("\" name=\"").append(esc(e.property() + " " + params(r))).append("\" time=\"")
                    .append(String.format(Locale.ROOT, "%.3f", r.run().stats().seconds())).append("\">\n");
            if (!r.matches()) {
                b.append("      <failure message=\"").append(esc(e.name() + ": expected " + e.expected() + ", got "
                        + r.result().verdict() + " (" + r.result().message() + ")")).append("\" type=\"VerdictMismatch\">")
                        .append(esc(timeline.apply(r))).append("</failure>\n");
            }
            b.append("      <system-out>").append(esc(r.result().verdict() + ": " + r.result().message() + " ("
                    + r.run().stats().states() + " states)")).append("</system-out>\n");
            b.append("    </testcase>\n");
        }
        b.append("  </testsuite>\n</testsuites>\n");
        return b.toString();
    }

    static String params(Verification.Row r) {
        StringBuilder b = new StringBuilder("[");
        r.params().forEach((k, v) -> b.append(b.length() == 1 ? "" : " ").append(k).append('=').append(v));
        return b.append(']').toString();
    }

    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
                        b.append(' ');
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }

}
