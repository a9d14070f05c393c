package kcheck.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import kcheck.engine.store.ExactStore;
import kcheck.model.Model;
import kcheck.model.Progress;

/**
 * Non-progress cycle detection after an exhaustive search: Tarjan's strongly connected
 * components (iterative) over the stored graph restricted to steps that are not progress steps.
 * A component with a cycle is a violation. The lasso goes to the cyclic component whose
 * earliest-found state (lowest BFS id, so nearest the start) is earliest of all, by a shortest
 * path, then round a shortest cycle through that state inside the component.
 */
final class ProgressCycles {
    private final Search search;
    private final ExactStore store;
    private final Model model;
    private final int w;

    ProgressCycles(Search search, ExactStore store) {
        this.search = search;
        this.store = store;
        this.model = search.model.fork();
        this.w = search.w;
    }

    /** A lasso: the stem ends in state {@code stem}, then the ordinals of the cycle lead back to it. */
    record Lasso(long stem, List<Integer> cycle) {
    }

    void check() {
        Checks c = search.checks;
        for (int i = 0; i < c.progress.length; i++) {
            c.progressLassos[i] = find(c.progress[i]);
        }
    }

    /** Non-progress successors of {@code v}: ids and ordinals, and whether v loops to itself. */
    private record Succ(long[] ids, int[] ordinals) {
    }

    private Succ successors(long v, Progress p) {
        long[] cur = new long[w];
        long[] tmp = new long[w];
        store.load(v, cur);
        List<long[]> out = new ArrayList<>();
        int[] k = {0};
        model.successors(cur, (actor, action, next) -> {
            int ord = k[0]++;
            if (p.isProgress(cur, actor, action, next)) {
                return;
            }
            System.arraycopy(next, 0, tmp, 0, w);
            search.canonical(tmp);
            long id = store.find(tmp, Hashing.hash(tmp, 0, w));
            if (id >= 0) {
                out.add(new long[] {id, ord});
            }
        });
        long[] ids = new long[out.size()];
        int[] ords = new int[out.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = out.get(i)[0];
            ords[i] = (int) out.get(i)[1];
        }
        return new Succ(ids, ords);
    }

    private static final class Frame {
        final int v;
        Succ succ;
        int pos;

        Frame(int v) {
            this.v = v;
        }
    }

    private Lasso find(Progress p) {
        int n = (int) search.ids.allocated();
        int[] index = new int[n];
        int[] low = new int[n];
        BitSet onStack = new BitSet(n);
        int[] sccStack = new int[Math.max(16, Math.min(n, 1 << 20))];
        int sp = 0;
        int counter = 0;
        ArrayDeque<Frame> frames = new ArrayDeque<>();
        int bestStem = Integer.MAX_VALUE;
        BitSet bestMembers = null;
        for (int root = 0; root < n; root++) {
            if (index[root] != 0 || search.links.isHole(root)) {
                continue;
            }
            frames.push(new Frame(root));
            while (!frames.isEmpty()) {
                Frame f = frames.peek();
                int v = f.v;
                if (f.succ == null) {
                    index[v] = low[v] = ++counter;
                    if (sp == sccStack.length) {
                        sccStack = java.util.Arrays.copyOf(sccStack, sccStack.length * 2);
                    }
                    sccStack[sp++] = v;
                    onStack.set(v);
                    f.succ = successors(v, p);
                }
                if (f.pos < f.succ.ids.length) {
                    int x = (int) f.succ.ids[f.pos++];
                    if (index[x] == 0) {
                        frames.push(new Frame(x));
                    } else if (onStack.get(x)) {
                        low[v] = Math.min(low[v], index[x]);
                    }
                    continue;
                }
                if (low[v] == index[v]) {
                    BitSet members = new BitSet();
                    int size = 0;
                    int min = Integer.MAX_VALUE;
                    int x;
                    do {
                        x = sccStack[--sp];
                        onStack.clear(x);
                        members.set(x);
                        size++;
                        min = Math.min(min, x);
                    } while (x != v);
                    boolean selfLoop = false;
                    for (long s : f.succ.ids) {
                        selfLoop |= s == v;
                    }
                    if ((size > 1 || selfLoop) && min < bestStem) {
                        bestStem = min;
                        bestMembers = members;
                    }
                }
                frames.pop();
                if (!frames.isEmpty()) {
                    Frame parent = frames.peek();
                    low[parent.v] = Math.min(low[parent.v], low[v]);
                }
            }
        }
        return bestMembers == null ? null : new Lasso(bestStem, cycle(bestStem, bestMembers, p));
    }

    /** A shortest cycle from {@code start} back to itself inside {@code members}, as ordinals. */
    private List<Integer> cycle(int start, BitSet members, Progress p) {
        Map<Long, long[]> parent = new HashMap<>();
        ArrayDeque<Long> queue = new ArrayDeque<>();
        queue.add((long) start);
        while (!queue.isEmpty()) {
            long v = queue.poll();
            Succ s = successors(v, p);
            for (int i = 0; i < s.ids.length; i++) {
                long x = s.ids[i];
                if (!members.get((int) x)) {
                    continue;
                }
                if (x == start) {
                    List<Integer> ords = new ArrayList<>();
                    ords.add(s.ordinals[i]);
                    for (long y = v; y != start; y = parent.get(y)[0]) {
                        ords.add((int) parent.get(y)[1]);
                    }
                    java.util.Collections.reverse(ords);
                    return ords;
                }
                if (!parent.containsKey(x)) {
                    parent.put(x, new long[] {v, s.ordinals[i]});
                    queue.add(x);
                }
            }
        }
        throw new IllegalStateException("component without a cycle");
    }
}
