package kcheck.model.rqlock;

import kcheck.model.Kernel;

/** {@code double_rq_lock()}: lock two runqueues in address (here: CPU id) order. Unchanged 2.6.27 → 2.6.28. */
public final class DoubleRqLock {
    private DoubleRqLock() {
    }

    /** Lock {@code rq1} and {@code rq2}, lower first; one lock if they are the same runqueue. */
    @Kernel(function = "double_rq_lock", file = "kernel/sched.c", version = "v2.6.28")
    public static void doubleRqLock(RqLocks k, int rq1, int rq2) {
        if (rq1 == rq2) {
            k.spinLock(rq1);
        } else {
            if (rq1 < rq2) {
                k.spinLock(rq1);
                k.spinLockNested(rq2, DoubleLockBalanceV2627.SINGLE_DEPTH_NESTING);
            } else {
                k.spinLock(rq2);
                k.spinLockNested(rq1, DoubleLockBalanceV2627.SINGLE_DEPTH_NESTING);
            }
        }
    }
}
