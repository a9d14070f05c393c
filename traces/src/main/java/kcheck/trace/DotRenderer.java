package kcheck.trace;

/**
 * Renders a trace as a Graphviz graph: one node per state (the fields that changed to reach it),
 * one edge per step labelled with actor and action; a lasso's cycle closes back to its start.
 */
public final class DotRenderer {
    private DotRenderer() {
    }

    public static String render(Trace t) {
        StringBuilder b = new StringBuilder();
        b.append("digraph kcheck {\n");
        b.append("  label=\"").append(esc(t.model() + " / " + t.variant() + " / " + t.property() + ": " + t.verdict()))
                .append("\\n").append(esc(java.util.Objects.toString(t.message(), ""))).append("\";\n");
        b.append("  labelloc=t; rankdir=TB; node [shape=box, fontname=\"monospace\", fontsize=10];\n");
        b.append("  edge [fontname=\"monospace\", fontsize=10];\n");
        b.append("  s0 [label=\"initial state\", style=rounded];\n");
        for (Trace.Step s : t.steps()) {
            StringBuilder label = new StringBuilder("after step ").append(s.index());
            for (Trace.Field f : s.changes()) {
                label.append("\\l").append(esc(f.name() + " = " + f.value()));
            }
            label.append("\\l");
            boolean bad = s.index() == t.violationStep() && "VIOLATED".equals(t.verdict()) && t.loopStart() == null;
            b.append("  s").append(s.index()).append(" [label=\"").append(label).append('"')
                    .append(bad ? ", color=red, penwidth=2" : "").append("];\n");
        }
        for (Trace.Step s : t.steps()) {
            b.append("  s").append(s.index() - 1).append(" -> s").append(s.index()).append(" [label=\"")
                    .append(esc(t.actors().get(s.actor()) + ": " + s.action())).append("\"];\n");
        }
        if (t.loopStart() != null && !t.steps().isEmpty()) {
            b.append("  s").append(t.steps().size()).append(" -> s").append(t.loopStart())
                    .append(" [label=\"repeats (equivalent state)\", style=dashed, color=red];\n");
        }
        b.append("}\n");
        return b.toString();
    }

    private static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
