package kcheck.trace;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The compact form of a trace: one line per step ({@code 6  CPU 1  spin_trylock(rq[0]) = 0 [2]}),
 * long actions wrapped under themselves, the violating step marked {@code =>}, a lasso's cycle
 * bracketed, and the kernel functions cited once each as numbered notes
 * ({@code [2] double_lock_balance (kernel/sched.c:NNN, v2.6.27)}). What a review mail carries;
 * the fields each step changes are left to the timeline and the HTML viewer.
 */
public final class CompactRenderer {
    private CompactRenderer() {
    }

    /** The steps, one line each (wrapped to {@code width}), then the numbered kernel citations. */
    public static String steps(Trace t, int width) {
        Map<String, Integer> notes = notes(t);
        int digits = Integer.toString(Math.max(1, t.steps().size())).length();
        int actorWidth = 0;
        for (String a : t.actors()) {
            actorWidth = Math.max(actorWidth, a.length());
        }
        String indent = " ".repeat(2 + digits + 2 + actorWidth + 2);
        if (indent.length() > width / 2) {
            indent = " ".repeat(2 + digits + 2 + 2);
        }
        StringBuilder out = new StringBuilder();
        for (Trace.Step s : t.steps()) {
            if (t.loopStart() != null && s.index() == t.loopStart() + 1) {
                Text.para(out, "+== cycle: steps " + s.index() + ".." + t.steps().size() + " repeat forever ==", width, "", "    ");
            }
            boolean violating = s.index() == t.violationStep() && "VIOLATED".equals(t.verdict()) && t.loopStart() == null;
            String lead = (violating ? "=>" : "  ") + String.format("%" + digits + "d", s.index()) + "  "
                    + pad(t.actors().get(s.actor()), actorWidth) + "  ";
            String text = s.action() + (s.function() == null || s.function().isBlank() ? "" : " [" + notes.get(s.function()) + "]");
            if (lead.length() > indent.length()) {
                Text.para(out, lead.strip(), width, violating ? "" : "  ", indent);
                Text.para(out, text, width, indent, indent);
            } else {
                Text.para(out, text, width, lead, indent);
            }
        }
        if (t.loopStart() != null) {
            Text.para(out, "+== back to the state after step " + t.loopStart() + ": the cycle repeats ==", width, "", "    ");
        }
        if (!notes.isEmpty()) {
            out.append("kernel code:\n");
            notes.forEach((fn, k) -> Text.para(out, "[" + k + "] " + fn, width, "  ", "      "));
        }
        return out.toString();
    }

    /** One line saying where the changed fields are, for the compact form standing in for a timeline. */
    static String changesNote(Trace t, int width) {
        StringBuilder out = new StringBuilder();
        Text.para(out, "(the fields each step changes: kcheck render --format html, or a wider --width)", width, "", " ");
        return out.toString();
    }

    /** The distinct kernel citations of the steps, numbered from 1 in order of first use. */
    static Map<String, Integer> notes(Trace t) {
        Map<String, Integer> notes = new LinkedHashMap<>();
        for (Trace.Step s : t.steps()) {
            if (s.function() != null && !s.function().isBlank()) {
                notes.putIfAbsent(s.function(), notes.size() + 1);
            }
        }
        return notes;
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }

}
