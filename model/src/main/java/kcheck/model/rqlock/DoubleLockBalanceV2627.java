package kcheck.model.rqlock;

import kcheck.model.Kernel;

/**
 * {@code double_lock_balance()} before the fairness patch (2.6.27): keep {@code this_rq} locked
 * when the trylock fails and busiest is the higher runqueue, so low CPUs never queue behind
 * anyone for their own lock.
 */
public class DoubleLockBalanceV2627 implements DoubleLockBalance {
    /** lockdep's {@code SINGLE_DEPTH_NESTING}. */
    public static final int SINGLE_DEPTH_NESTING = 1;
    /** The callers of 2.6.27/28 whose frame the model builds. */
    static final String CALLERS = "pull_rt_task / load_balance_newidle caller frame (kernel/sched_rt.c, kernel/sched.c)";

    @Override
    @Kernel(function = "double_lock_balance", file = "kernel/sched.c", version = "v2.6.27")
    public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
        int ret = 0;

        if (!k.spinTrylock(busiest)) {
            if (busiest < thisRq) {
                k.spinUnlock(thisRq);
                k.spinLock(busiest);
                k.spinLockNested(thisRq, SINGLE_DEPTH_NESTING);
                ret = 1;
            } else {
                k.spinLockNested(busiest, SINGLE_DEPTH_NESTING);
            }
        }
        return ret;
    }

    @Override
    @Kernel(function = "double_unlock_balance", file = "kernel/sched.c", version = "v2.6.27", commit = "1b12bbc74756")
    public void doubleUnlockBalance(RqLocks k, int thisRq, int busiest) {
        k.spinUnlock(busiest);
        /* lock_set_subclass(&this_rq->lock.dep_map, 0, _RET_IP_); */
        k.lockSetSubclass(thisRq, 0);
    }

    /** The caller frame's {@code spin_lock(&this_rq->lock)}. */
    @Kernel(function = "pull_rt_task", file = "kernel/sched_rt.c", version = "v2.6.27")
    static void callerSpinLock(RqLocks k, int thisRq) {
        k.spinLock(thisRq);
    }

    /** The caller frame's {@code spin_unlock(&this_rq->lock)}. */
    @Kernel(function = "pull_rt_task", file = "kernel/sched_rt.c", version = "v2.6.27")
    static void callerSpinUnlock(RqLocks k, int thisRq) {
        k.spinUnlock(thisRq);
    }
}
