package kcheck.model.rqlock;

import kcheck.model.Kernel;
import kcheck.model.VariantInfo;

/**
 * Real historical bugs of these functions, fixed in mainline, each reintroduced into the port of
 * the version just before its fix: exactly the lines the fix changed, undone. Found in kernel
 * history (the fix commits' subjects and diffs); see docs/models/rq-lock.md, "Real bugs".
 */
public final class RqLockRealBugs {
    private RqLockRealBugs() {
    }

    static final VariantInfo BUG_1B12 = VariantInfo.realBug("1b12bbc74756", "lockdep: re-annotate scheduler runqueues",
            "v2.6.27", "2.6.27's nesting annotations with the callers' spin_unlock(&busiest->lock) that the fix replaced by "
                    + "double_unlock_balance (no lock_set_subclass back to 0): the second double_lock_balance of a pull nests at "
                    + "subclass 1 twice (lockdep-subclass, calls=2)");
    static final VariantInfo BUG_7F1B = VariantInfo.realBug("7f1b43936f0e",
            "sched/rt: Fix lockdep annotation within find_lock_lowest_rq()", "not confirmed (2012, after v3.4)",
            "the unfair (!CONFIG_PREEMPT) double_lock_balance with find_lock_lowest_rq's exit path releasing lowest_rq by "
                    + "raw_spin_unlock instead of double_unlock_balance; push_rt_task's retry calls double_lock_balance again "
                    + "(lockdep-subclass, calls=2, preempt=n)");
    static final VariantInfo BUG_59FB = VariantInfo.realBug("59fb586b4a07",
            "locking/qspinlock: Remove unbounded cmpxchg() loop from locking slowpath", "v4.18",
            "v6.12 over qspinlock (whatever 'lock' says) whose pending path is v4.17's cmpxchg() loop (0,0,0 -> 0,0,1 or "
                    + "0,0,1 -> 0,1,1, retried with the value found) instead of the fetch_or of the pending bit: a locker can fail "
                    + "it for ever while others pass the lock around without queueing (starvation-free)");
    static final VariantInfo BUG_7AA5 = VariantInfo.realBug("7aa54be29765", "locking/qspinlock, x86: Provide liveness guarantee",
            "v4.20", "v6.12 over qspinlock (whatever 'lock' says) without x86's queued_fetch_set_pending_acquire (lock btsl, "
                    + "then a load): the generic atomic_fetch_or_acquire, which x86 implements as a try_cmpxchg loop with no bound: "
                    + "a locker can fail it for ever while the word keeps changing (starvation-free)");
    /**
     * A real bug of the memory ordering only: under sequential consistency it is v6.12's program, so it is no
     * SC bug column (the power table and the baseline gate SC verdicts); LkmmCheckTest gates it under lkmm.
     */
    static final VariantInfo BUG_95BC = VariantInfo.of("bug-95bcade33a8a",
            "real bug under --param memory-model=lkmm only: 95bcade33a8a \"locking/qspinlock: Ensure node is initialised before "
                    + "updating prev->next\" (v4.16). v6.12 over qspinlock (whatever 'lock' says) with v4.15's publication of the MCS "
                    + "node: xchg_tail is xchg_release and no smp_wmb() precedes it, prev->next = node a WRITE_ONCE; the release "
                    + "orders the node's initialisation before the tail's write only, not before the link store. The same program "
                    + "under sequential consistency (every property HOLDS); under lkmm deadlock-free is VIOLATED at 4 CPUs");
    static final VariantInfo BUG_2679 = VariantInfo.realBug("2679a83731d5", "sched/core: Avoid obvious double update_rq_clock warning",
            "v5.19", "v5.18's _double_lock_balance and double_rq_lock, which return without double_rq_clock_clear_update: "
                    + "the caller's update_rq_clock() on this_rq or busiest warns WARN_DOUBLE_CLOCK (rq-clock-cleared)");

    /**
     * 1b12bbc74756 introduced {@code spin_lock_nested} for runqueues and, because
     * {@code double_lock_balance} may re-take {@code this_rq} at subclass 1, {@code double_unlock_balance}
     * to set it back to 0. Undone: busiest is released with a plain {@code spin_unlock}, so
     * {@code this_rq} stays at subclass 1 and the next call's {@code spin_lock_nested(busiest, 1)}
     * nests a second subclass-1 rq lock ("So a subsequent double_lock_balance() call can try to
     * nest a subclass 1 lock while already holding a subclass 1 lock", the commit message).
     */
    public static final class Bug1b12bbc74756 extends DoubleLockBalanceV2627 {
        @Override
        @Kernel(function = "double_unlock_balance", file = "kernel/sched.c", version = "v2.6.27 (bug: before 1b12bbc74756)")
        public void doubleUnlockBalance(RqLocks k, int thisRq, int busiest) {
            k.spinUnlock(busiest);
        }
    }

