package kcheck.model.rwsem;

import static kcheck.model.rwsem.RwsemBits.OWNER_READER;
import static kcheck.model.rwsem.RwsemBits.OWNER_SPINNABLE;
import static kcheck.model.rwsem.RwsemBits.OWNER_WRITER;
import static kcheck.model.rwsem.RwsemBits.RWSEM_FLAG_HANDOFF;
import static kcheck.model.rwsem.RwsemBits.RWSEM_FLAG_WAITERS;
import static kcheck.model.rwsem.RwsemBits.RWSEM_LOCK_MASK;
import static kcheck.model.rwsem.RwsemBits.RWSEM_NONSPINNABLE;
import static kcheck.model.rwsem.RwsemBits.RWSEM_WRITER_LOCKED;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_READ_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_WRITE_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_BIAS;

import kcheck.model.Kernel;

/**
 * Seeded mutants: one deliberate, realistic bug each, to show that a property catches what it
 * claims to catch (v4.7/v4.8 and v6.12 ports). They are variants like any other ({@code --variant mutant-...}) but are not
 * part of the verdict catalogue.
 */
public final class RwsemMutants {
    private RwsemMutants() {
    }

    /** v4.8 {@code up_write} releasing the count before clearing the owner: breaks {@code owner-sound}. */
    public static final class EarlyRelease extends RwsemV48 {
        @Override
        @Kernel(function = "up_write", file = "kernel/locking/rwsem.c", version = "v4.8 (mutant: count released first)")
        public void upWrite(RwSem sem) {
            __upWrite(sem);
            rwsemClearOwner(sem);
        }
    }

    /** v4.8 whose readers never store {@code RWSEM_READER_OWNED}: breaks {@code no-spin-on-readers}. */
    public static final class NoReaderOwned extends RwsemV48 {
        @Override
        @Kernel(function = "rwsem_set_reader_owned", file = "kernel/locking/rwsem.h", version = "v4.8 (mutant: no store)")
        protected void rwsemSetReaderOwned(RwSem sem) {
        }
    }

    /** v4.8 whose unqueued trylock also takes a lock held only by readers: breaks {@code exclusion}. */
    public static final class TrylockIgnoresReaders extends RwsemV48 {
        @Override
        @Kernel(function = "rwsem_try_write_lock_unqueued", file = "kernel/locking/rwsem-xadd.c",
                version = "v4.8 (mutant: readers ignored)")
        protected boolean rwsemTryWriteLockUnqueued(RwSem sem) {
            long count = sem.atomicLongRead();
            while (true) {
                if (!(count >= 0 || count == RWSEM_WAITING_BIAS)) {     /* was: count == 0 || ... */
                    return false;
                }
                long old = sem.atomicLongCmpxchg(count, count + RWSEM_ACTIVE_WRITE_BIAS);
                if (old == count) {
                    sem.lockAcquired();
                    rwsemSetOwner(sem);
                    return true;
                }
                count = old;
            }
        }
    }

    /** v4.7 {@code __up_read} that never wakes the waiters: breaks {@code deadlock-free}. */
    public static final class UpReadNoWake extends RwsemV47 {
        @Override
        @Kernel(function = "__up_read", file = "include/asm-generic/rwsem.h", version = "v4.7 (mutant: no rwsem_wake)")
        protected void __upRead(RwSem sem) {
            sem.atomicLongAddReturn(-RWSEM_ACTIVE_READ_BIAS);
            sem.lockReleased();
        }
    }

    /** v4.8 rwsem_spin_on_owner() that does not stop when the owner is off its CPU: breaks {@code no-spin-on-preempted-owner}. */
    public static final class SpinsOnPreemptedOwner extends RwsemV48 {
        @Override
        @Kernel(function = "rwsem_spin_on_owner", file = "kernel/locking/rwsem-xadd.c", version = "v4.8 (mutant: on_cpu ignored)")
        protected boolean rwsemSpinOnOwner(RwSem sem) {
            owner = sem.readOwner();
            if (rwsemOwnerIsWriter(owner)) {
                while (sem.readOwner() == owner) {
                    if (sem.needResched()) {                        /* was: !owner->on_cpu || need_resched() */
                        return false;
                    }
                    sem.cpuRelax();
                }
            }
            return !rwsemOwnerIsReader(sem.readOwner());
        }
    }

    /** v6.12 rwsem_try_write_lock_unqueued() that steals the lock past a handoff: breaks {@code handoff}. */
    public static final class UnqueuedIgnoresHandoff extends RwsemV612 {
        @Override
        @Kernel(function = "rwsem_try_write_lock_unqueued", file = "kernel/locking/rwsem.c", version = "v6.12 (mutant: handoff ignored)")
        protected boolean rwsemTryWriteLockUnqueued(RwSem sem) {
            tuCount = sem.atomicLongRead();
            while ((tuCount & RWSEM_LOCK_MASK) == 0) {               /* was: RWSEM_LOCK_MASK|RWSEM_FLAG_HANDOFF */
                long found = sem.atomicLongCmpxchg(tuCount, tuCount | RWSEM_WRITER_LOCKED);
                if (found == tuCount) {
                    sem.lockAcquired();
                    rwsemSetOwner(sem);
                    return true;
                }
                tuCount = found;
            }
            return false;
        }
    }

