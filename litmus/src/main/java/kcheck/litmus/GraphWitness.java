package kcheck.litmus;

import java.util.ArrayList;
import java.util.List;

import kcheck.litmus.GraphSearch.Access;
import kcheck.litmus.GraphSearch.Kind;
import kcheck.litmus.GraphSearch.Part;

/** An execution of {@link GraphSearch} as text: each thread's events in program order with their rf sources, then co. */
final class GraphWitness {
    private final GraphSpace sp;

    GraphWitness(GraphSpace sp) {
        this.sp = sp;
    }

    /** Per thread its events with rf sources, then each location's coherence order; stuck threads marked. */
    String render(SearchGraph g, List<Integer> stuck) {
        StringBuilder b = new StringBuilder();
        for (int t = 0; t < g.runs.length; t++) {
            b.append("thread ").append(t).append(stuck.contains(t) ? " (spins for ever at its last read, which reads the last write)" : "").append('\n');
            List<Access> as = g.runs[t].events();
            for (int k = 0; k < g.added[t]; k++) {
                Access a = as.get(k);
                if (a.kind() != Kind.FENCE && !sp.parts.get(sp.locId(a.loc())).isEmpty() && a.parts() == 0) {
                    continue; /* covers no part: not an event (it only composes a partial store's whole value) */
                }
                b.append(String.format("  %2d  %-40s %s%n", k, describe(a, g.rf[t][k]), a.label()));
            }
        }
        b.append("coherence order (co), locations written more than once:\n");
        for (int l = 0; l < sp.locations.size(); l++) {
            if (g.co[l].length > 2) {
                b.append("  ").append(sp.locations.get(l)).append(':');
                for (int c : g.co[l]) {
                    b.append(' ').append(name(c)).append('=').append(sp.value(g, c));
                }
                b.append('\n');
            }
        }
        return b.toString();
    }

    private String describe(Access a, int src) {
        String ann = annotations(a.flags());
        return switch (a.kind()) {
            case FENCE -> "F[" + a.fence() + "]";
            case WRITE -> "W" + ann + " " + values(a);
            case READ -> "R" + ann + " " + values(a) + " <- " + name(src);
        };
    }

    /** {@code x = 1}, or for a location with parts each covered part: {@code lock.locked=0 lock.tail=2}. */
    private String values(Access a) {
        List<Part> ps = sp.parts.get(sp.locId(a.loc()));
        if (ps.isEmpty()) {
            return a.loc() + " = " + a.value();
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < ps.size(); i++) {
            if ((a.parts() >>> i & 1) != 0) {
                b.append(b.length() == 0 ? "" : " ").append(a.loc()).append('.').append(ps.get(i).name()).append('=')
                        .append(ps.get(i).of(a.value()));
            }
        }
        return b.toString();
    }

    private static String annotations(int flags) {
        List<String> out = new ArrayList<>();
        if ((flags & GraphSearch.ACQUIRE) != 0) {
            out.add("acquire");
        }
        if ((flags & GraphSearch.RELEASE) != 0) {
            out.add("release");
        }
        if ((flags & GraphSearch.ONCE) != 0) {
            out.add("once");
        }
        if ((flags & GraphSearch.RMW) != 0) {
            out.add("rmw");
        }
        return out.isEmpty() ? "[plain]" : "[" + String.join(",", out) + "]";
    }

    private String name(int code) {
        return code < 0 ? "init" : "t" + (code >> 8) + "#" + (code & 255);
    }
}
