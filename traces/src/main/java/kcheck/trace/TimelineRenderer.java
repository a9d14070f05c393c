package kcheck.trace;

import java.util.ArrayList;
import java.util.List;

/**
 * Renders a trace as a timeline: one column per CPU or task, time downwards, each step in its
 * actor's column with the fields it changed beneath it, the violating step marked, a lasso's
 * cycle bracketed. It reads like the diagrams in the mailing-list posts.
 */
public final class TimelineRenderer {
    private static final int MAX_COLUMN = 46;
    private static final int MIN_COLUMN = 24;

    private TimelineRenderer() {
    }

    public static String render(Trace t) {
        StringBuilder out = new StringBuilder();
        header(t, out);
        int n = t.actors().size();
        int width = columnWidth(t, n);
        String sep = "-----+" + ("-".repeat(width + 2) + "+").repeat(n - 1) + "-".repeat(width + 2);
        StringBuilder head = new StringBuilder(" step");
        for (String a : t.actors()) {
            head.append("| ").append(pad(a, width)).append(' ');
        }
        out.append(rstrip(head.toString())).append('\n').append(sep).append('\n');
        for (Trace.Step s : t.steps()) {
            if (t.loopStart() != null && s.index() == t.loopStart() + 1) {
                out.append("     +== cycle: steps ").append(s.index()).append("..").append(t.steps().size())
                        .append(" repeat forever ==\n");
            }
            List<String> cell = new ArrayList<>(wrap(s.action(), width));
            for (Trace.Field f : s.changes()) {
                cell.addAll(wrap("  " + f.name() + " = " + f.value(), width));
            }
            boolean violating = s.index() == t.violationStep() && "VIOLATED".equals(t.verdict()) && t.loopStart() == null;
            if (violating) {
                cell.add("*** " + t.property() + " VIOLATED");
            }
            for (int line = 0; line < cell.size(); line++) {
                StringBuilder row = new StringBuilder();
                if (line == 0) {
                    row.append(violating ? "=>" : "  ").append(String.format("%3d", s.index()));
                } else {
                    row.append("     ");
                }
                for (int a = 0; a < n; a++) {
                    row.append("| ").append(pad(a == s.actor() ? cell.get(line) : "", width)).append(' ');
                }
                out.append(rstrip(row.toString())).append('\n');
            }
        }
        if (t.loopStart() != null) {
            out.append("     +== back to the state after step ").append(t.loopStart())
                    .append(" (an equivalent state): the cycle repeats ==\n");
        }
        out.append(sep).append('\n');
        if ("VIOLATED".equals(t.verdict())) {
            String where = t.loopStart() != null ? "cycle after step " + t.loopStart()
                    : t.violationStep() == 0 ? "initial state" : "step " + t.violationStep();
            out.append("VIOLATION of ").append(t.property()).append(" at ").append(where).append(": ")
                    .append(java.util.Objects.toString(t.message(), "")).append('\n');
        } else {
            out.append(java.util.Objects.toString(t.message(), "")).append('\n');
        }
        return out.toString();
    }

    private static void header(Trace t, StringBuilder out) {
        out.append("trace: ").append(t.model()).append(", variant ").append(t.variant());
        if (t.params() != null && !t.params().isEmpty()) {
            StringBuilder p = new StringBuilder();
            t.params().forEach((k, v) -> p.append(p.length() == 0 ? "" : " ").append(k).append('=').append(v));
            out.append(" (").append(p).append(')');
        }
        out.append('\n');
        if (t.variantFile() != null) {
            out.append("variant file: ").append(t.variantFile()).append('\n');
        }
        out.append("property: ").append(t.property()).append(" (").append(t.kind()).append("): ").append(t.verdict()).append('\n');
        if (t.seed() != null) {
            out.append("seed: ").append(t.seed()).append('\n');
        }
        if (t.minimisedFrom() != null) {
            out.append("minimised: ").append(t.minimisedFrom()).append(" -> ").append(t.steps().size()).append(" steps\n");
        }
        StringBuilder init = new StringBuilder();
        for (Trace.Field f : t.initial()) {
            init.append(init.length() == 0 ? "" : ", ").append(f.name()).append('=').append(f.value());
        }
        List<String> lines = wrap(init.toString(), 100);
        for (int i = 0; i < lines.size(); i++) {
            out.append(i == 0 ? "initially: " : "           ").append(lines.get(i)).append('\n');
        }
        out.append('\n');
    }

    private static int columnWidth(Trace t, int n) {
        int w = MIN_COLUMN;
        for (String a : t.actors()) {
            w = Math.max(w, a.length());
        }
        for (Trace.Step s : t.steps()) {
            w = Math.max(w, Math.min(MAX_COLUMN, s.action().length()));
            for (Trace.Field f : s.changes()) {
                w = Math.max(w, Math.min(MAX_COLUMN, f.name().length() + f.value().length() + 5));
            }
        }
        int budget = n <= 2 ? MAX_COLUMN : Math.max(MIN_COLUMN, 150 / n);
        return Math.min(w, budget);
    }

    /** Splits {@code s} into lines of at most {@code width} characters, at spaces where possible. */
    static List<String> wrap(String s, int width) {
        List<String> out = new ArrayList<>();
        String indent = s.startsWith("  ") ? "    " : "  ";
        String rest = s;
        boolean first = true;
        while (!rest.isEmpty()) {
            String prefix = first ? "" : indent;
            int room = width - prefix.length();
            if (rest.length() <= room) {
                out.add(prefix + rest);
                break;
            }
            int cut = rest.lastIndexOf(' ', room);
            if (cut <= room / 3) {
                cut = room;
            }
            out.add(prefix + rest.substring(0, cut));
            rest = rest.substring(cut).stripLeading();
            first = false;
        }
        if (out.isEmpty()) {
            out.add("");
        }
        return out;
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }

    private static String rstrip(String s) {
        int e = s.length();
        while (e > 0 && s.charAt(e - 1) == ' ') {
            e--;
        }
        return s.substring(0, e);
    }
}
