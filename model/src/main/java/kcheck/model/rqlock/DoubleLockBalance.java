package kcheck.model.rqlock;

/**
 * The variant contract of the rq-lock model: a version of {@code double_lock_balance()} and its
 * partner {@code double_unlock_balance()}, written against {@link RqLocks}, and the runqueue
 * spinlock they run on ({@link #spinlock}). Each lock primitive the code calls becomes the atomic
 * steps of that spinlock ({@link RqSpinlock}).
 *
 * <p>To check your own patch: {@code kcheck variant new rq-lock NAME} writes a copy of
 * {@link DoubleLockBalanceV2628} to edit, and {@code kcheck check rq-lock --variant-file NAME.java}
 * checks it (or register a class in {@link RqLockFactory}). To check your own lock, override
 * {@link #spinlock} (e.g. return a {@link TicketSpinlock} subclass with a different
 * {@code trylock}).
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

    /**
     * The runqueue spinlock this code runs on, given the model's {@code lock} parameter
     * ({@code ticket}, {@code tas}, {@code qspinlock}, {@code qspinlock-virt}). Override it to
     * bring your own lock.
     */
    default RqSpinlock spinlock(String lockParameter) {
        return RqSpinlocks.builtIn(lockParameter);
    }

    /** The caller's {@code spin_lock(&this_rq->lock)} before it calls {@link #doubleLockBalance}. */
    default void callerLock(RqLocks k, int thisRq) {
        DoubleLockBalanceV2627.callerSpinLock(k, thisRq);
    }

    /** The caller's {@code spin_unlock(&this_rq->lock)} at the end of its pass. */
    default void callerUnlock(RqLocks k, int thisRq) {
        DoubleLockBalanceV2627.callerSpinUnlock(k, thisRq);
    }

    /** The callers whose frame the model builds around the code, for citations. */
    default String callers() {
        return DoubleLockBalanceV2627.CALLERS;
    }
}
