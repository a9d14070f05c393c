package kcheck.engine;

import java.util.ArrayList;
import java.util.List;

import kcheck.engine.store.ExactStore;
import kcheck.engine.store.MemoryBudget;
import kcheck.model.Progress;

/**
 * One worker's record of the edges its breadth-first search took: for every state it expanded, the
 * id of each successor, the step's ordinal among the state's steps, which progress properties count
 * the step as progress, and (fair properties) the step's class. The cycle analysis after the search
 * builds each property's {@link NonProgressGraph} from these records instead of expanding every
 * state again and looking up every successor in the store, which cost more than the search itself
 * (three fair properties of rwsem v6.12 at 2 readers and 2 writers: 45 s of rebuilding after a
 * 22 s search).
 *
 * <p>The record is an optimisation the analysis can do without: the logs of a search ({@link Set})
 * hold at most half of the search's memory budget, and give everything back when the stores need
 * it ({@link MemoryBudget#reclaimWith}) or a property's step class is out of range; the analysis then
 * rebuilds its graphs as before ({@link NonProgressGraph#build}), with the same result.
 *
 * <p>Per edge: the successor's id (int), the ordinal (char) and an int of progress bits (bit i: the
 * step is progress for progress property i, at most {@link #MAX_PROGRESS}) and the fair classes (6
 * bits each from bit 8, at most {@link #MAX_FAIR} fair properties): 10 bytes; per expanded state
 * its id and its first edge (8 bytes). Appending is allocation-free but for a new chunk of 2^20
 * edges or rows.
 */
final class EdgeLog {
    /**
     * False: searches record nothing and the analysis expands every state again, as before the logs
     * ({@code -Dkcheck.edgeLog=false}: for A/B measurements; tests compare both ways).
     */
    static volatile boolean enabled = !"false".equals(System.getProperty("kcheck.edgeLog"));
    static final int MAX_PROGRESS = 8;
    static final int MAX_FAIR = 4;
    private static final int CHUNK_BITS = 20;
    private static final int CHUNK = 1 << CHUNK_BITS;
    private static final int MASK = CHUNK - 1;
    private static final long EDGE_CHUNK_BYTES = (long) CHUNK * (Integer.BYTES + Character.BYTES + Integer.BYTES);
    private static final long ROW_CHUNK_BYTES = (long) CHUNK * 2 * Integer.BYTES;

    private final Set set;
    /**
     * The chunks; null once the logs were dropped. Written by the worker, set to null by whichever
     * thread drops the logs (a worker that still writes through its own reference writes into
     * chunks nobody reads, and stops at its next row: {@link Set#dropped} is volatile).
     */
    private Data data = new Data();

    private static final class Data {
        int[][] target = new int[0][];
        char[][] ordinal = new char[0][];
        int[][] info = new int[0][];
        int[][] rowId = new int[0][];
        int[][] rowStart = new int[0][];
        int edges;
        int rows;

        int end(int r) {
            return r + 1 < rows ? rowStart[(r + 1) >>> CHUNK_BITS][(r + 1) & MASK] : edges;
        }
    }

    private EdgeLog(Set set) {
        this.set = set;
    }

    /** True if the analysis of {@code checks} can use the logs: 1 to 8 progress properties, at most 4 of them fair. */
    static boolean applies(Checks checks) {
        int fair = 0;
        for (Progress p : checks.progress) {
            fair += p.fair() ? 1 : 0;
        }
        return checks.progress.length > 0 && checks.progress.length <= MAX_PROGRESS && fair <= MAX_FAIR;
    }

    /**
     * The progress bits and fair classes of a step of state {@code cur}; -1 if a fair class is out
     * of 0..63 (the log is then dropped, and the rebuilt graph reports it).
     */
    int info(long[] cur, int actor, int action, long[] next) {
        int bits = 0;
        Progress[] ps = set.progress;
        for (int i = 0; i < ps.length; i++) {
            Progress p = ps[i];
            if (p.isProgress(cur, actor, action, next)) {
                bits |= 1 << i;
            }
            int slot = set.fairSlot[i];
            if (slot >= 0) {
                int c = p.stepClass(actor, action);
                if (c < 0 || c > 63) {
                    return -1;
                }
                bits |= c << (8 + 6 * slot);
            }
        }
        return bits;
    }

