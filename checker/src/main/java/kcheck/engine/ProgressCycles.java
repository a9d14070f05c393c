package kcheck.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;

import kcheck.engine.store.ExactStore;
import kcheck.model.Progress;

/**
 * Non-progress cycle detection after an exhaustive search. The graph restricted to steps that
 * are not progress steps is built once per property, as compact int arrays (each state's successor
 * ids and step ordinals; {@link NonProgressGraph}, by the run's workers), then Tarjan's strongly connected components run on it iteratively. A
 * component with a cycle is a violation. The lasso goes to the cyclic component whose
 * earliest-found state (lowest BFS id, so nearest the start) is earliest of all, by a shortest
 * path, then round a shortest cycle through that state inside the component.
 *
 * <p>Every loop over states or edges ticks ({@link #tick}): every 4,096 ticks the analysis polls
 * the run's deadline (time limit, SIGINT), so it stops within a few thousand states of it.
 */
final class ProgressCycles {
    private final Search search;
    private final ExactStore store;
    private int ticks;

    ProgressCycles(Search search, ExactStore store) {
        this.search = search;
        this.store = store;
    }

    /** A lasso: the stem ends in state {@code stem}, then the ordinals of the cycle lead back to it. */
    record Lasso(long stem, List<Integer> cycle) {
    }

    /**
     * Thrown where the analysis sees the search's time limit pass or a stop requested (SIGINT):
     * the properties not yet decided stay INCOMPLETE, never HOLDS.
     */
    private static final class Stopped extends RuntimeException {
        Stopped() {
            super(null, null, false, false);
        }
    }

    void check() {
        Checks c = search.checks;
        for (int i = 0; i < c.progress.length; i++) {
            search.options.listener().phase(String.format(java.util.Locale.ROOT, "cycle analysis of %s over %,d states",
                    c.progress[i].id(), store.size()));
            long start = System.nanoTime();
            try {
                poll();
                c.progressLassos[i] = c.progress[i].fair() ? findFair(c.progress[i]) : find(c.progress[i]);
            } catch (Stopped e) {
                for (int j = i; j < c.progress.length; j++) {
                    c.progressUndecided[j] = true;
                }
                return;
            } finally {
                search.analysisSeconds.put(c.progress[i].id(), (System.nanoTime() - start) / 1e9);
            }
        }
    }

    /** Stops the analysis (Stopped) once the run's deadline has passed: its time limit, or a stop requested. */
    private void poll() {
        if (search.timeUp()) {
            throw new Stopped();
        }
    }

    /** One step of a loop over states or edges: polls every 4,096. */
    private void tick() {
        if ((++ticks & 0xFFF) == 0) {
            poll();
        }
    }

    /**
     * The non-progress graph of {@code p} ({@link NonProgressGraph}): from the edges the search
     * recorded ({@link EdgeLog}), else built by the run's workers, who expand every state again.
     */
    private NonProgressGraph build(Progress p, int n) {
        poll();
        EdgeLog.Set logs = search.edgeLogs;
        if (logs != null && logs.usable() && !logs.graphFits(p, n)) {
            logs.drop();
        }
        NonProgressGraph g = logs != null && logs.usable() ? logs.graph(p, n, store, new long[search.w], this::poll)
                : NonProgressGraph.build(search, store, p, n, search.options.workers(), this::poll);
        poll();
        return g;
    }

    private boolean exists(long v) {
        return NonProgressGraph.exists(store, v);
    }

