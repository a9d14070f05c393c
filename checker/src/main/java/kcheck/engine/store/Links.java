package kcheck.engine.store;

/**
 * Trace links: for each state id, its parent's id and the position of the step from the parent
 * among the parent's enumerated successors (the engine re-executes that step to rebuild a trace,
 * TLC-style). 6 bytes per state, kept per store shard (ids are {@code local * shards + shard}) so
 * that workers inserting into different shards never write the same cache line. Chunks are
 * allocated against the {@link MemoryBudget}.
 */
public final class Links implements TraceLinks {
    private static final int CHUNK_BITS = 12;
    private static final int CHUNK = 1 << CHUNK_BITS;

    private final int shards;
    private final int[][][] parents;
    private final char[][][] ordinals;
    private final MemoryBudget budget;

    public Links(long maxStates, MemoryBudget budget) {
        this.shards = Shards.SHARDS;
        /* sized once for the state limit (with room for uneven shards), so it never grows under a writer */
        long perShardStates = Math.min(maxStates, 1L << 31) / shards * 5 / 4 + CHUNK;
        int perShard = (int) (perShardStates >>> CHUNK_BITS) + 2;
        this.parents = new int[shards][perShard][];
        this.ordinals = new char[shards][perShard][];
        this.budget = budget;
    }

    /** Records that {@code id} was reached from {@code parent} by its successor number {@code ordinal}; false if out of memory. */
    public boolean set(long id, long parent, int ordinal) {
        int k = Shards.shardOf(id);
        long local = Shards.localOf(id);
        int c = (int) (local >>> CHUNK_BITS);
        if (c >= parents[k].length) {
            return false;
        }
        if (parents[k][c] == null && !allocate(k, c)) {
            return false;
        }
        int i = (int) (local & (CHUNK - 1));
        parents[k][c][i] = (int) parent;
        ordinals[k][c][i] = (char) ordinal;
        return true;
    }

    private synchronized boolean allocate(int k, int c) {
        if (parents[k][c] != null) {
            return true;
        }
        if (!budget.reserve(CHUNK * 6L)) {
            return false;
        }
        try {
            ordinals[k][c] = new char[CHUNK];
            parents[k][c] = new int[CHUNK];
        } catch (OutOfMemoryError e) {
            ordinals[k][c] = null;
            budget.release(CHUNK * 6L);
            return false;
        }
        return true;
    }

    @Override
    public long parent(long id) {
        long local = Shards.localOf(id);
        int p = parents[Shards.shardOf(id)][(int) (local >>> CHUNK_BITS)][(int) (local & (CHUNK - 1))];
        return p;
    }

    @Override
    public int ordinal(long id) {
        long local = Shards.localOf(id);
        return ordinals[Shards.shardOf(id)][(int) (local >>> CHUNK_BITS)][(int) (local & (CHUNK - 1))];
    }

    /** Bytes per linked state. */
    public static int bytesPerState() {
        return 6;
    }
}
