package kcheck.model.rqlock;

import kcheck.model.MemoryOrder;
import kcheck.model.Kernel;

/**
 * The v6.12 qspinlock port with the lines of a real qspinlock fix undone, one subclass per fix:
 * the spinlocks of {@link RqLockRealBugs.Bug59fb586b4a07} and {@link RqLockRealBugs.Bug7aa54be29765}.
 */
public final class QSpinlockRealBugs {
    private QSpinlockRealBugs() {
    }

    /** v6.12's qspinlock with v4.17's pending {@code cmpxchg()} loop (the lines 59fb586b4a07 removed). */
    public static final class PendingCmpxchgLoop extends QSpinlock {
        @Override
        public String name() {
            return "qspinlock-v4.17-pending-loop";
        }

        /** The fast path, keeping the value it found for the loop ({@code queued_spin_lock_slowpath(lock, val)}). */
        @Override
        public int queuedSpinLock(Memory m) {
            int val = readVal(m);
            int r = super.queuedSpinLock(m);
            if (r == SET_PENDING) {
                m.setReg(VAL, val);
            }
            return r;
        }

        /** The bounded pending wait (as v6.12), keeping the value it read for the loop. */
        @Override
        public int queuedSpinLockSlowpath(int pc, Memory m) {
            int val = pc == PENDING_WAIT ? readVal(m) : 0;
            int r = super.queuedSpinLockSlowpath(pc, m);
            if (pc == PENDING_WAIT && r == SET_PENDING) {
                m.setReg(VAL, val);
            }
            return r;
        }

        /**
         * One pass of the loop: {@code if (val & ~_Q_LOCKED_MASK) goto queue; new = _Q_LOCKED_VAL;
         * if (val == new) new |= _Q_PENDING_VAL; old = atomic_cmpxchg_acquire(&lock->val, val, new);
         * if (old == val) break; val = old;}, then {@code if (new == _Q_LOCKED_VAL) return;} or the
         * wait for the owner.
         */
        @Override
        @Kernel(function = "queued_spin_lock_slowpath", file = "kernel/locking/qspinlock.c", version = "v4.17 (bug: before 59fb586b4a07)")
        public int queuedFetchSetPendingAcquire(int pc, Memory m) {
            m.order(MemoryOrder.RMW_ACQUIRE);
            int val = m.reg(VAL);
            int nw = Q_LOCKED_VAL;
            if (val == Q_LOCKED_VAL) {
                nw |= Q_PENDING_VAL;
            }
            int old = readVal(m);
            if (old == val) {
                writeVal(m, nw);
                m.setReg(VAL, 0);
                return nw == Q_LOCKED_VAL ? DONE : WAIT_OWNER;
            }
            if ((old & ~Q_LOCKED_MASK) != 0) {
                m.setReg(VAL, 0);
                return NODE_LOCKED_0;
            }
            m.setReg(VAL, old);
            return SET_PENDING;
        }

        @Override
        public int[] successors(int pc) {
            return pc == SET_PENDING ? to(DONE, WAIT_OWNER, NODE_LOCKED_0, SET_PENDING) : super.successors(pc);
        }

        @Override
        public long footprint(int pc) {
            return pc == SET_PENDING ? footprint(FAST) : super.footprint(pc);
        }

        @Override
        public String label(int from, int to) {
            if (from != SET_PENDING) {
                return super.label(from, to);
            }
            return switch (to) {
                case DONE -> ": cmpxchg(0 -> locked) (taken)";
                case WAIT_OWNER -> ": cmpxchg(locked -> locked|pending)";
                case NODE_LOCKED_0 -> ": cmpxchg fails, contended: queue";
                default -> ": cmpxchg fails, retry with the value found";
            };
        }

        @Override
        public String pcName(int pc, String rq, Memory m) {
            return pc == SET_PENDING ? "slowpath(" + rq + "): next: pending cmpxchg (expects " + m.reg(VAL) + ")" : super.pcName(pc, rq, m);
        }

        @Override
        public String cite(int pc) {
            return pc == SET_PENDING ? citeOf(PendingCmpxchgLoop.class, "queuedFetchSetPendingAcquire") : super.cite(pc);
        }
    }

    /** v6.12's qspinlock whose pending path sets the pending bit with x86's cmpxchg-loop fetch_or (before 7aa54be29765). */
    public static final class PendingFetchOrLoop extends QSpinlock {
        @Override
        public String name() {
            return "qspinlock-x86-fetch-or-loop";
        }

