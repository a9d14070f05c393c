package kcheck.model.rqlock;

import kcheck.model.Kernel;

/**
 * {@code double_lock_balance()} after "sched: make double-lock-balance fair" (2.6.28, commit
 * 8f45e2b51620). The patch applied only under {@code CONFIG_PREEMPT}: with it (the default,
 * {@code preempt=y}) every call drops {@code this_rq} and takes both locks in order, so entry is as
 * fair as the underlying spinlock (FIFO under ticket locks); without it ({@code preempt=n}) the
 * kernel kept the unfair body, which tries {@code spin_trylock(&busiest->lock)} first and keeps
 * {@code this_rq} whenever it can.
 */
public class DoubleLockBalanceV2628 implements DoubleLockBalance {

    /** {@code double_lock_balance}: the {@code irqs_disabled()} check (not modelled), then {@code _double_lock_balance}. */
    @Override
    @Kernel(function = "double_lock_balance", file = "kernel/sched.c", version = "v2.6.28", commit = "8f45e2b51620")
    public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
        return k.configPreempt() ? doubleLockBalancePreempt(k, thisRq, busiest) : doubleLockBalanceNoPreempt(k, thisRq, busiest);
    }

    /** {@code _double_lock_balance}, {@code CONFIG_PREEMPT}: the fair version. */
    @Kernel(function = "_double_lock_balance", file = "kernel/sched.c", version = "v2.6.28 CONFIG_PREEMPT", commit = "8f45e2b51620")
    public int doubleLockBalancePreempt(RqLocks k, int thisRq, int busiest) {
        k.spinUnlock(thisRq);
        DoubleRqLock.doubleRqLock(k, thisRq, busiest);

        return 1;
    }

    /**
     * {@code _double_lock_balance}, {@code !CONFIG_PREEMPT}: "Unfair double_lock_balance:
     * Optimizes throughput at the expense of latency" (the 2.6.27 body, kept by 8f45e2b51620).
     */
    @Kernel(function = "_double_lock_balance", file = "kernel/sched.c", version = "v2.6.28 !CONFIG_PREEMPT", commit = "8f45e2b51620")
    public int doubleLockBalanceNoPreempt(RqLocks k, int thisRq, int busiest) {
        int ret = 0;

        if (!k.spinTrylock(busiest)) {
            if (busiest < thisRq) {
                k.spinUnlock(thisRq);
                k.spinLock(busiest);
                k.spinLockNested(thisRq, DoubleLockBalanceV2627.SINGLE_DEPTH_NESTING);
                ret = 1;
            } else {
                k.spinLockNested(busiest, DoubleLockBalanceV2627.SINGLE_DEPTH_NESTING);
            }
        }
        return ret;
    }

    @Override
    @Kernel(function = "double_unlock_balance", file = "kernel/sched.c", version = "v2.6.28", commit = "8f45e2b51620")
    public void doubleUnlockBalance(RqLocks k, int thisRq, int busiest) {
        k.spinUnlock(busiest);
        /* lock_set_subclass(&this_rq->lock.dep_map, 0, _RET_IP_); */
        k.lockSetSubclass(thisRq, 0);
    }
}
