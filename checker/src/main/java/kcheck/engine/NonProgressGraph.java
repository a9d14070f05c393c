package kcheck.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import kcheck.engine.store.ExactStore;
import kcheck.model.Model;
import kcheck.model.Progress;
import kcheck.model.StepSink;

/**
 * The graph a progress property's cycle analysis runs on: every stored state with its steps that
 * are not progress steps, as compressed rows in primitive arrays. Successors of state v are
 * {@code target[offset[v] .. offset[v+1])}, each with the step's ordinal among the state's steps
 * (for the lasso) and, for a fair property, its step class; {@code owed[v]} are the classes state
 * v owes (0 for a state without an edge in this graph: it lies on no cycle, so nothing asks).
 *
 * <p>Built by re-expanding every state. With at least {@link #PARALLEL_MIN_STATES} states and more
 * than one worker, the id range is cut into one contiguous part per worker; each worker expands its
 * part with its own fork of the model into arrays of its own, and the parts are then copied, in id
 * order, into arrays of exactly the graph's size (so the graph is the one a single thread builds,
 * edge for edge, and at most about twice its size is held while it is assembled).
 */
final class NonProgressGraph {
    /** Fewer states than this are expanded by one thread (starting threads costs more than it saves). */
    static final int PARALLEL_MIN_STATES = 1 << 16;
    /** {@link #PARALLEL_MIN_STATES}, lowered by tests to run small graphs in parallel. */
    static volatile int parallelMinStates = PARALLEL_MIN_STATES;

    int[] offset;
    int[] target;
    char[] ordinal;
    /** Step class of each edge, only for fair progress properties. */
    byte[] cls;
    /** Classes each state owes, only for fair progress properties. */
    long[] owed;
    int edges;

    /** True if state {@code v} has a step in this graph (a state without one lies on no cycle). */
    boolean hasEdges(int v) {
        return offset[v] < offset[v + 1];
    }

    /** Polls the run's deadline; throws to stop the analysis. Called every few thousand states by each thread. */
    interface Poll {
        void poll();
    }

    /**
     * Builds the graph of {@code p} over the {@code n} ids of {@code store} with {@code workers}
     * threads (one below {@link #PARALLEL_MIN_STATES} states).
     */
    static NonProgressGraph build(Search search, ExactStore store, Progress p, int n, int workers, Poll poll) {
        return buildInParts(search, store, p, n, n < parallelMinStates ? 1 : Math.max(1, workers), poll);
    }

    /** As above with exactly {@code parts} parts (tests compare the parallel graph with one thread's). */
    static NonProgressGraph buildInParts(Search search, ExactStore store, Progress p, int n, int parts, Poll poll) {
        if (parts <= 1) {
            return new Part(search, store, p, 0, n, search.model.fork()).fill(poll).asGraph(n);
        }
        List<Part> ps = new ArrayList<>();
        for (int i = 0; i < parts; i++) {
            int lo = (int) ((long) n * i / parts);
            int hi = (int) ((long) n * (i + 1) / parts);
            ps.add(new Part(search, store, p, lo, hi, search.model.fork()));
        }
        ExecutorService threads = Executors.newFixedThreadPool(parts - 1, r -> {
            Thread t = new Thread(r, "kcheck-cycle-graph");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 1; i < parts; i++) {
                Part part = ps.get(i);
                futures.add(threads.submit(() -> part.fill(poll)));
            }
            Throwable failure = null;
            try {
                ps.get(0).fill(poll);
            } catch (RuntimeException | Error e) {
                failure = e;
            }
            for (Future<?> f : futures) {
                try {
                    f.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failure = failure != null ? failure : new IllegalStateException("interrupted", e);
                } catch (ExecutionException e) {
                    failure = failure != null ? failure : e.getCause();
                }
            }
            /* the first failure (a Stopped poll, an OutOfMemoryError, a model's exception) as it was thrown */
            if (failure instanceof RuntimeException r) {
                throw r;
            }
            if (failure instanceof Error err) {
                throw err;
            }
            if (failure != null) {
                throw new IllegalStateException(failure);
            }
        } finally {
            threads.shutdownNow();
        }
        return assemble(ps, n, p.fair());
    }