    private Lasso find(Progress p) {
        int n = (int) store.idBound();
        NonProgressGraph g = build(p, n);
        int[] index = new int[n];
        int[] low = new int[n];
        /* not a BitSet: its clear() scans down from the highest word in use, which made popping a component cost O(n / 64) */
        boolean[] onStack = new boolean[n];
        int[] scc = new int[16];
        int sp = 0;
        int[] callV = new int[16];
        int[] callPos = new int[16];
        int counter = 0;
        int[] depth = depths(n);
        int bestStem = -1;
        BitSet bestMembers = null;
        for (int root = 0; root < n; root++) {
            if (index[root] != 0 || !exists(root) || !g.hasEdges(root)) {
                continue; /* a state without a non-progress step lies on no cycle: not a root (it is visited if reached) */
            }
            int top = 0;
            callV[0] = root;
            callPos[0] = -1;
            while (top >= 0) {
                int v = callV[top];
                if (callPos[top] < 0) {
                    tick();
                    index[v] = low[v] = ++counter;
                    if (sp == scc.length) {
                        scc = Arrays.copyOf(scc, sp * 2);
                    }
                    scc[sp++] = v;
                    onStack[v] = true;
                    callPos[top] = g.offset[v];
                }
                if (callPos[top] < g.offset[v + 1]) {
                    int x = g.target[callPos[top]++];
                    if (index[x] == 0) {
                        if (++top == callV.length) {
                            callV = Arrays.copyOf(callV, top * 2);
                            callPos = Arrays.copyOf(callPos, top * 2);
                        }
                        callV[top] = x;
                        callPos[top] = -1;
                    } else if (onStack[x]) {
                        low[v] = Math.min(low[v], index[x]);
                    }
                    continue;
                }
                if (low[v] == index[v]) {
                    int size = 0;
                    int min = -1;
                    int from = sp;
                    int x;
                    do {
                        x = scc[--sp];
                        onStack[x] = false;
                        size++;
                        if (min < 0 || depth[x] < depth[min] || (depth[x] == depth[min] && x < min)) {
                            min = x;
                        }
                    } while (x != v);
                    boolean selfLoop = false;
                    for (int e = g.offset[v]; e < g.offset[v + 1] && !selfLoop; e++) {
                        selfLoop = g.target[e] == v;
                    }
                    if ((size > 1 || selfLoop) && (bestStem < 0 || depth[min] < depth[bestStem]
                            || (depth[min] == depth[bestStem] && min < bestStem))) {
                        bestStem = min;
                        bestMembers = new BitSet(n);
                        for (int i = sp; i < from; i++) {
                            tick();
                            bestMembers.set(scc[i]);
                        }
                    }
                }
                top--;
                if (top >= 0) {
                    int parent = callV[top];
                    low[parent] = Math.min(low[parent], low[v]);
                }
            }
        }
        return bestMembers == null ? null : new Lasso(bestStem, cycle(g, bestStem, bestMembers, n));
    }

    /**
     * Fair non-progress cycles (Emerson-Lei for strong fairness): strongly connected components of
     * the non-progress graph are pruned of every state that owes a class no edge inside its
     * component takes; what is left of a pruned component is split into its own components again
     * (only that part is searched again), until no component loses a state. A component left with
     * an edge is a fair cycle. The lasso goes to the earliest-found state of the earliest such
     * component, then round a cycle inside it that takes an edge of every class its states owe.
     */
    private Lasso findFair(Progress p) {
        int n = (int) store.idBound();
        NonProgressGraph g = build(p, n);
        BitSet alive = new BitSet(n);
        int live = 0;
        for (int v = 0; v < n; v++) {
            tick();
            if (exists(v) && g.hasEdges(v)) {
                /* a state without a non-progress step lies on no cycle: dead from the start (most states, for most properties) */
                alive.set(v);
                live++;
            }
        }
        int[] comp = new int[n];
        Arrays.fill(comp, -1);
        Tarjan tarjan = new Tarjan(g, n, alive, comp, this::tick);
        ArrayDeque<int[]> work = new ArrayDeque<>();
        int[] all = new int[live];
        for (int v = alive.nextSetBit(0), i = 0; v >= 0; v = alive.nextSetBit(v + 1)) {
            all[i++] = v;
        }
        if (live > 0) {
            tarjan.split(all, all.length, work, true);
        }
        while (!work.isEmpty()) {
            poll();
            int[] c = work.pop();
            int id = comp[c[0]];
            long taken = 0;
            boolean cyclic = false;
            for (int v : c) {
                tick();
                for (int e = g.offset[v]; e < g.offset[v + 1]; e++) {
                    int x = g.target[e];
                    if (alive.get(x) && comp[x] == id) {
                        taken |= 1L << g.cls[e];
                        cyclic = true;
                    }
                }
            }
            if (!cyclic) {
                for (int v : c) {
                    alive.clear(v);
                }
                continue;
            }
            int kept = 0;
            for (int v : c) {
                if ((g.owed[v] & ~taken) != 0) {
                    alive.clear(v);
                } else {
                    c[kept++] = v;
                }
            }
            if (kept < c.length && kept > 0) {
                tarjan.split(c, kept, work, false);
            }
        }
        if (alive.isEmpty()) {
            return null;
        }
        int[] depth = depths(n);
        int best = -1;
        for (int v = alive.nextSetBit(0); v >= 0; v = alive.nextSetBit(v + 1)) {
            if (best < 0 || depth[v] < depth[best] || (depth[v] == depth[best] && v < best)) {
                best = v;
            }
        }
        BitSet members = new BitSet(n);
        long required = 0;
        for (int v = alive.nextSetBit(0); v >= 0; v = alive.nextSetBit(v + 1)) {
            if (comp[v] == comp[best]) {
                members.set(v);
                required |= g.owed[v];
            }
        }
        return new Lasso(best, fairCycle(g, best, members, required, n));
    }

