package kcheck.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import kcheck.variantfile.VariantFile;

/**
 * Every way a command can end without a verdict, printed the same way: one line on stderr
 * ({@code kcheck: ...}), and with {@code --json} one document on stdout naming the kcheck
 * version, the outcome, the exit code and the error. Written by hand (no Jackson) so that it
 * still works when the heap is exhausted.
 */
final class ErrorReport {
    /** What kind of error: the {@code "kind"} of the --json document's {@code "error"}. */
    enum Kind {
        USAGE("usage"), INPUT("input"), VARIANT_FILE("variant-file"), INTERNAL("internal"), MEMORY("memory"), TIME_LIMIT("time-limit");

        final String json;

        Kind(String json) {
            this.json = json;
        }
    }

    private ErrorReport() {
    }

    /** Prints the error (stderr line, details, --json document) and returns the exit code. */
    static synchronized int print(Kind kind, int exit, String line, List<String> details, VariantFile.Frame frame, String reportFile,
                                  String limit) {
        if (Session.errorReported) {
            return exit;
        }
        Session.errorReported = true;
        System.err.println("kcheck: " + Main.oneLine(line));
        for (String d : details) {
            System.err.println(d);
        }
        System.err.flush();
        if (Session.json && !Session.documentPrinted) {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("kind", kind.json);
            error.put("message", Main.oneLine(line));
            if (!details.isEmpty()) {
                error.put("details", details);
            }
            if (frame != null) {
                error.put("file", frame.file());
                error.put("line", frame.line());
                error.put("method", frame.method());
            }
            if (reportFile != null) {
                error.put("report", reportFile);
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("kcheck", kcheck.report.BuildInfo.version());
            if (!kcheck.report.BuildInfo.revision().isEmpty()) {
                doc.put("revision", kcheck.report.BuildInfo.revision());
            }
            doc.put("command", Session.command);
            doc.put("outcome", exit == ExitCodes.INCOMPLETE ? "INCOMPLETE" : "ERROR");
            doc.put("exitCode", exit);
            if (limit != null) {
                doc.put("limit", limit);
            }
            doc.put("error", error);
            System.out.println(json(doc, ""));
            System.out.flush();
            Session.documentPrinted = true;
        }
        return exit;
    }

    static int print(Kind kind, int exit, String line) {
        return print(kind, exit, line, List.of(), null, null, null);
    }

    /** Memory ran out: INCOMPLETE for a search (nothing was shown), else exit 2; the line says how to give more. */
    static int memory() {
        Session.releaseReserve();
        long max = Runtime.getRuntime().maxMemory();
        String heap = max == Long.MAX_VALUE ? "" : " (the Java heap is " + Format.bytes(max) + ")";
        boolean search = Session.searching();
        String line = "out of memory" + heap + (search ? ": the search is INCOMPLETE, no verdict" : "")
                + "; give kcheck more memory, e.g. KCHECK_JAVA_OPTS=-Xmx8g (java -Xmx8g -jar kcheck.jar)"
                + (search ? ", or bound the search with --memory / --max-states" : "");
        return print(Kind.MEMORY, search ? ExitCodes.INCOMPLETE : ExitCodes.USAGE, line, List.of(), null, null,
                search ? "memory" : null);
    }

    /**
     * A failure of kcheck itself: exit 2, never a verdict; the stack trace goes to a report file to
     * attach to a bug report (its path is printed).
     */
    static int internal(Throwable t, String what) {
        String file = writeReport(t);
        StackTraceElement at = firstKcheckFrame(t);
        String line = "internal error" + (what == null ? "" : " (" + what + ")") + ": " + describe(t)
                + (at == null ? "" : " (at " + at.getFileName() + ":" + at.getLineNumber() + ")")
                + "; a bug of kcheck, not a verdict: " + (file != null ? "please attach " + file + " to a bug report"
                : "the report could not be written to " + System.getProperty("java.io.tmpdir"));
        return print(Kind.INTERNAL, ExitCodes.USAGE, line, List.of(), null, file, null);
    }

    /** The report file: what ran, where, and the full stack trace; null if it cannot be written. */
    static String writeReport(Throwable t) {
        StringWriter sw = new StringWriter();
        PrintWriter w = new PrintWriter(sw);
        w.println(kcheck.report.BuildInfo.label() + " internal error, " + LocalDateTime.now());
        w.println("command: kcheck " + String.join(" ", Session.args));
        w.println("java: " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ", "
                + System.getProperty("java.home") + ")");
        w.println("os: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch")
                + ", " + Runtime.getRuntime().availableProcessors() + " cores, max heap " + Format.bytes(Runtime.getRuntime().maxMemory()));
        w.println();
        t.printStackTrace(w);
        w.flush();
        try {
            String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
            Path p = Files.createTempFile("kcheck-internal-error-" + stamp + "-", ".txt");
            Files.writeString(p, sw.toString(), StandardCharsets.UTF_8);
            return p.toString();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static StackTraceElement firstKcheckFrame(Throwable t) {
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().startsWith("kcheck.")) {
                return e;
            }
        }
        return t.getStackTrace().length > 0 ? t.getStackTrace()[0] : null;
    }

    static String describe(Throwable t) {
        String msg = t.getMessage();
        return Main.oneLine(t.getClass().getName() + (msg == null ? "" : ": " + msg));
    }

    /** Minimal JSON for the error document: maps, lists, strings, numbers. */
    static String json(Object v, String indent) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Number || v instanceof Boolean) {
            return v.toString();
        }
        if (v instanceof Map<?, ?> m) {
            List<String> parts = new ArrayList<>();
            String in = indent + "  ";
            for (Map.Entry<?, ?> e : m.entrySet()) {
                parts.add(in + quote(String.valueOf(e.getKey())) + " : " + json(e.getValue(), in));
            }
            return parts.isEmpty() ? "{ }" : "{\n" + String.join(",\n", parts) + "\n" + indent + "}";
        }
        if (v instanceof List<?> l) {
            List<String> parts = new ArrayList<>();
            for (Object o : l) {
                parts.add(json(o, indent + "  "));
            }
            return "[ " + String.join(", ", parts) + " ]";
        }
        return quote(v.toString());
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