    /** v6.12 rwsem_try_write_lock() whose waiter never asks for the handoff: breaks {@code no-writer-starvation}. */
    public static final class NoHandoffRequest extends RwsemV612 {
        @Override
        @Kernel(function = "rwsem_try_write_lock", file = "kernel/locking/rwsem.c", version = "v6.12 (mutant: never sets the handoff bit)")
        protected boolean rwsemTryWriteLock(RwSem sem) {
            twCount = sem.atomicLongRead();
            do {
                boolean hasHandoff = (twCount & RWSEM_FLAG_HANDOFF) != 0;
                if (hasHandoff && sem.firstWaiterHandoffSet() && !sem.isFirstWaiter()) {
                    return false;
                }
                twNew = twCount;
                if ((twCount & RWSEM_LOCK_MASK) != 0) {
                    return false;                                   /* was: set the handoff bit when RT or timed out */
                }
                twNew |= RWSEM_WRITER_LOCKED;
                twNew &= ~RWSEM_FLAG_HANDOFF;
                if (sem.listIsSingular()) {
                    twNew &= ~RWSEM_FLAG_WAITERS;
                }
                long found = sem.atomicLongCmpxchg(twCount, twNew);
                if (found == twCount) {
                    break;
                }
                twCount = found;
            } while (true);
            sem.lockAcquired();
            sem.listDel();
            rwsemSetOwner(sem);
            return true;
        }
    }

    /** v6.12 rwsem_optimistic_spin() that spins on readers with no time limit: breaks {@code no-spin-on-readers}. */
    public static final class ReaderSpinWithoutDeadline extends RwsemV612 {
        @Override
        @Kernel(function = "rwsem_optimistic_spin", file = "kernel/locking/rwsem.c", version = "v6.12 (mutant: no reader-spin deadline)")
        protected boolean rwsemOptimisticSpin(RwSem sem) {
            taken = false;
            prevOwnerState = RwsemBits.OWNER_NULL;
            if (!sem.osqLock()) {
                return false;
            }
            for (;;) {
                ownerState = rwsemSpinOnOwner(sem);
                if ((ownerState & OWNER_SPINNABLE) == 0) {
                    break;
                }
                taken = rwsemTryWriteLockUnqueued(sem);
                if (taken) {
                    break;
                }
                if (ownerState == OWNER_READER && prevOwnerState != OWNER_READER
                        && rwsemTestOflags(sem, RWSEM_NONSPINNABLE)) {
                    break;                                          /* was: also arm and check rspin_threshold */
                }
                if (ownerState != OWNER_WRITER) {
                    if (sem.needResched()) {
                        break;
                    }
                    if (sem.rtTask() && prevOwnerState != OWNER_WRITER) {
                        break;
                    }
                }
                prevOwnerState = ownerState;
                sem.cpuRelax();
            }
            sem.osqUnlock();
            return taken;
        }
    }

    /**
     * v4.8 whose killed writer only leaves the wait list: its out_nolock neither takes the waiting bias back when it
     * was the last waiter nor wakes the waiters it held back. Modelled on "locking/rwsem: Fix down_write_killable()"
     * (v4.7 merge window; its subject is confirmed, its diff and id were not found), which by its description fixed
     * exactly these two omissions of the first killable writer path: breaks {@code deadlock-free}.
     */
    public static final class KilledWriterNoCleanup extends RwsemV48 {
        @Override
        @Kernel(function = "__rwsem_down_write_failed_common", file = "kernel/locking/rwsem-xadd.c",
                version = "v4.8 (mutant: out_nolock only list_del)")
        protected void writeOutNolock(RwSem sem) {
            sem.rawSpinLockIrq();
            sem.listDel();
            sem.rawSpinUnlockIrq();
        }
    }

    /**
     * v6.12's {@code rwsem_wake()} without {@code raw_spin_lock_irqsave(&sem->wait_lock)} around
     * {@code rwsem_mark_wake()}: the wait list is walked and the readers granted unlocked. Fails
     * {@code lockdep_assert_held(&sem->wait_lock)} in {@code rwsem_mark_wake()}: {@code
     * warn-wait-lock-held}.
     */
    public static final class WakeWithoutWaitLock extends RwsemV612 {
        @Override
        @Kernel(function = "rwsem_wake", file = "kernel/locking/rwsem.c", version = "v6.12 (mutant: wait_lock not taken)")
        protected void rwsemWake(RwSem sem) {
            sem.wakeQInit();
            if (!sem.listEmpty()) {
                rwsemMarkWake(sem, RwsemCount.RWSEM_WAKE_ANY);
            }
            sem.wakeUpQ();
        }
    }
}
