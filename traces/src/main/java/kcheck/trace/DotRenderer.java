package kcheck.trace;

import java.util.Objects;

/**
 * Renders a trace as a Graphviz sequence chart: one vertical lane per actor (CPU, task) under its
 * name, one row per step (ranked together, numbered on the left), the step as a box in its
 * actor's lane with the fields it changed, thin lifelines elsewhere; the violating step in red,
 * and a lasso's cycle closed by a dashed red edge back to the step it repeats from.
 */
public final class DotRenderer {
    private DotRenderer() {
    }

    public static String render(Trace t) {
        int n = t.actors().size();
        StringBuilder b = new StringBuilder();
        b.append("digraph kcheck {\n");
        b.append("  label=\"").append(esc(t.model() + " / " + t.variant() + " / " + t.property() + ": " + t.verdict()))
                .append("\\n").append(esc(Objects.toString(t.message(), ""))).append("\";\n");
        b.append("  labelloc=t; rankdir=TB; newrank=true; nodesep=0.3; ranksep=0.2;\n");
        b.append("  node [shape=box, fontname=\"monospace\", fontsize=10];\n");
        b.append("  edge [fontname=\"monospace\", fontsize=9, arrowhead=none, color=\"#bbbbbb\", style=dashed, weight=20];\n");
        b.append("  { rank=same; step [label=\"step\", shape=plaintext];");
        for (int a = 0; a < n; a++) {
            b.append(" a").append(a).append(" [label=\"").append(esc(t.actors().get(a)))
                    .append("\", style=\"filled,bold\", fillcolor=\"#eef2f7\"];");
        }
        b.append(" }\n");
        for (Trace.Step s : t.steps()) {
            int i = s.index();
            boolean bad = i == t.violationStep() && "VIOLATED".equals(t.verdict()) && t.loopStart() == null;
            boolean cycle = t.loopStart() != null && i > t.loopStart();
            b.append("  { rank=same; r").append(i).append(" [label=\"").append(bad ? "=> " : cycle ? "(cycle) " : "").append(i)
                    .append("\", shape=plaintext];");
            for (int a = 0; a < n; a++) {
                b.append(" a").append(a).append('_').append(i);
                if (a == s.actor()) {
                    StringBuilder label = new StringBuilder(esc(s.action()));
                    if (s.function() != null && !s.function().isBlank()) {
                        label.append("\\l  [").append(esc(s.function())).append(']');
                    }
                    for (Trace.Field f : s.changes()) {
                        label.append("\\l").append(esc(f.name() + " = " + f.value()));
                    }
                    label.append("\\l");
                    b.append(" [label=\"").append(label).append('"').append(bad ? ", color=red, penwidth=2" : "").append("];");
                } else {
                    b.append(" [shape=point, width=0.02, label=\"\", color=\"#bbbbbb\"];");
                }
            }
            b.append(" }\n");
        }
        b.append("  step");
        for (Trace.Step s : t.steps()) {
            b.append(" -> r").append(s.index());
        }
        b.append(" [style=invis];\n");
        for (int a = 0; a < n; a++) {
            b.append("  a").append(a);
            for (Trace.Step s : t.steps()) {
                b.append(" -> a").append(a).append('_').append(s.index());
            }
            b.append(";\n");
        }
        if (t.loopStart() != null && !t.steps().isEmpty()) {
            Trace.Step last = t.steps().get(t.steps().size() - 1);
            Trace.Step first = t.steps().get(t.loopStart());
            b.append("  a").append(last.actor()).append('_').append(last.index()).append(" -> a").append(first.actor()).append('_')
                    .append(first.index()).append(" [label=\"repeats from step ").append(first.index())
                    .append(" (equivalent state)\", style=dashed, color=red, constraint=false, arrowhead=normal];\n");
        }
        b.append("}\n");
        return b.toString();
    }

    private static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
