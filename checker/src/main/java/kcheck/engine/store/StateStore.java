package kcheck.engine.store;

/**
 * The visited set. One contract, several stores ({@link ExactStore}, {@link FingerprintStore}),
 * so a new store touches only this folder. Safe for concurrent {@link #add} calls when built
 * concurrent.
 */
public interface StateStore {
    /** {@link #add} result: the state was already present. */
    long PRESENT = -1;
    /** {@link #add} result: not stored because the memory budget was reached. */
    long FULL = -2;

    /**
     * Adds state {@code s} (of the store's width, with hash {@code h} from
     * {@link kcheck.engine.Hashing}) if absent, giving it the next id of {@code ids} (whose
     * {@link Ids.Block#ready()} must be true). Returns the id if it was new, {@link #PRESENT} or
     * {@link #FULL}.
     */
    long add(long[] s, long h, Ids.Block ids);

    /**
     * Reads the table slot {@code h} maps to, so the cache line is on its way before
     * {@link #add} needs it; returns a value only to keep the read from being optimised away.
     */
    int touch(long h);

    /** Distinct states stored. */
    long size();

    /** Bytes allocated by the store itself (tables and state arrays, slack included). */
    long bytes();

    /** True if states are stored in full (no omission possible). */
    boolean exact();
}