    /** Starts the row of state {@code id}; false if the logs were dropped (the caller stops logging). */
    boolean row(long id) {
        Data d = data;
        if (set.dropped || d == null) {
            data = null;
            return false;
        }
        if ((d.rows & MASK) == 0 && !grow(d, false)) {
            return false;
        }
        d.rowId[d.rows >>> CHUNK_BITS][d.rows & MASK] = (int) id;
        d.rowStart[d.rows >>> CHUNK_BITS][d.rows & MASK] = d.edges;
        d.rows++;
        return true;
    }

    /** An edge of the current row; false if the logs were dropped. */
    boolean edge(long to, int ord, int bits) {
        Data d = data;
        if (d == null) {
            return false;
        }
        if (bits < 0) {
            set.drop();
            return false;
        }
        if ((d.edges & MASK) == 0 && !grow(d, true)) {
            return false;
        }
        int c = d.edges >>> CHUNK_BITS;
        int i = d.edges & MASK;
        d.target[c][i] = (int) to;
        d.ordinal[c][i] = (char) ord;
        d.info[c][i] = bits;
        d.edges++;
        return true;
    }

    /** A new chunk of edges or rows, reserved from the budget; false (and the logs dropped) if refused. */
    private boolean grow(Data d, boolean edgeChunk) {
        int count = edgeChunk ? d.edges : d.rows;
        if (count >= Integer.MAX_VALUE - CHUNK || !set.reserve(edgeChunk ? EDGE_CHUNK_BYTES : ROW_CHUNK_BYTES)) {
            set.drop();
            return false;
        }
        int c = count >>> CHUNK_BITS;
        if (edgeChunk) {
            d.target = java.util.Arrays.copyOf(d.target, c + 1);
            d.ordinal = java.util.Arrays.copyOf(d.ordinal, c + 1);
            d.info = java.util.Arrays.copyOf(d.info, c + 1);
            d.target[c] = new int[CHUNK];
            d.ordinal[c] = new char[CHUNK];
            d.info[c] = new int[CHUNK];
        } else {
            d.rowId = java.util.Arrays.copyOf(d.rowId, c + 1);
            d.rowStart = java.util.Arrays.copyOf(d.rowStart, c + 1);
            d.rowId[c] = new int[CHUNK];
            d.rowStart[c] = new int[CHUNK];
        }
        return true;
    }

    /**
     * The logs of one search, one per worker. Their reservations are counted together: the budget
     * gets all of them back at once when the logs are dropped.
     */
    static final class Set {
        final Progress[] progress;
        /** For each progress property, its index among the fair ones (its class bits), or -1. */
        final int[] fairSlot;
        private final MemoryBudget budget;
        private final List<EdgeLog> parts = new ArrayList<>();
        private long reserved;
        volatile boolean dropped;

        Set(Progress[] progress, MemoryBudget budget) {
            this.progress = progress;
            this.fairSlot = new int[progress.length];
            int fair = 0;
            for (int i = 0; i < progress.length; i++) {
                fairSlot[i] = progress[i].fair() ? fair++ : -1;
            }
            this.budget = budget;
            budget.reclaimWith(this::drop);
        }

        /** A log for one worker. */
        synchronized EdgeLog part() {
            EdgeLog l = new EdgeLog(this);
            parts.add(l);
            return l;
        }

        /** Reserves a chunk within half of the budget; false once dropped. */
        private synchronized boolean reserve(long bytes) {
            if (dropped || !budget.reserveWithin(bytes, 0.5)) {
                return false;
            }
            reserved += bytes;
            return true;
        }

        /**
         * Gives every reservation back; the workers free their chunks at their next row or edge, and
         * the analysis rebuilds its graphs. Called by the budget when a store needs the memory.
         */
        synchronized void drop() {
            dropped = true;
            budget.release(reserved);
            reserved = 0;
            for (EdgeLog l : parts) {
                l.data = null;
            }
        }

