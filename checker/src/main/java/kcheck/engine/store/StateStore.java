package kcheck.engine.store;

/**
 * The visited set. One contract, several stores ({@link ExactStore}, {@link FingerprintStore}),
 * so a new store touches only this folder. Safe for concurrent {@link #add} calls.
 */
public interface StateStore {
    /** {@link #add} result: the state was already present. */
    long PRESENT = -1;
    /** {@link #add} result: not stored because the state limit or memory budget was reached. */
    long FULL = -2;

    /**
     * Adds state {@code s} (of the store's width, with hash {@code h} from
     * {@link kcheck.engine.Hashing}) if absent. Returns its id (dense, from 0) if it was new,
     * {@link #PRESENT} or {@link #FULL}.
     */
    long add(long[] s, long h);

    /** Distinct states stored. */
    long size();

    /** Bytes allocated by the store itself (tables and state arrays, slack included). */
    long bytes();

    /** True if states are stored in full (no omission possible). */
    boolean exact();

    /** Why the last {@link #FULL} happened: "state limit" or "memory budget". */
    String fullReason();
}
