package kcheck.model.rqlock;

import kcheck.model.Kernel;

/**
 * {@code double_lock_balance()} after "sched: make double-lock-balance fair" (2.6.28, commit
 * 8f45e2b51620, the CONFIG_PREEMPT version): always drop {@code this_rq} and take both locks in
 * order, so entry is as fair as the underlying spinlock (FIFO under ticket locks).
 */
public class DoubleLockBalanceV2628 implements DoubleLockBalance {

    @Override
    @Kernel(function = "double_lock_balance", file = "kernel/sched.c", version = "v2.6.28", commit = "8f45e2b51620")
    public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
        k.spinUnlock(thisRq);
        DoubleRqLock.doubleRqLock(k, thisRq, busiest);

        return 1;
    }

    @Override
    @Kernel(function = "double_unlock_balance", file = "kernel/sched.c", version = "v2.6.28", commit = "8f45e2b51620")
    public void doubleUnlockBalance(RqLocks k, int thisRq, int busiest) {
        k.spinUnlock(busiest);
    }
}