    /** Copies the parts, in id order, into arrays of exactly the graph's size, releasing each part once copied. */
    private static NonProgressGraph assemble(List<Part> ps, int n, boolean fair) {
        long total = 0;
        for (Part part : ps) {
            total += part.edges;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new OutOfMemoryError("non-progress graph of " + total + " edges");
        }
        NonProgressGraph g = new NonProgressGraph();
        g.edges = (int) total;
        g.offset = new int[n + 1];
        g.target = new int[g.edges];
        g.ordinal = new char[g.edges];
        g.cls = fair ? new byte[g.edges] : null;
        g.owed = fair ? new long[n] : null;
        int at = 0;
        for (int i = 0; i < ps.size(); i++) {
            Part part = ps.get(i);
            for (int v = part.lo; v < part.hi; v++) {
                g.offset[v] = at + part.offset[v - part.lo];
            }
            System.arraycopy(part.target, 0, g.target, at, part.edges);
            System.arraycopy(part.ordinal, 0, g.ordinal, at, part.edges);
            if (fair) {
                System.arraycopy(part.cls, 0, g.cls, at, part.edges);
                System.arraycopy(part.owed, 0, g.owed, part.lo, part.hi - part.lo);
            }
            at += part.edges;
            ps.set(i, null);                                        /* its arrays can go */
        }
        g.offset[n] = at;
        return g;
    }

    /** The rows of ids lo .. hi-1, built by one thread. */
    private static final class Part {
        final int lo;
        final int hi;
        final int[] offset;
        int[] target = new int[1024];
        char[] ordinal = new char[1024];
        byte[] cls;
        final long[] owed;
        int edges;
        private final Search search;
        private final ExactStore store;
        private final Progress p;
        private final Model model;
        private final int w;

        Part(Search search, ExactStore store, Progress p, int lo, int hi, Model model) {
            this.search = search;
            this.store = store;
            this.p = p;
            this.lo = lo;
            this.hi = hi;
            this.model = model;
            this.w = search.w;
            this.offset = new int[hi - lo + 1];
            this.owed = p.fair() ? new long[hi - lo] : null;
            this.cls = p.fair() ? new byte[target.length] : null;
        }

        private void add(int t, int ord, int c) {
            if (edges == target.length) {
                int cap = (int) Math.min(Integer.MAX_VALUE - 8L, edges + (edges >> 1) + 16L);
                target = Arrays.copyOf(target, cap);
                ordinal = Arrays.copyOf(ordinal, cap);
                if (cls != null) {
                    cls = Arrays.copyOf(cls, cap);
                }
            }
            target[edges] = t;
            ordinal[edges] = (char) ord;
            if (cls != null) {
                cls[edges] = (byte) c;
            }
            edges++;
        }

        Part fill(Poll poll) {
            boolean fair = p.fair();
            boolean reductions = search.options.reductions();
            long[] cur = new long[w];
            long[] tmp = new long[w];
            int[] k = new int[1];
            StepSink sink = (actor, action, next) -> {
                int ord = k[0]++;
                if (p.isProgress(cur, actor, action, next)) {
                    return;
                }
                System.arraycopy(next, 0, tmp, 0, w);
                if (reductions) {
                    model.canonicalize(tmp);
                }
                long id = store.find(tmp, Hashing.hash(tmp, 0, w));
                if (id >= 0) {
                    int c = 0;
                    if (fair) {
                        c = p.stepClass(actor, action);
                        if (c < 0 || c > 63) {
                            throw new IllegalStateException(p.id() + ": step class " + c + " outside 0..63");
                        }
                    }
                    add((int) id, ord, c);
                }
            };
            int ticks = 0;
            for (int v = lo; v < hi; v++) {
                offset[v - lo] = edges;
                if ((++ticks & 0xFFF) == 0) {
                    poll.poll();
                }
                if (!exists(store, v)) {
                    continue;
                }
                store.load(v, cur);
                k[0] = 0;
                model.successors(cur, sink);
                if (fair && edges > offset[v - lo]) {
                    owed[v - lo] = p.owed(cur); /* a state with no edge here lies on no cycle: what it owes is never asked */
                }
            }
            offset[hi - lo] = edges;
            return this;
        }

        /** This part as the whole graph (a single part covers every id): its arrays as they are. */
        NonProgressGraph asGraph(int n) {
            NonProgressGraph g = new NonProgressGraph();
            g.offset = offset;
            g.target = target;
            g.ordinal = ordinal;
            g.cls = cls;
            g.owed = owed;
            g.edges = edges;
            return g;
        }
    }

    /** Ids are dense per shard: id v exists if its local index is below its shard's count. */
    static boolean exists(ExactStore store, long v) {
        int shards = store.shards();
        return (v / shards) < store.count((int) (v % shards));
    }
}
