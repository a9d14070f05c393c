package kcheck.model.rqlock;

import kcheck.model.Kernel;

/**
 * {@code double_lock_balance()} before the fairness patch (2.6.27): keep {@code this_rq} locked
 * when the trylock fails and busiest is the higher runqueue, so low CPUs never queue behind
 * anyone for their own lock.
 */
public class DoubleLockBalanceV2627 implements DoubleLockBalance {

    @Override
    @Kernel(function = "double_lock_balance", file = "kernel/sched.c", version = "v2.6.27")
    public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
        int ret = 0;

        if (!k.spinTrylock(busiest)) {
            if (busiest < thisRq) {
                k.spinUnlock(thisRq);
                k.spinLock(busiest);
                k.spinLock(thisRq);     /* spin_lock_nested(&this_rq->lock, SINGLE_DEPTH_NESTING) */
                ret = 1;
            } else {
                k.spinLock(busiest);    /* spin_lock_nested(&busiest->lock, SINGLE_DEPTH_NESTING) */
            }
        }
        return ret;
    }

    @Override
    @Kernel(function = "double_unlock_balance", file = "kernel/sched.c", version = "v2.6.27", commit = "1b12bbc74756")
    public void doubleUnlockBalance(RqLocks k, int thisRq, int busiest) {
        k.spinUnlock(busiest);
    }
}