        /**
         * {@code atomic_fetch_or_acquire(_Q_PENDING_VAL, &lock->val)} on x86: at SET_PENDING the
         * {@code arch_atomic_read}, at READ_AFTER_PENDING one {@code arch_atomic_try_cmpxchg(v, &val,
         * val | _Q_PENDING_VAL)} (on failure {@code val} is the value found, and the loop goes round
         * again), then the slowpath's tests of the old value, as in v6.12.
         */
        @Override
        @Kernel(function = "arch_atomic_fetch_or", file = "arch/x86/include/asm/atomic.h", version = "v6.12 (bug: before 7aa54be29765)",
                line = 143)
        public int queuedFetchSetPendingAcquire(int pc, Memory m) {
            /* arch_atomic_read, then arch_atomic_try_cmpxchg: a locked cmpxchg, fully ordered on x86 */
            m.order(pc == SET_PENDING ? MemoryOrder.ONCE : MemoryOrder.RMW_FULL);
            if (pc == SET_PENDING) {
                m.setReg(VAL, readVal(m));
                return READ_AFTER_PENDING;
            }
            int expect = m.reg(VAL);
            int cur = readVal(m);
            if (cur != expect) {
                m.setReg(VAL, cur);
                return READ_AFTER_PENDING;
            }
            writeVal(m, cur | Q_PENDING_VAL);
            m.setReg(VAL, 0);
            int val = cur;
            if ((val & ~Q_LOCKED_MASK) != 0) {
                return (val & Q_PENDING_MASK) == 0 ? CLEAR_PENDING : NODE_LOCKED_0;
            }
            return (val & Q_LOCKED_MASK) != 0 ? WAIT_OWNER : CLEAR_PENDING_SET_LOCKED;
        }

        @Override
        public int[] successors(int pc) {
            return pc == READ_AFTER_PENDING ? to(CLEAR_PENDING, NODE_LOCKED_0, WAIT_OWNER, CLEAR_PENDING_SET_LOCKED, READ_AFTER_PENDING)
                    : super.successors(pc);
        }

        @Override
        public long footprint(int pc) {
            return pc == SET_PENDING || pc == READ_AFTER_PENDING ? footprint(FAST) : super.footprint(pc);
        }

        @Override
        public String label(int from, int to) {
            if (from == SET_PENDING) {
                return ": fetch_or: reads val";
            }
            if (from == READ_AFTER_PENDING) {
                return to == READ_AFTER_PENDING ? ": fetch_or: try_cmpxchg fails, retry with the value found"
                        : ": fetch_or: try_cmpxchg(val -> val|pending)" + super.label(from, to).replace(": reads val", "");
            }
            return super.label(from, to);
        }

        @Override
        public String pcName(int pc, String rq, Memory m) {
            return pc == READ_AFTER_PENDING ? "slowpath(" + rq + "): next: fetch_or try_cmpxchg (expects " + m.reg(VAL) + ")"
                    : pc == SET_PENDING ? "slowpath(" + rq + "): next: fetch_or read" : super.pcName(pc, rq, m);
        }

        @Override
        public String cite(int pc) {
            return pc == SET_PENDING || pc == READ_AFTER_PENDING ? citeOf(PendingFetchOrLoop.class, "queuedFetchSetPendingAcquire")
                    : super.cite(pc);
        }
    }

    /** v6.12's qspinlock publishing its MCS node as v4.15 did: {@code xchg_release} of the tail, no {@code smp_wmb()} (before 95bcade33a8a). */
    public static final class XchgTailRelease extends QSpinlock {
        @Override
        public String name() {
            return "qspinlock-v4.15-xchg-release";
        }

        /** {@code xchg_tail}: {@code xchg_release(&lock->tail, tail)}, with no barrier before it. */
        @Override
        @Kernel(function = "xchg_tail", file = "kernel/locking/qspinlock.c", version = "v4.15 (bug: before 95bcade33a8a)")
        public int xchgTail(Memory m) {
            m.order(MemoryOrder.RMW_RELEASE);
            return exchangeTail(m);
        }

        @Override
        public String cite(int pc) {
            return pc == XCHG_TAIL ? citeOf(XchgTailRelease.class, "xchgTail") : super.cite(pc);
        }

        /** Its MCS nodes are used exactly as v6.12's (only the ordering of xchg_tail differs). */
        @Override
        public boolean nodesPrivateToLock() {
            return true;
        }
    }
}