        /**
         * True if a graph of {@code p} over {@code n} ids fits the budget beside the logs and the
         * store (the graph is not reserved: this bounds it by every logged edge). If not, the caller
         * drops the logs and rebuilds, which holds only the store and the graph, as before the logs.
         */
        boolean graphFits(Progress p, int n) {
            long edges = 0;
            for (EdgeLog l : parts) {
                Data d = l.data;
                edges += d == null ? 0 : d.edges;
            }
            long bytes = edges * (Integer.BYTES + Character.BYTES + (p.fair() ? 1 : 0)) + (n + 1L) * Integer.BYTES
                    + (p.fair() ? (long) n * Long.BYTES : 0);
            return budget.used() + bytes <= budget.limit();
        }

        /** True if every state's edges are in the logs (the search kept them to its end). */
        boolean usable() {
            return !dropped;
        }

        /** The index of {@code p} among the logged progress properties. */
        int indexOf(Progress p) {
            for (int i = 0; i < progress.length; i++) {
                if (progress[i] == p) {
                    return i;
                }
            }
            throw new IllegalArgumentException(p.id());
        }

        /**
         * The non-progress graph of {@code p} over ids 0..n-1, from the logs: edges in each state's step
         * order, as {@link NonProgressGraph#build} makes it from the store. {@code cur} is scratch of
         * the state width for the states' owed classes.
         */
        NonProgressGraph graph(Progress p, int n, ExactStore store, long[] cur, NonProgressGraph.Poll poll) {
            int index = indexOf(p);
            int bit = 1 << index;
            int slot = fairSlot[index];
            int[] offset = new int[n + 1];
            long total = 0;
            int ticks = 0;
            List<Data> logs = new ArrayList<>();
            for (EdgeLog l : parts) {
                logs.add(l.data);
            }
            for (Data l : logs) {
                for (int r = 0; r < l.rows; r++) {
                    if ((++ticks & 0xFFF) == 0) {
                        poll.poll();
                    }
                    int c = 0;
                    for (int e = l.rowStart[r >>> CHUNK_BITS][r & MASK], end = l.end(r); e < end; e++) {
                        if ((l.info[e >>> CHUNK_BITS][e & MASK] & bit) == 0) {
                            c++;
                        }
                    }
                    offset[l.rowId[r >>> CHUNK_BITS][r & MASK] + 1] = c;
                    total += c;
                }
            }
            if (total > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException(p.id() + ": over 2^31 edges in its non-progress graph");
            }
            for (int v = 0; v < n; v++) {
                offset[v + 1] += offset[v];
            }
            NonProgressGraph g = new NonProgressGraph();
            g.edges = (int) total;
            g.offset = offset;
            g.target = new int[g.edges];
            g.ordinal = new char[g.edges];
            g.cls = slot >= 0 ? new byte[g.edges] : null;
            g.owed = slot >= 0 ? new long[n] : null;
            for (Data l : logs) {
                for (int r = 0; r < l.rows; r++) {
                    if ((++ticks & 0xFFF) == 0) {
                        poll.poll();
                    }
                    int at = offset[l.rowId[r >>> CHUNK_BITS][r & MASK]];
                    for (int e = l.rowStart[r >>> CHUNK_BITS][r & MASK], end = l.end(r); e < end; e++) {
                        int bits = l.info[e >>> CHUNK_BITS][e & MASK];
                        if ((bits & bit) != 0) {
                            continue;
                        }
                        g.target[at] = l.target[e >>> CHUNK_BITS][e & MASK];
                        g.ordinal[at] = l.ordinal[e >>> CHUNK_BITS][e & MASK];
                        if (slot >= 0) {
                            g.cls[at] = (byte) ((bits >>> (8 + 6 * slot)) & 63);
                        }
                        at++;
                    }
                }
            }
            if (slot >= 0) {
                for (int v = 0; v < n; v++) {
                    if ((++ticks & 0xFFF) == 0) {
                        poll.poll();
                    }
                    if (g.hasEdges(v)) { /* as the rebuilt graph: only a state with an edge can owe on a cycle */
                        store.load(v, cur);
                        g.owed[v] = p.owed(cur);
                    }
                }
            }
            return g;
        }
    }
}
