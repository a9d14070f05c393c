package kcheck.engine.store;

/**
 * Trace links: for each state id, its parent's id and the position of the step from the parent
 * among the parent's enumerated successors (the engine re-executes that step to rebuild a trace,
 * TLC-style). 6 bytes per state, in chunks allocated against the {@link MemoryBudget}.
 * Distinct ids may be written concurrently.
 */
public final class Links {
    private static final int CHUNK_BITS = 16;
    private static final int CHUNK = 1 << CHUNK_BITS;

    private final int[][] parents;
    private final char[][] ordinals;
    private final MemoryBudget budget;

    public Links(long maxStates, MemoryBudget budget) {
        int n = (int) ((Math.min(maxStates, (1L << 31) - 1) + CHUNK) >>> CHUNK_BITS) + 1;
        this.parents = new int[n][];
        this.ordinals = new char[n][];
        this.budget = budget;
    }

    /** Records that {@code id} was reached from {@code parent} by its successor number {@code ordinal}; false if out of memory. */
    public boolean set(long id, long parent, int ordinal) {
        int c = (int) (id >>> CHUNK_BITS);
        if (parents[c] == null && !allocate(c)) {
            return false;
        }
        int i = (int) (id & (CHUNK - 1));
        parents[c][i] = (int) parent;
        ordinals[c][i] = (char) ordinal;
        return true;
    }

    private synchronized boolean allocate(int c) {
        if (parents[c] != null) {
            return true;
        }
        if (!budget.reserve(CHUNK * 6L)) {
            return false;
        }
        try {
            ordinals[c] = new char[CHUNK];
            parents[c] = new int[CHUNK];
        } catch (OutOfMemoryError e) {
            ordinals[c] = null;
            budget.release(CHUNK * 6L);
            return false;
        }
        return true;
    }

    /** Parent value of an id that was handed out but never used (see {@link Ids}). */
    public static final int HOLE = -2;

    /** Marks ids {@code [from, to)} as holes; false if out of memory. */
    public boolean markHoles(long from, long to) {
        for (long id = from; id < to; id++) {
            if (!set(id, HOLE, 0)) {
                return false;
            }
        }
        return true;
    }

    /** True if {@code id} was never used for a state. */
    public boolean isHole(long id) {
        int[] chunk = parents[(int) (id >>> CHUNK_BITS)];
        return chunk == null || chunk[(int) (id & (CHUNK - 1))] == HOLE;
    }

    /** Parent of {@code id}, or -1 for an initial state. */
    public long parent(long id) {
        return parents[(int) (id >>> CHUNK_BITS)][(int) (id & (CHUNK - 1))];
    }

    public int ordinal(long id) {
        return ordinals[(int) (id >>> CHUNK_BITS)][(int) (id & (CHUNK - 1))];
    }

    /** Bytes per linked state. */
    public static int bytesPerState() {
        return 6;
    }
}
