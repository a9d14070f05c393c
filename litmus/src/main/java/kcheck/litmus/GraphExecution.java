package kcheck.litmus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import kcheck.litmus.GraphSearch.Access;
import kcheck.litmus.GraphSearch.Kind;
import kcheck.litmus.GraphSearch.Part;

/**
 * A {@link SearchGraph} as the {@link Execution} linux-kernel.cat judges: the initial writes, each thread's
 * events (one per part an access covers, for a location with parts), rf (each part read from the last write
 * of that part up to the whole write read) and co (per LKMM location, the whole-value order restricted to
 * the writes of that part). Dependencies and RMW pairs follow the events into their parts.
 */
final class GraphExecution {
    private final GraphSpace sp;
    /** Per LKMM event of the execution last built: the thread event it comes from ({@code t1#5}). */
    String[] origin;

    GraphExecution(GraphSpace sp) {
        this.sp = sp;
    }

    /** The LKMM execution of {@code g}, or null if it needs more events than {@link Rel#MAX} (or a thread more than 64). */
    Execution build(SearchGraph g) {
        /* LKMM locations: each location, or each of its parts */
        List<String> lkmmLocs = new ArrayList<>();
        int[] firstLoc = new int[sp.locations.size()];
        for (int l = 0; l < sp.locations.size(); l++) {
            firstLoc[l] = lkmmLocs.size();
            if (sp.parts.get(l).isEmpty()) {
                lkmmLocs.add(sp.locations.get(l));
            } else {
                for (Part p : sp.parts.get(l)) {
                    lkmmLocs.add(sp.locations.get(l) + "." + p.name());
                }
            }
        }
        int n = lkmmLocs.size();
        /* each thread's events expanded, and where event k went: its first index and count */
        List<ThreadPath> paths = new ArrayList<>();
        int[][] at = new int[g.runs.length][];
        int[][] count = new int[g.runs.length][];
        int[] base = new int[g.runs.length];
        for (int t = 0; t < g.runs.length; t++) {
            List<Access> as = g.runs[t].events();
            at[t] = new int[g.added[t]];
            count[t] = new int[g.added[t]];
            int local = 0;
            for (int k = 0; k < g.added[t]; k++) {
                at[t][k] = local;
                count[t][k] = width(as.get(k));
                local += count[t][k];
            }
            base[t] = n;
            n += local;
            if (local > 64) {
                n = Integer.MAX_VALUE; /* dependencies are masks over a thread's events */
            }
        }
        if (n > Rel.MAX) {
            return null;
        }
        for (int t = 0; t < g.runs.length; t++) {
            List<Access> as = g.runs[t].events();
            List<Event> es = new ArrayList<>();
            for (int k = 0; k < g.added[t]; k++) {
                Access a = as.get(k);
                long ctrl = remap(a.ctrl(), at[t], count[t]);
                long data = remap(a.data(), at[t], count[t]);
                if (a.kind() == Kind.FENCE) {
                    es.add(new Event(Event.Kind.F, a.flags(), a.fence(), null, null, 0, data, ctrl, 0));
                    continue;
                }
                Event.Kind kind = a.kind() == Kind.READ ? Event.Kind.R : Event.Kind.W;
                int l = sp.locId(a.loc());
                if (sp.parts.get(l).isEmpty()) {
                    es.add(new Event(kind, a.flags(), null, a.loc(), Val.of(a.value()), 0, data, ctrl, 0));
                    continue;
                }
                List<Part> ps = sp.parts.get(l);
                for (int i = 0; i < ps.size(); i++) {
                    if ((a.parts() >>> i & 1) != 0) {
                        es.add(new Event(kind, a.flags(), null, lkmmLocs.get(firstLoc[l] + i), Val.of(ps.get(i).of(a.value())), 0, data,
                                ctrl, 0));
                    }
                }
            }
            /* RMW pairs: per part both halves cover */
            for (int k = 0; k < g.added[t]; k++) {
                Access a = as.get(k);
                int q = a.rmwPartner();
                if (q < 0 || q >= g.added[t] || a.kind() != Kind.READ) {
                    continue;
                }
                for (int i = 0; i < count[t][k]; i++) {
                    Event r = es.get(at[t][k] + i);
                    for (int j = 0; j < count[t][q]; j++) {
                        Event w = es.get(at[t][q] + j);
                        if (w.loc.equals(r.loc)) {
                            r.rmwPartner = at[t][q] + j;
                            w.rmwPartner = at[t][k] + i;
                        }
                    }
                }
            }
            paths.add(new ThreadPath(t, es, Map.of()));
        }
        origin = new String[n];
        for (int i = 0; i < lkmmLocs.size(); i++) {
            origin[i] = "the initial value of " + lkmmLocs.get(i);
        }
        for (int t = 0; t < g.runs.length; t++) {
            for (int k = 0; k < g.added[t]; k++) {
                for (int i = 0; i < count[t][k]; i++) {
                    origin[base[t] + at[t][k] + i] = "t" + t + "#" + k;
                }
            }
        }
        Skeleton s = new Skeleton(lkmmLocs, lkmmInit(lkmmLocs), paths, "graph");
        Rel rf = new Rel(s.n);
        Rel co = new Rel(s.n);
        for (int t = 0; t < g.runs.length; t++) {
            List<Access> as = g.runs[t].events();
            for (int k = 0; k < g.added[t]; k++) {
                int src = g.rf[t][k];
                if (src == SearchGraph.MISSING) {
                    continue;
                }
                int l = sp.locId(as.get(k).loc());
                if (sp.parts.get(l).isEmpty()) {
                    rf.add(global(src, base, at, firstLoc[l], 0), base[t] + at[t][k]);
                    continue;
                }
                /* each part read from the last write of that part at or before the whole write read */
                int e = base[t] + at[t][k];
                for (int i = 0; i < sp.parts.get(l).size(); i++) {
                    if ((as.get(k).parts() >>> i & 1) != 0) {
                        int origin = origin(g, l, src, i);
                        rf.add(global(origin, base, at, firstLoc[l] + i, partIndex(g, origin, i)), e++);
                    }
                }
            }
        }
        for (int l = 0; l < sp.locations.size(); l++) {
            int nparts = Math.max(1, sp.parts.get(l).size());
            for (int i = 0; i < nparts; i++) {
                List<Integer> order = new ArrayList<>();
                for (int c : g.co[l]) {
                    if (c < 0 || sp.parts.get(l).isEmpty() || (sp.access(g, c).parts() >>> i & 1) != 0) {
                        order.add(global(c, base, at, firstLoc[l] + i, sp.parts.get(l).isEmpty() ? 0 : partIndex(g, c, i)));
                    }
                }
                for (int a = 0; a < order.size(); a++) {
                    for (int b = a + 1; b < order.size(); b++) {
                        co.add(order.get(a), order.get(b));
                    }
                }
            }
        }
        return new Execution(s, rf, co);
    }

