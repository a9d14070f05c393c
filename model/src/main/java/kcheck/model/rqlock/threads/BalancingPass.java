package kcheck.model.rqlock.threads;

import kcheck.model.rqlock.DoubleLockBalance;
import kcheck.model.rqlock.RqLocks;

/**
 * One balancing pass of the rq-lock scenario (docs/models/rq-lock.md), the caller frame the
 * explicit-state model builds around the recorded reference code ({@code RqLockProgram}):
 * {@code spin_lock(this_rq)}; {@code double_lock_balance(this_rq, busiest)}; critical section;
 * {@code double_unlock_balance(this_rq, busiest)}; {@code spin_unlock(this_rq)}. The caller
 * frame is that of {@code pull_rt_task} / {@code load_balance_newidle} (kernel/sched_rt.c,
 * kernel/sched.c), which call {@code double_lock_balance} with {@code this_rq} locked.
 */
public final class BalancingPass {
    private BalancingPass() {
    }

    /** Runs one pass of CPU {@code cpu} (its runqueue is {@code rq[cpu]}) pulling from {@code busiest}. */
    public static void run(DoubleLockBalance dlb, RqLocks k, LockObserver observer, int cpu, int busiest) {
        k.spinLock(cpu);
        observer.entering(cpu, cpu, busiest);
        int ret = dlb.doubleLockBalance(k, cpu, busiest);
        observer.returned(cpu, cpu, busiest, ret);
        /* critical section: move tasks from busiest to this_rq */
        dlb.doubleUnlockBalance(k, cpu, busiest);
        k.spinUnlock(cpu);
    }
}
