package kcheck.model.rqlock;

import kcheck.model.Kernel;

/**
 * Seeded mutants: one deliberate, realistic bug each, to show that a property catches what it
 * claims to catch. They are variants like any other ({@code --variant mutant-...}) but are not
 * part of the verdict catalogue.
 */
public final class RqLockMutants {
    private RqLockMutants() {
    }

    /** 2.6.28 but reports "held throughout" although it dropped {@code this_rq}: breaks {@code return-contract}. */
    public static final class ReturnsZero extends DoubleLockBalanceV2628 {
        @Override
        @Kernel(function = "double_lock_balance", file = "kernel/sched.c", version = "v2.6.28 (mutant: return 0)")
        public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
            k.spinUnlock(thisRq);
            DoubleRqLock.doubleRqLock(k, thisRq, busiest);
            return 0;
        }
    }

    /** 2.6.27 without re-taking {@code this_rq} after dropping it: breaks {@code holds-both-on-return}. */
    public static final class SkipsRelock extends DoubleLockBalanceV2627 {
        @Override
        @Kernel(function = "double_lock_balance", file = "kernel/sched.c", version = "v2.6.27 (mutant: no relock)")
        public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
            int ret = 0;
            if (!k.spinTrylock(busiest)) {
                if (busiest < thisRq) {
                    k.spinUnlock(thisRq);
                    k.spinLock(busiest);
                    ret = 1;
                } else {
                    k.spinLock(busiest);
                }
            }
            return ret;
        }
    }

    /** 2.6.28 taking {@code this_rq} then busiest, ignoring the lock order: breaks {@code deadlock-free}. */
    public static final class Unordered extends DoubleLockBalanceV2628 {
        @Override
        @Kernel(function = "double_lock_balance", file = "kernel/sched.c", version = "v2.6.28 (mutant: unordered)")
        public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
            k.spinUnlock(thisRq);
            k.spinLock(thisRq);
            k.spinLock(busiest);
            return 1;
        }
    }

    /** {@code double_unlock_balance} releasing {@code this_rq} instead of busiest: breaks {@code mutual-exclusion}. */
    public static final class UnlocksThis extends DoubleLockBalanceV2628 {
        @Override
        @Kernel(function = "double_unlock_balance", file = "kernel/sched.c", version = "v2.6.28 (mutant: wrong lock)")
        public void doubleUnlockBalance(RqLocks k, int thisRq, int busiest) {
            k.spinUnlock(thisRq);
        }
    }

    /**
     * 2.6.28 over a ticket lock whose {@code spin_trylock} is not one {@code cmpxchg} but a test and
     * a separate set (two steps): two CPUs can both find the lock free and both take it. Only
     * {@code preempt=n} calls {@code spin_trylock}; with {@code preempt=y} the broken trylock is
     * never run and every property holds.
     */
    public static final class SplitTrylock extends DoubleLockBalanceV2628 {
        @Override
        public RqSpinlock spinlock(String lockParameter) {
            return new RqLockMutants.SplitTrylockTicket();
        }
    }

    /** The ticket lock of {@link SplitTrylock}: trylock reads {@code next} and {@code serving}, then (a step later) stores {@code next + 1}. */
    public static final class SplitTrylockTicket extends TicketSpinlock {
        public static final int TRY_SET = 4;

        @Override
        public String name() {
            return "ticket-split-trylock";
        }

        @Override
        public int pcs() {
            return 5;
        }

        @Override
        public int step(int pc, Memory m) {
            return pc == TRY_SET ? trySet(m) : super.step(pc, m);
        }

        @Override
        @Kernel(function = "__ticket_spin_trylock", file = "include/asm-x86/spinlock.h", version = "v2.6.25 (mutant: test, then set)")
        public int trylock(Memory m) {
            int next = m.word(NEXT);
            if (!free(next, m.word(SERVING), mask(BITS))) {
                return FAILED;
            }
            m.setReg(TICKET, next);
            return TRY_SET;
        }

        @Kernel(function = "__ticket_spin_trylock", file = "include/asm-x86/spinlock.h", version = "v2.6.25 (mutant: test, then set)")
        public int trySet(Memory m) {
            m.setWord(NEXT, advance(m.reg(TICKET), mask(BITS)));
            return DONE;
        }

        @Override
        public Op opOf(int pc) {
            return pc == TRY_SET ? Op.TRYLOCK : super.opOf(pc);
        }

        @Override
        public int[] successors(int pc) {
            return pc == TRY ? to(FAILED, TRY_SET) : pc == TRY_SET ? to(DONE) : super.successors(pc);
        }

        @Override
        public long footprint(int pc) {
            return pc == TRY_SET ? 1L << NEXT : super.footprint(pc);
        }

        @Override
        public boolean waiting(int pc) {
            return super.waiting(pc);
        }

        @Override
        public String label(int from, int to) {
            return from == TRY && to == TRY_SET ? ": finds it free" : from == TRY_SET ? ": sets next" : super.label(from, to);
        }

        @Override
        public String pcName(int pc, String rq, Memory m) {
            return pc == TRY_SET ? "trylock found " + rq + " free, next: set" : super.pcName(pc, rq, m);
        }

        @Override
        public String cite(int pc) {
            return pc == TRY_SET || pc == TRY ? citeOf(SplitTrylockTicket.class, "trySet") : super.cite(pc);
        }

        @Override
        public String reduction() {
            return null;
        }

        @Override
        public void canonicalize(Canonical c) {
        }
    }

    /**
     * v6.12 over a qspinlock whose pending path, finding contention after it set the pending bit,
     * queues without clearing it ("Undo PENDING if we set it" dropped): the queue head then waits
     * for a pending bit nobody will clear. Breaks {@code deadlock-free}.
     */
    public static final class QspinlockNoUndo extends DoubleLockBalanceV612 {
        @Override
        public RqSpinlock spinlock(String lockParameter) {
            return new QSpinlock(false) {
                @Override
                @Kernel(function = "queued_fetch_set_pending_acquire", file = "arch/x86/include/asm/qspinlock.h",
                        version = "v6.12 (mutant: no undo)")
                public int queuedFetchSetPendingAcquire(int pc, Memory m) {
                    int r = super.queuedFetchSetPendingAcquire(pc, m);
                    return r == QSpinlock.CLEAR_PENDING ? QSpinlock.NODE_LOCKED_0 : r;
                }

                @Override
                public String name() {
                    return "qspinlock-no-undo";
                }
            };
        }
    }

    /**
     * v6.12 whose {@code rq_order_less} compares CPU ids only: with core scheduling on 4 CPUs
     * ({0,2} and {1,3} share locks) {@code double_rq_lock(0,3)} takes core 0 then core 1 and
     * {@code double_rq_lock(1,2)} core 1 then core 0, the AB-BA the kernel comment warns of.
     * Breaks {@code deadlock-free} with {@code core-sched=pairs}.
     */
    public static final class CpuIdOrder extends DoubleLockBalanceV612 {
        @Override
        @Kernel(function = "rq_order_less", file = "kernel/sched/sched.h", version = "v6.12 (mutant: CPU id only)")
        public boolean rqOrderLess(RqLocks k, int rq1, int rq2) {
            return rq1 < rq2;
        }
    }
}