    /** LKMM events of an access: one per covered part of a location with parts, else one. */
    private int width(Access a) {
        if (a.kind() == Kind.FENCE || sp.parts.get(sp.locId(a.loc())).isEmpty()) {
            return 1;
        }
        return Long.bitCount(a.parts() & ((1L << sp.parts.get(sp.locId(a.loc())).size()) - 1));
    }

    /** The last write of part i of location l at or before {@code src} in co (the initial write if none). */
    private int origin(SearchGraph g, int l, int src, int i) {
        int[] order = g.co[l];
        for (int j = SearchGraph.indexOf(order, src); j > 0; j--) {
            if ((sp.access(g, order[j]).parts() >>> i & 1) != 0) {
                return order[j];
            }
        }
        return order[0];
    }

    /** Among the LKMM events of write {@code code}, the index of part i's. */
    private int partIndex(SearchGraph g, int code, int i) {
        if (code < 0) {
            return 0;
        }
        long mask = sp.access(g, code).parts() & ((1L << i) - 1);
        return Long.bitCount(mask);
    }

    private static long remap(long mask, int[] at, int[] count) {
        long out = 0;
        while (mask != 0) {
            int k = Long.numberOfTrailingZeros(mask);
            mask &= mask - 1;
            if (k < at.length) {
                out |= ((1L << count[k]) - 1) << at[k];
            }
        }
        return out;
    }

    private Map<String, Val> lkmmInit(List<String> lkmmLocs) {
        Map<String, Val> m = new HashMap<>();
        for (int l = 0; l < sp.locations.size(); l++) {
            long v = sp.init.getOrDefault(sp.locations.get(l), 0L);
            if (sp.parts.get(l).isEmpty()) {
                m.put(sp.locations.get(l), Val.of(v));
            } else {
                for (Part p : sp.parts.get(l)) {
                    m.put(sp.locations.get(l) + "." + p.name(), Val.of(p.of(v)));
                }
            }
        }
        return m;
    }

    /** The global index of event {@code code}'s LKMM event {@code sub}; an initial write's is its LKMM location's. */
    private static int global(int code, int[] base, int[][] at, int lkmmLoc, int sub) {
        return code < 0 ? lkmmLoc : base[code >> 8] + at[code >> 8][code & 255] + sub;
    }
}
