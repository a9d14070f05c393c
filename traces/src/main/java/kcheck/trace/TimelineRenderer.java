package kcheck.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Renders a trace as a timeline: one column per CPU or task, time downwards, each step in its
 * actor's column with the fields it changed beneath it, the violating step marked, a lasso's
 * cycle bracketed, and the model's legend beneath. It reads like the diagrams in the
 * mailing-list posts. Every line fits in the given width; when the actors' columns would be too
 * narrow to read, the trace is rendered in the compact form instead (one line per step, see
 * {@link CompactRenderer}).
 */
public final class TimelineRenderer {
    /** Width when none is given (and the command line's when stdout is not a terminal). */
    public static final int DEFAULT_WIDTH = 100;
    /** Narrowest width {@code --width} accepts. */
    public static final int MIN_WIDTH = 40;
    private static final int MAX_COLUMN = 46;
    private static final int MIN_COLUMN = 24;
    /** Below this a column is unreadable: the compact form is used instead. */
    private static final int MIN_READABLE = 20;

    private TimelineRenderer() {
    }

    public static String render(Trace t) {
        return render(t, DEFAULT_WIDTH);
    }

    /** The timeline with every line at most {@code width} characters (at least {@link #MIN_WIDTH}). */
    public static String render(Trace t, int width) {
        width = Math.max(MIN_WIDTH, width);
        StringBuilder out = new StringBuilder();
        header(t, out, width);
        int n = t.actors().size();
        int col = columnWidth(t, n, width);
        if (col < MIN_READABLE) {
            Text.para(out, "(" + n + " columns do not fit in " + width + " characters: one line per step; pass --width "
                    + (5 + n * (MIN_READABLE + 3)) + " or more for columns)", width, "", "");
            out.append('\n');
            out.append(CompactRenderer.steps(t, width));
            out.append(CompactRenderer.changesNote(t, width));
            footer(t, out, width);
            return out.toString();
        }
        String sep = "-----+" + ("-".repeat(col + 2) + "+").repeat(n - 1) + "-".repeat(col + 2);
        StringBuilder head = new StringBuilder(" step");
        for (String a : t.actors()) {
            head.append("| ").append(pad(a.length() > col ? a.substring(0, col) : a, col)).append(' ');
        }
        out.append(Text.rstrip(head.toString())).append('\n').append(sep).append('\n');
        for (Trace.Step s : t.steps()) {
            if (t.loopStart() != null && s.index() == t.loopStart() + 1) {
                out.append("     +== cycle: steps ").append(s.index()).append("..").append(t.steps().size())
                        .append(" repeat forever ==\n");
            }
            List<String> cell = new ArrayList<>(wrap(s.action(), col));
            for (Trace.Field f : s.changes()) {
                cell.addAll(wrap("  " + f.name() + " = " + f.value(), col));
            }
            boolean violating = s.index() == t.violationStep() && "VIOLATED".equals(t.verdict()) && t.loopStart() == null;
            if (violating) {
                cell.addAll(wrap("*** " + t.property() + " VIOLATED", col));
            }
            for (int line = 0; line < cell.size(); line++) {
                StringBuilder row = new StringBuilder();
                if (line == 0) {
                    row.append(violating ? "=>" : "  ").append(String.format("%3d", s.index()));
                } else {
                    row.append("     ");
                }
                for (int a = 0; a < n; a++) {
                    row.append("| ").append(pad(a == s.actor() ? cell.get(line) : "", col)).append(' ');
                }
                out.append(Text.rstrip(row.toString())).append('\n');
            }
        }
        if (t.loopStart() != null) {
            Text.para(out, "     +== back to the state after step " + t.loopStart() + " (an equivalent state): the cycle repeats ==",
                    width, "", "         ");
        }
        out.append(sep).append('\n');
        footer(t, out, width);
        return out.toString();
    }

    private static void footer(Trace t, StringBuilder out, int width) {
        if ("VIOLATED".equals(t.verdict())) {
            String where = t.loopStart() != null ? "cycle after step " + t.loopStart()
                    : t.violationStep() == 0 ? "initial state" : "step " + t.violationStep();
            Text.para(out, "VIOLATION of " + t.property() + " at " + where + ": " + Objects.toString(t.message(), ""), width, "", "  ");
        } else {
            Text.para(out, Objects.toString(t.message(), ""), width, "", "  ");
        }
        legend(t, out, width);
    }

    /** The model's legend under a heading, each line wrapped to {@code width}; nothing if the trace has none. */
    static void legend(Trace t, StringBuilder out, int width) {
        if (t.legend() == null || t.legend().isEmpty()) {
            return;
        }
        out.append("legend:\n");
        for (String l : t.legend()) {
            Text.para(out, l, width, "  ", "      ");
        }
    }

    private static void header(Trace t, StringBuilder out, int width) {
        StringBuilder h = new StringBuilder("trace: ").append(t.model()).append(", variant ").append(t.variant());
        if (t.params() != null && !t.params().isEmpty()) {
            StringBuilder p = new StringBuilder();
            t.params().forEach((k, v) -> p.append(p.length() == 0 ? "" : " ").append(k).append('=').append(v));
            h.append(" (").append(p).append(')');
        }
        Text.para(out, h.toString(), width, "", "  ");
        if (t.variantFile() != null) {
            Text.para(out, "variant file: " + t.variantFile(), width, "", "  ");
        }
        Text.para(out, "property: " + t.property() + " (" + t.kind() + "): " + t.verdict(), width, "", "  ");
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
        Text.para(out, init.toString(), width, "initially: ", "           ");
        out.append('\n');
    }

    private static int columnWidth(Trace t, int n, int width) {
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
        int fits = (width - 5) / n - 3;
        return Math.min(w, fits);
    }

    /** Splits {@code s} into lines of at most {@code width} characters, at spaces where possible. */
    static List<String> wrap(String s, int width) {
        return Text.wrap(s, width, s.startsWith("  ") ? "    " : "  ");
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }
}
