package kcheck.model.rqlock;

/**
 * The variant contract of the rq-lock model: a version of {@code double_lock_balance()} and its
 * partner {@code double_unlock_balance()}, written against {@link RqLocks}. Each call on
 * {@code k} is one atomic step of the calling CPU (a ticket {@code spin_lock} is two).
 *
 * <p>To check your own patch: {@code kcheck variant new rq-lock NAME} writes a copy of
 * {@link DoubleLockBalanceV2628} to edit, and {@code kcheck check rq-lock --variant-file NAME.java}
 * checks it (or register a class in {@link RqLockFactory}).
 */
public interface DoubleLockBalance {

    /**
     * Called with {@code thisRq} locked; returns with {@code thisRq} and {@code busiest} locked.
     * Returns 1 if {@code thisRq} was released on the way (the caller must revalidate), 0 if it
     * was held throughout.
     */
    int doubleLockBalance(RqLocks k, int thisRq, int busiest);

    /** Releases {@code busiest}; {@code thisRq} stays locked. */
    void doubleUnlockBalance(RqLocks k, int thisRq, int busiest);
}
