package kcheck.model.rwsem;

import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_READ_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_WRITE_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_BIAS;

import kcheck.model.Kernel;

/**
 * Seeded mutants: one deliberate, realistic bug each, to show that a property catches what it
 * claims to catch. They are variants like any other ({@code --variant mutant-...}) but are not
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
}