    /**
     * 7f1b43936f0e: {@code find_lock_lowest_rq()} left through one exit path with
     * {@code raw_spin_unlock(&lowest_rq->lock)} instead of {@code double_unlock_balance(rq, lowest_rq)};
     * "if this results in a retry in push_rt_task() we'll call double_lock_balance() again, at which
     * point we'll run into said lockdep confusion". The unfair body is the one that re-takes
     * {@code this_rq} at subclass 1 and keeps it, so the bug needs {@code preempt=n}. The v3.4
     * {@code _double_lock_balance} has the 2.6.28 body with {@code raw_spin_*}; this port reuses the
     * 2.6.28 one.
     */
    public static final class Bug7f1b43936f0e extends DoubleLockBalanceV2628 {
        @Override
        @Kernel(function = "find_lock_lowest_rq", file = "kernel/sched/rt.c", version = "v3.4 (bug: before 7f1b43936f0e)")
        public void doubleUnlockBalance(RqLocks k, int thisRq, int busiest) {
            k.spinUnlock(busiest);
        }
    }

    /**
     * 2679a83731d5 added {@code double_rq_clock_clear_update()} before every return of
     * {@code _double_lock_balance} that holds both locks and at the end of {@code double_rq_lock}.
     * Undone: the v5.18 bodies (the fix's minus lines).
     */
    public static final class Bug2679a83731d5 extends DoubleLockBalanceV612 {
        @Override
        @Kernel(function = "double_rq_lock", file = "kernel/sched/core.c", version = "v5.18 (bug: before 2679a83731d5)")
        public void doubleRqLock(RqLocks k, int rq1, int rq2) {
            if (rqOrderLess(k, rq2, rq1)) {
                int t = rq1;
                rq1 = rq2;
                rq2 = t;
            }

            k.rawSpinRqLockNested(rq1, 0);
            if (k.rqLockp(rq1) == k.rqLockp(rq2)) {
                return;
            }

            k.rawSpinRqLockNested(rq2, SINGLE_DEPTH_NESTING);
        }

        @Override
        @Kernel(function = "_double_lock_balance", file = "kernel/sched/sched.h", version = "v5.18 !CONFIG_PREEMPTION (bug: before 2679a83731d5)")
        public int doubleLockBalanceNoPreemption(RqLocks k, int thisRq, int busiest) {
            if (k.rqLockp(thisRq) == k.rqLockp(busiest)) {
                return 0;
            }

            if (k.rawSpinRqTrylock(busiest)) {
                return 0;
            }

            if (rqOrderLess(k, thisRq, busiest)) {
                k.rawSpinRqLockNested(busiest, SINGLE_DEPTH_NESTING);
                return 0;
            }

            k.rawSpinRqUnlock(thisRq);
            doubleRqLock(k, thisRq, busiest);

            return 1;
        }
    }

    /**
     * 59fb586b4a07 replaced the pending path's {@code cmpxchg()} loop of
     * {@code queued_spin_lock_slowpath} (v4.17: retry {@code atomic_cmpxchg_acquire(&lock->val, val,
     * new)} with the value found until it succeeds or the word shows contention) by an
     * unconditional {@code atomic_fetch_or_acquire(_Q_PENDING_VAL)} (x86 now: the {@code lock btsl}
     * of {@code queued_fetch_set_pending_acquire}) and the undo with {@code clear_pending}: "the
     * cmpxchg() loop is unbounded and lockers can be starved indefinitely if the lock word is seen
     * to oscillate between unlocked (0,0,0) and locked (0,0,1)". Undone: the v6.12 port with the
     * loop back; everything else (the bounded pending wait before it, the queue) as in v6.12.
     */
    public static final class Bug59fb586b4a07 extends DoubleLockBalanceV612 {
        @Override
        public RqSpinlock spinlock(String lockParameter) {
            return new QSpinlockRealBugs.PendingCmpxchgLoop();
        }
    }

    /**
     * 7aa54be29765: "On x86 we cannot do fetch_or with a single instruction and end up using a
     * cmpxchg loop, this reduces determinism. Replace the fetch_or with a very tricky composite
     * xchg8 + load" (the commit message; v6.12 has it as {@code lock btsl} + load). Undone: the
     * pending path calls the generic {@code queued_fetch_set_pending_acquire}, i.e.
     * {@code atomic_fetch_or_acquire(_Q_PENDING_VAL, &lock->val)}, which x86 implements as
     * {@code val = arch_atomic_read(v); do { } while (!arch_atomic_try_cmpxchg(v, &val, val | i));}
     * (arch/x86/include/asm/atomic.h:143, v6.12).
     */
    public static final class Bug7aa54be29765 extends DoubleLockBalanceV612 {
        @Override
        public RqSpinlock spinlock(String lockParameter) {
            return new QSpinlockRealBugs.PendingFetchOrLoop();
        }
    }

    /**
     * 95bcade33a8a: "the release semantics of the xchg_tail operation apply only to the write portion
     * of the RmW", so the address dependency from its read to {@code WRITE_ONCE(prev->next, node)}
     * does not order the node's initialisation before the link (the commit message; LKML
     * 1518528177-19169-2-git-send-email-will.deacon@arm.com). The fix made the link a
     * {@code smp_store_release}; "locking/qspinlock: Elide back-to-back RELEASE operations with
     * smp_wmb()" (Will Deacon, 2018-04-26; its mainline id not confirmed) later gave v6.12's form,
     * {@code smp_wmb()} before a relaxed {@code xchg_tail} and a {@code WRITE_ONCE} link. Undone: v4.15's {@code xchg_release} with no barrier before it.
     */
    public static final class Bug95bcade33a8a extends DoubleLockBalanceV612 {
        @Override
        public RqSpinlock spinlock(String lockParameter) {
            return new QSpinlockRealBugs.XchgTailRelease();
        }
    }
}
