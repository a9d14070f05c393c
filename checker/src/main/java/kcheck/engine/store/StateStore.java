package kcheck.engine.store;

/**
 * The visited set. One contract, several stores ({@link ExactStore}, {@link FingerprintStore}),
 * so a new store touches only this folder. Safe for concurrent {@link #add} calls when built
 * concurrent.
 *
 * <p>Ids are per shard: {@code local * shards() + shard}, with local ids 0, 1, 2, ... in the
 * order states were added to that shard. A BFS level is therefore one local range per shard.
 */
public interface StateStore {
    /** {@link #add} result: the state was already present. */
    long PRESENT = -1;
    /** {@link #add} result: not stored because the memory budget or the state limit was reached. */
    long FULL = -2;

    /**
     * Adds state {@code s} (of the store's width, with hash {@code h} from
     * {@link kcheck.engine.Hashing}) if absent. Returns its id if it was new, {@link #PRESENT}
     * or {@link #FULL}.
     */
    long add(long[] s, long h);

    /**
     * Reads the table slot {@code h} maps to, so the cache line is on its way before
     * {@link #add} needs it; returns a value only to keep the read from being optimised away.
     */
    int touch(long h);

    /** Distinct states stored: the sum of the shards' counts. */
    default long size() {
        long n = 0;
        for (int k = 0; k < shards(); k++) {
            n += count(k);
        }
        return n;
    }

    /** Number of shards. */
    int shards();

    /** States in shard {@code shard} so far (its next local id). */
    long count(int shard);

    /** The id of local state {@code local} of {@code shard}. */
    static long id(int shard, long local) {
        return Shards.id(shard, local);
    }

    /** One more than the largest id handed out (ids below it are dense up to shard imbalance). */
    default long idBound() {
        long max = 0;
        for (int k = 0; k < shards(); k++) {
            max = Math.max(max, count(k));
        }
        return max << Shards.SHARD_BITS;
    }

    /** Bytes allocated by the store itself (tables and state arrays, slack included). */
    long bytes();

    /** True if states are stored in full (no omission possible). */
    boolean exact();

    /** Why the last {@link #FULL} happened: "state limit" or "memory budget". */
    String fullReason();
}
