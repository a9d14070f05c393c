package kcheck.model.rqlock;

import kcheck.model.Kernel;

/**
 * {@code double_lock_balance()} of v6.12 ({@code kernel/sched/sched.h}) with its helpers
 * {@code double_rq_lock} and {@code rq_order_less}: {@code raw_spin_rq_*} on {@code __rq_lockp(rq)},
 * which with core scheduling is the lock of the core, shared by SMT siblings
 * ({@code --param core-sched=pairs}). Both bodies of {@code _double_lock_balance}: the fair one
 * under {@code CONFIG_PREEMPTION} ({@code preempt=y}, the default) and the unfair one without
 * ({@code preempt=n}). {@code double_rq_clock_clear_update} and the lockdep subclasses are recorded
 * (no steps: they feed the opt-in properties {@code rq-clock-cleared} and {@code lockdep-subclass});
 * other lockdep annotations are left out.
 */
public class DoubleLockBalanceV612 implements DoubleLockBalance {
    /** lockdep's {@code SINGLE_DEPTH_NESTING}. */
    public static final int SINGLE_DEPTH_NESTING = 1;

    /**
     * {@code rq_order_less}, {@code CONFIG_SCHED_CORE}: "In order to not have {0,2},{1,3} turn into
     * into an AB-BA, order by core-id first and cpu-id second". Without core scheduling
     * {@code rq->core->cpu} is the CPU itself and this is the CPU-id order.
     */
    @Kernel(function = "rq_order_less", file = "kernel/sched/sched.h", version = "v6.12", line = 2959)
    public boolean rqOrderLess(RqLocks k, int rq1, int rq2) {
        if (k.coreOf(rq1) < k.coreOf(rq2)) {
            return true;
        }
        if (k.coreOf(rq1) > k.coreOf(rq2)) {
            return false;
        }
        return rq1 < rq2;
    }

    /** {@code double_rq_lock}: both runqueue locks in {@code rq_order_less} order, one if they share a lock. */
    @Kernel(function = "double_rq_lock", file = "kernel/sched/core.c", version = "v6.12", line = 661)
    public void doubleRqLock(RqLocks k, int rq1, int rq2) {
        /* lockdep_assert_irqs_disabled(); */
        if (rqOrderLess(k, rq2, rq1)) {
            int t = rq1;
            rq1 = rq2;
            rq2 = t;
        }

        k.rawSpinRqLockNested(rq1, 0);
        if (k.rqLockp(rq1) != k.rqLockp(rq2)) {
            k.rawSpinRqLockNested(rq2, SINGLE_DEPTH_NESTING);
        }

        k.doubleRqClockClearUpdate(rq1, rq2);
    }

    @Override
    @Kernel(function = "double_lock_balance", file = "kernel/sched/sched.h", version = "v6.12", line = 3044)
    public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
        /* lockdep_assert_irqs_disabled(); */
        return k.configPreempt() ? doubleLockBalancePreemption(k, thisRq, busiest) : doubleLockBalanceNoPreemption(k, thisRq, busiest);
    }

    /** {@code _double_lock_balance}, {@code CONFIG_PREEMPTION}: "fair double_lock_balance". */
    @Kernel(function = "_double_lock_balance", file = "kernel/sched/sched.h", version = "v6.12 CONFIG_PREEMPTION", line = 2997)
    public int doubleLockBalancePreemption(RqLocks k, int thisRq, int busiest) {
        k.rawSpinRqUnlock(thisRq);
        doubleRqLock(k, thisRq, busiest);

        return 1;
    }

    /** {@code _double_lock_balance}, {@code !CONFIG_PREEMPTION}: "Unfair double_lock_balance". */
    @Kernel(function = "_double_lock_balance", file = "kernel/sched/sched.h", version = "v6.12 !CONFIG_PREEMPTION", line = 3016)
    public int doubleLockBalanceNoPreemption(RqLocks k, int thisRq, int busiest) {
        if (k.rqLockp(thisRq) == k.rqLockp(busiest)
                || k.rawSpinRqTrylock(busiest)) {
            k.doubleRqClockClearUpdate(thisRq, busiest);
            return 0;
        }

        if (rqOrderLess(k, thisRq, busiest)) {
            k.rawSpinRqLockNested(busiest, SINGLE_DEPTH_NESTING);
            k.doubleRqClockClearUpdate(thisRq, busiest);
            return 0;
        }

        k.rawSpinRqUnlock(thisRq);
        doubleRqLock(k, thisRq, busiest);

        return 1;
    }

    @Override
    @Kernel(function = "double_unlock_balance", file = "kernel/sched/sched.h", version = "v6.12", line = 3051)
    public void doubleUnlockBalance(RqLocks k, int thisRq, int busiest) {
        if (k.rqLockp(thisRq) != k.rqLockp(busiest)) {
            k.rawSpinRqUnlock(busiest);
        }
        k.lockSetSubclass(k.rqLockp(thisRq), 0);
    }

    /** The lock of {@code this_rq} that the caller of {@code pull_rt_task} holds ({@code rq_lock}: {@code raw_spin_rq_lock} and a lockdep pin). */
    @Override
    @Kernel(function = "pull_rt_task", file = "kernel/sched/rt.c", version = "v6.12", line = 2285)
    public void callerLock(RqLocks k, int thisRq) {
        k.rawSpinRqLockNested(thisRq, 0);
    }

    /** The caller's {@code rq_unlock(this_rq)}. */
    @Override
    @Kernel(function = "pull_rt_task", file = "kernel/sched/rt.c", version = "v6.12", line = 2285)
    public void callerUnlock(RqLocks k, int thisRq) {
        k.rawSpinRqUnlock(thisRq);
    }

    @Override
    public String callers() {
        return "pull_rt_task / pull_dl_task caller frame (kernel/sched/rt.c, kernel/sched/deadline.c, v6.12)";
    }
}
