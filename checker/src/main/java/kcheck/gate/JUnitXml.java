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
                b.append("      <failure message=\"").append(esc(e.name() + ": expected " + r.expectedShown() + ", got "
                        + r.shown() + " (" + r.result().message() + ")")).append("\" type=\"VerdictMismatch\">")
                        .append(esc(timeline.apply(r))).append("</failure>\n");
            }
            b.append("      <system-out>").append(esc((r.result().figure() ? "" : r.result().verdict() + ": ") + r.result().message()
                    + " (" + r.run().stats().states() + " states)")).append("</system-out>\n");
            b.append("    </testcase>\n");
        }
        b.append("  </testsuite>\n</testsuites>\n");
        return b.toString();
    }

    /**
     * Hands parse errors back as exceptions and prints nothing: the parser's default handler would
     * print its own "[Fatal Error] file:line:col: ..." on stderr before kcheck's one line.
     */
    private static final org.xml.sax.ErrorHandler SILENT = new org.xml.sax.ErrorHandler() {
        @Override
        public void warning(org.xml.sax.SAXParseException e) {
        }

        @Override
        public void error(org.xml.sax.SAXParseException e) throws org.xml.sax.SAXException {
            throw e;
        }

        @Override
        public void fatalError(org.xml.sax.SAXParseException e) throws org.xml.sax.SAXException {
            throw e;
        }
    };

    private static org.w3c.dom.Document parse(java.nio.file.Path p) {
        try {
            javax.xml.parsers.DocumentBuilderFactory f = javax.xml.parsers.DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            javax.xml.parsers.DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(SILENT);
            return b.parse(p.toFile());
        } catch (org.xml.sax.SAXParseException e) {
            throw new IllegalArgumentException("cannot read JUnit XML " + p + ": " + e.getMessage() + " (line " + e.getLineNumber()
                    + ", column " + e.getColumnNumber() + ")");
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot read JUnit XML " + p + ": " + e.getMessage());
        }
    }

    /**
     * Merges the reports of {@code verify --shard} runs into one: every test case of every
     * input, in input order, in one suite whose counts and time are the sums. Throws
     * {@link IllegalArgumentException} naming the file that is not such a report.
     */
    public static String merge(List<java.nio.file.Path> reports) {
        StringBuilder cases = new StringBuilder();
        long tests = 0;
        long failures = 0;
        double time = 0;
        boolean quick = false;
        for (java.nio.file.Path p : reports) {
            org.w3c.dom.Document doc = parse(p);
            org.w3c.dom.NodeList suites = doc.getElementsByTagName("testsuite");
            if (!doc.getDocumentElement().getTagName().equals("testsuites") || suites.getLength() == 0) {
                throw new IllegalArgumentException(p + " is not a kcheck verify JUnit report (no testsuites/testsuite)");
            }
            for (int s = 0; s < suites.getLength(); s++) {
                org.w3c.dom.Element suite = (org.w3c.dom.Element) suites.item(s);
                quick |= suite.getAttribute("name").contains("quick");
                try {
                    time += Double.parseDouble(suite.getAttribute("time"));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(p + ": testsuite time '" + suite.getAttribute("time") + "' is not a number");
                }
                org.w3c.dom.NodeList tc = suite.getElementsByTagName("testcase");
                for (int k = 0; k < tc.getLength(); k++) {
                    org.w3c.dom.Element c = (org.w3c.dom.Element) tc.item(k);
                    tests++;
                    cases.append("    <testcase classname=\"").append(esc(c.getAttribute("classname"))).append("\" name=\"")
                            .append(esc(c.getAttribute("name"))).append("\" time=\"").append(esc(c.getAttribute("time")))
                            .append("\">\n");
                    org.w3c.dom.NodeList fl = c.getElementsByTagName("failure");
                    for (int j = 0; j < fl.getLength(); j++) {
                        org.w3c.dom.Element fe = (org.w3c.dom.Element) fl.item(j);
                        failures++;
                        cases.append("      <failure message=\"").append(esc(fe.getAttribute("message")))
                                .append("\" type=\"").append(esc(fe.getAttribute("type"))).append("\">")
                                .append(esc(fe.getTextContent())).append("</failure>\n");
                    }
                    org.w3c.dom.NodeList so = c.getElementsByTagName("system-out");
                    for (int j = 0; j < so.getLength(); j++) {
                        cases.append("      <system-out>").append(esc(so.item(j).getTextContent())).append("</system-out>\n");
                    }
                    cases.append("    </testcase>\n");
                }
            }
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<testsuites name=\"kcheck verify\" tests=\"" + tests + "\" failures=\"" + failures + "\" errors=\"0\">\n"
                + "  <testsuite name=\"kcheck" + (quick ? " (quick bounds)" : "") + "\" tests=\"" + tests + "\" failures=\""
                + failures + "\" errors=\"0\" skipped=\"0\" time=\"" + String.format(Locale.ROOT, "%.3f", time) + "\">\n"
                + cases + "  </testsuite>\n</testsuites>\n";
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
