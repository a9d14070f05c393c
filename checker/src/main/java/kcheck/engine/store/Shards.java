package kcheck.engine.store;

/**
 * Helpers shared by the sharded open-addressing stores. A store is split into {@value #SHARDS}
 * shards chosen by the top hash bits; each shard has its own table, its own ids and (exact
 * store) its own state array, grows on its own (by 1.5x at load 0.8, so its load stays in
 * [0.53, 0.8]) and is locked on its own in a parallel search. A state's id is
 * {@code local * SHARDS + shard}: dense per shard, so a BFS level is one id range per shard.
 */
final class Shards {
    static final int SHARD_BITS = 6;
    static final int SHARDS = 1 << SHARD_BITS;
    static final double MAX_LOAD = 0.8;
    static final int INITIAL_CAPACITY = 256;

    private Shards() {
    }

    static int shard(long h) {
        return (int) (h >>> (64 - SHARD_BITS));
    }

    /** Slot in {@code [0, capacity)} from the low 32 hash bits (multiply-shift range reduction). */
    static int slot(long h, int capacity) {
        return (int) (((h & 0xFFFF_FFFFL) * capacity) >>> 32);
    }

    static int grown(int capacity) {
        long c = (long) capacity * 3 / 2;
        if (c > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("shard too large");
        }
        return (int) c;
    }

    static long id(int shard, long local) {
        return (local << SHARD_BITS) | shard;
    }

    static int shardOf(long id) {
        return (int) (id & (SHARDS - 1));
    }

    static long localOf(long id) {
        return id >>> SHARD_BITS;
    }
}