    /**
     * Tarjan's strongly connected components of a part of the graph: the given vertices, all alive
     * and in one component so far ({@code comp} equal), split into components with fresh numbers.
     * The index arrays are shared and reset after each split, so a split costs the size of its
     * part, not of the graph.
     */
    private static final class Tarjan {
        private final NonProgressGraph g;
        private final BitSet alive;
        private final int[] comp;
        private final int[] index;
        private final int[] low;
        /* not a BitSet: see find() */
        private final boolean[] onStack;
        private int[] stack = new int[16];
        private int[] callV = new int[16];
        private int[] callPos = new int[16];
        private int next;
        /** The top of {@link #stack} during a split. */
        private int sp;
        /** Called for every vertex visited: may throw Stopped. */
        private final Runnable tick;

        Tarjan(NonProgressGraph g, int n, BitSet alive, int[] comp, Runnable tick) {
            this.tick = tick;
            this.g = g;
            this.alive = alive;
            this.comp = comp;
            this.index = new int[n];
            this.low = new int[n];
            this.onStack = new boolean[n];
        }

        /**
         * {@code whole}: the part is every state, all alive and in no component yet, so an edge's
         * target needs no test (the first split, the one over the whole graph: two fewer random reads an edge).
         */
        void split(int[] verts, int len, ArrayDeque<int[]> out, boolean whole) {
            int old = comp[verts[0]];
            int counter = 0;
            sp = 0;
            for (int r = 0; r < len; r++) {
                int root = verts[r];
                if (index[root] != 0) {
                    continue;
                }
                int top = 0;
                callV[0] = root;
                callPos[0] = -1;
                while (top >= 0) {
                    int v = callV[top];
                    if (callPos[top] < 0) {
                        tick.run();
                        index[v] = low[v] = ++counter;
                        if (sp == stack.length) {
                            stack = Arrays.copyOf(stack, sp * 2);
                        }
                        stack[sp++] = v;
                        onStack[v] = true;
                        callPos[top] = g.offset[v];
                    }
                    if (callPos[top] < g.offset[v + 1]) {
                        int x = g.target[callPos[top]++];
                        if (!whole && (!alive.get(x) || comp[x] != old)) {
                            continue;
                        }
                        if (index[x] == 0) {
                            if (++top == callV.length) {
                                callV = Arrays.copyOf(callV, top * 2);
                                callPos = Arrays.copyOf(callPos, top * 2);
                            }
                            callV[top] = x;
                            callPos[top] = -1;
                        } else if (onStack[x]) {
                            low[v] = Math.min(low[v], index[x]);
                        }
                        continue;
                    }
                    if (low[v] == index[v]) {
                        int id = next++;
                        int size = 0;
                        for (int i = sp - 1; ; i--) {
                            size++;
                            if (stack[i] == v) {
                                break;
                            }
                        }
                        if (size == 1 && !selfLoop(v)) {
                            /* a state on no cycle (most of a graph): dead at once, without an array or a pass of its own */
                            sp--;
                            onStack[v] = false;
                            comp[v] = id;
                            alive.clear(v);
                        } else {
                            out.push(members(id, size));
                        }
                    }
                    top--;
                    if (top >= 0) {
                        int parent = callV[top];
                        low[parent] = Math.min(low[parent], low[v]);
                    }
                }
            }
            for (int r = 0; r < len; r++) {
                index[verts[r]] = 0;
            }
        }

        private boolean selfLoop(int v) {
            for (int e = g.offset[v]; e < g.offset[v + 1]; e++) {
                if (g.target[e] == v) {
                    return true;
                }
            }
            return false;
        }

        /** Pops the component of {@code size} states off the stack, numbered {@code id}. */
        private int[] members(int id, int size) {
            int[] members = new int[size];
            for (int i = 0; i < size; i++) {
                int x = stack[--sp];
                onStack[x] = false;
                comp[x] = id;
                members[i] = x;
            }
            return members;
        }
    }

    /**
     * A cycle from {@code start} back to itself inside {@code members} that takes an edge of every
     * class in {@code required}: shortest paths to an edge of each class in turn, then home.
     */
    private List<Integer> fairCycle(NonProgressGraph g, int start, BitSet members, long required, int n) {
        List<Integer> ords = new ArrayList<>();
        int cur = start;
        for (int c = 0; c < 64; c++) {
            if ((required & (1L << c)) == 0) {
                continue;
            }
            int[] hop = pathToClass(g, cur, members, c, n, ords);
            cur = hop[0];
        }
        if (cur != start || ords.isEmpty()) {
            List<Integer> home = cur == start ? cycle(g, start, members, n) : pathTo(g, cur, start, members, n);
            ords.addAll(home);
        }
        return ords;
    }

    /** Appends to {@code ords} a shortest path from {@code from} ending with an edge of class {@code c}; returns its end. */
    private int[] pathToClass(NonProgressGraph g, int from, BitSet members, int c, int n, List<Integer> ords) {
        int[] parent = new int[n];
        char[] via = new char[n];
        Arrays.fill(parent, -1);
        int[] queue = new int[members.cardinality() + 1];
        int head = 0;
        int tail = 0;
        queue[tail++] = from;
        parent[from] = from;
        while (head < tail) {
            tick();
            int v = queue[head++];
            for (int e = g.offset[v]; e < g.offset[v + 1]; e++) {
                int x = g.target[e];
                if (!members.get(x)) {
                    continue;
                }
                if (g.cls[e] == c) {
                    List<Integer> path = new ArrayList<>();
                    path.add((int) g.ordinal[e]);
                    for (int y = v; y != from; y = parent[y]) {
                        path.add((int) via[y]);
                    }
                    Collections.reverse(path);
                    ords.addAll(path);
                    return new int[] {x};
                }
                if (parent[x] < 0) {
                    parent[x] = v;
                    via[x] = g.ordinal[e];
                    queue[tail++] = x;
                }
            }
        }
        throw new IllegalStateException("component without an edge of class " + c);
    }

    /** A shortest path from {@code from} to {@code to} (from != to) inside {@code members}, as ordinals. */
    private List<Integer> pathTo(NonProgressGraph g, int from, int to, BitSet members, int n) {
        int[] parent = new int[n];
        char[] via = new char[n];
        Arrays.fill(parent, -1);
        int[] queue = new int[members.cardinality() + 1];
        int head = 0;
        int tail = 0;
        queue[tail++] = from;
        parent[from] = from;
        while (head < tail) {
            tick();
            int v = queue[head++];
            for (int e = g.offset[v]; e < g.offset[v + 1]; e++) {
                int x = g.target[e];
                if (!members.get(x) || parent[x] >= 0) {
                    continue;
                }
                parent[x] = v;
                via[x] = g.ordinal[e];
                if (x == to) {
                    List<Integer> path = new ArrayList<>();
                    for (int y = to; y != from; y = parent[y]) {
                        path.add((int) via[y]);
                    }
                    Collections.reverse(path);
                    return path;
                }
                queue[tail++] = x;
            }
        }
        throw new IllegalStateException("component not strongly connected");
    }

    /** The BFS depth of every state, from the trace links (parents are found by following them once). */
    private int[] depths(int n) {
        int[] d = new int[n];
        java.util.Arrays.fill(d, -1);
        int[] path = new int[64];
        for (int v = 0; v < n; v++) {
            tick();
            if (d[v] >= 0 || !exists(v)) {
                continue;
            }
            int len = 0;
            long x = v;
            while (x >= 0 && d[(int) x] < 0) {
                if (len == path.length) {
                    path = java.util.Arrays.copyOf(path, len * 2);
                }
                path[len++] = (int) x;
                x = search.links.parent(x);
            }
            int base = x < 0 ? -1 : d[(int) x];
            for (int i = len - 1; i >= 0; i--) {
                d[path[i]] = ++base;
            }
        }
        return d;
    }

    /** A shortest cycle from {@code start} back to itself inside {@code members}, as ordinals. */
    private List<Integer> cycle(NonProgressGraph g, int start, BitSet members, int n) {
        int[] parent = new int[n];
        char[] via = new char[n];
        Arrays.fill(parent, -1);
        int[] queue = new int[members.cardinality() + 1];
        int head = 0;
        int tail = 0;
        queue[tail++] = start;
        while (head < tail) {
            tick();
            int v = queue[head++];
            for (int e = g.offset[v]; e < g.offset[v + 1]; e++) {
                int x = g.target[e];
                if (!members.get(x)) {
                    continue;
                }
                if (x == start) {
                    List<Integer> ords = new ArrayList<>();
                    ords.add((int) g.ordinal[e]);
                    for (int y = v; y != start; y = parent[y]) {
                        ords.add((int) via[y]);
                    }
                    Collections.reverse(ords);
                    return ords;
                }
                if (parent[x] < 0) {
                    parent[x] = v;
                    via[x] = g.ordinal[e];
                    queue[tail++] = x;
                }
            }
        }
        throw new IllegalStateException("component without a cycle");
    }
}
