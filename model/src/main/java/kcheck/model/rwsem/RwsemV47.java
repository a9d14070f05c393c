package kcheck.model.rwsem;

import static kcheck.model.rwsem.RwsemCount.NULL;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_MASK;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_READ_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_WRITE_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_FOR_READ;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_FOR_WRITE;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_ANY;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_READERS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_READ_OWNED;

import kcheck.model.Kernel;

/**
 * The xadd rwsem of v4.7 (kernel/locking/rwsem.c, kernel/locking/rwsem.h,
 * kernel/locking/rwsem-xadd.c), before "locking/rwsem: Add reader-owned state to the owner
 * field" (19c5d690e41697fc, v4.8). Readers never write {@code sem->owner}: NULL means free,
 * reader-owned, or a writer that has not set it yet.
 *
 * <p>Kernel locals that live across an atomic step are fields ({@link FrameLocal}); the rest
 * read line by line like the C.
 */
public class RwsemV47 extends AsmGenericRwsem {

    /** {@code struct task_struct *owner} of {@code rwsem_optimistic_spin()}. */
    @FrameLocal("rwsem_optimistic_spin")
    protected long owner;
    /** {@code bool taken} of {@code rwsem_optimistic_spin()}. */
    @FrameLocal("rwsem_optimistic_spin")
    protected boolean taken;
    /** {@code long count} of {@code __rwsem_down_write_failed_common()}. */
    @FrameLocal("__rwsem_down_write_failed_common")
    protected long count;
    /** {@code bool waiting} of {@code __rwsem_down_write_failed_common()}. */
    @FrameLocal("__rwsem_down_write_failed_common")
    protected boolean waiting;
    /** {@code long adjustment} of {@code rwsem_down_read_failed()}. */
    @FrameLocal("rwsem_down_read_failed")
    protected long adjustment;
    /** {@code long adjustment} of {@code __rwsem_do_wake()}. */
    @FrameLocal("__rwsem_do_wake")
    protected long wakeAdjustment;
    /** {@code long woken} of {@code __rwsem_do_wake()}. */
    @FrameLocal("__rwsem_do_wake")
    protected long woken;

    /* ---------------- kernel/locking/rwsem.h ---------------- */

    @Kernel(function = "rwsem_set_owner", file = "kernel/locking/rwsem.h", version = "v4.7")
    protected void rwsemSetOwner(RwSem sem) {
        sem.writeOwner(sem.current());          /* sem->owner = current; */
    }

    @Kernel(function = "rwsem_clear_owner", file = "kernel/locking/rwsem.h", version = "v4.7")
    protected void rwsemClearOwner(RwSem sem) {
        sem.writeOwner(NULL);                   /* sem->owner = NULL; */
    }

    /* ---------------- kernel/locking/rwsem.c ---------------- */

    @Override
    @Kernel(function = "down_read", file = "kernel/locking/rwsem.c", version = "v4.7")
    public void downRead(RwSem sem) {
        /* might_sleep(); rwsem_acquire_read(&sem->dep_map, 0, 0, _RET_IP_); */
        __downRead(sem);                        /* LOCK_CONTENDED(sem, __down_read_trylock, __down_read) */
        sem.lockAcquired();
    }

    @Override
    @Kernel(function = "up_read", file = "kernel/locking/rwsem.c", version = "v4.7")
    public void upRead(RwSem sem) {
        /* rwsem_release(&sem->dep_map, 1, _RET_IP_); */
        __upRead(sem);
    }

    @Override
    @Kernel(function = "down_write", file = "kernel/locking/rwsem.c", version = "v4.7")
    public void downWrite(RwSem sem) {
        /* might_sleep(); rwsem_acquire(&sem->dep_map, 0, 0, _RET_IP_); */
        __downWrite(sem);                       /* LOCK_CONTENDED(sem, __down_write_trylock, __down_write) */
        sem.lockAcquired();
        rwsemSetOwner(sem);
    }

    @Override
    @Kernel(function = "up_write", file = "kernel/locking/rwsem.c", version = "v4.7")
    public void upWrite(RwSem sem) {
        /* rwsem_release(&sem->dep_map, 1, _RET_IP_); */
        rwsemClearOwner(sem);
        __upWrite(sem);
    }

    /* ---------------- kernel/locking/rwsem-xadd.c ---------------- */

    /**
     * Handle the lock release when processes blocked on it can now run: a writer at the front
     * is woken (not granted: writers may steal the lock); readers at the front are granted the
     * lock together.
     */
    @Kernel(function = "__rwsem_do_wake", file = "kernel/locking/rwsem-xadd.c", version = "v4.7")
    protected void __rwsemDoWake(RwSem sem, int wakeType) {
        if (sem.waitListFrontIsWriter()) {
            if (wakeType == RWSEM_WAKE_ANY) {
                /* Wake writer at the front of the queue, but do not grant it the lock yet. */
                sem.wakeUpProcessFrontWriter();                 /* wake_up_process(waiter->task); */
            }
            return;                                             /* goto out */
        }

        /* Writers might steal the lock before we grant it to the next reader. */
        wakeAdjustment = 0;
        if (wakeType != RWSEM_WAKE_READ_OWNED) {
            wakeAdjustment = RWSEM_ACTIVE_READ_BIAS;
            while (true) {                                      /* try_reader_grant: */
                long oldcount = rwsemAtomicUpdate(wakeAdjustment, sem) - wakeAdjustment;
                if (oldcount < RWSEM_WAITING_BIAS) {
                    /* A writer stole the lock. Undo our reader grant. */
                    if ((rwsemAtomicUpdate(-wakeAdjustment, sem) & RWSEM_ACTIVE_MASK) != 0) {
                        return;                                 /* goto out */
                    }
                    /* Last active locker left. Retry waking readers. */
                    continue;                                   /* goto try_reader_grant */
                }
                break;
            }
        }

        /* Grant an infinite number of read locks to the readers at the front of the queue. */
        woken = sem.waitListLeadingReaders();
        wakeAdjustment = woken * RWSEM_ACTIVE_READ_BIAS - wakeAdjustment;
        if (!sem.waitListWriterAfter((int) woken)) {
            /* hit end of list above */
            wakeAdjustment -= RWSEM_WAITING_BIAS;
        }
        if (wakeAdjustment != 0) {
            rwsemAtomicAdd(wakeAdjustment, sem);
        }
        sem.waitListGrantReaders((int) woken);                  /* waiter->task = NULL; wake_up_process(tsk); */
    }

    /** Wait for the read lock to be granted. */
    @Kernel(function = "rwsem_down_read_failed", file = "kernel/locking/rwsem-xadd.c", version = "v4.7")
    protected void rwsemDownReadFailed(RwSem sem) {
        adjustment = -RWSEM_ACTIVE_READ_BIAS;
        /* waiter.task = tsk; waiter.type = RWSEM_WAITING_FOR_READ; get_task_struct(tsk); */
        sem.rawSpinLockIrq();
        if (sem.listEmpty()) {
            adjustment += RWSEM_WAITING_BIAS;
        }
        sem.listAddTail(RWSEM_WAITING_FOR_READ);

        /* we're now waiting on the lock, but no longer actively locking */
        long count = rwsemAtomicUpdate(adjustment, sem);

        /* If there are no active locks, wake the front queued process(es). If there are no
         * writers and we are first in the queue, wake our own waiter to join the existing
         * active readers! */
        if (count == RWSEM_WAITING_BIAS || (count > RWSEM_WAITING_BIAS && adjustment != -RWSEM_ACTIVE_READ_BIAS)) {
            __rwsemDoWake(sem, RWSEM_WAKE_ANY);
        }
        sem.rawSpinUnlockIrq();

        /* wait to be given the lock */
        while (true) {
            sem.setCurrentState();                              /* set_task_state(tsk, TASK_UNINTERRUPTIBLE); */
            if (sem.waiterTaskIsNull()) {
                break;
            }
            sem.schedule();
        }
        /* __set_task_state(tsk, TASK_RUNNING); */
    }

    /** This function must be called with the sem->wait_lock held to prevent race conditions. */
    @Kernel(function = "rwsem_try_write_lock", file = "kernel/locking/rwsem-xadd.c", version = "v4.7")
    protected boolean rwsemTryWriteLock(long count, RwSem sem) {
        /* Try acquiring the write lock. Check count first in order to reduce unnecessary expensive cmpxchg() operations. */
        if (count == RWSEM_WAITING_BIAS
                && sem.atomicLongCmpxchg(RWSEM_WAITING_BIAS, RWSEM_ACTIVE_WRITE_BIAS) == RWSEM_WAITING_BIAS) {
            sem.lockAcquired();
            if (!sem.listIsSingular()) {
                rwsemAtomicUpdate(RWSEM_WAITING_BIAS, sem);
            }
            rwsemSetOwner(sem);
            return true;
        }
        return false;
    }

    /** Try to acquire write lock before the writer has been put on wait queue. */
    @Kernel(function = "rwsem_try_write_lock_unqueued", file = "kernel/locking/rwsem-xadd.c", version = "v4.7")
    protected boolean rwsemTryWriteLockUnqueued(RwSem sem) {
        long count = sem.atomicLongRead();              /* READ_ONCE(sem->count) */
        while (true) {
            if (!(count == 0 || count == RWSEM_WAITING_BIAS)) {
                return false;
            }
            long old = sem.atomicLongCmpxchg(count, count + RWSEM_ACTIVE_WRITE_BIAS);   /* cmpxchg_acquire */
            if (old == count) {
                sem.lockAcquired();
                rwsemSetOwner(sem);
                return true;
            }
            count = old;
        }
    }

    @Kernel(function = "rwsem_can_spin_on_owner", file = "kernel/locking/rwsem-xadd.c", version = "v4.7")
    protected boolean rwsemCanSpinOnOwner(RwSem sem) {
        if (sem.needResched()) {
            return false;
        }
        /* rcu_read_lock(); */
        long owner = sem.readOwner();                   /* READ_ONCE(sem->owner) */
        if (owner == NULL) {
            long count = sem.atomicLongRead();          /* READ_ONCE(sem->count) */
            /* If sem->owner is not set, yet we have just recently entered the slowpath with the
             * lock being active, then there is a possibility reader(s) may have the lock. To be
             * safe, bail spinning in these situations. */
            return (count & RWSEM_ACTIVE_MASK) == 0;    /* if (count & RWSEM_ACTIVE_MASK) ret = false; */
        }
        return sem.onCpu(owner);                        /* ret = owner->on_cpu; rcu_read_unlock(); */
    }

    @Kernel(function = "rwsem_spin_on_owner", file = "kernel/locking/rwsem-xadd.c", version = "v4.7")
    protected boolean rwsemSpinOnOwner(RwSem sem, long owner) {
        /* rcu_read_lock(); */
        while (sem.readOwner() == owner) {              /* while (sem->owner == owner) */
            /* barrier(); abort spinning when need_resched or owner is not running */
            if (!sem.onCpu(owner) || sem.needResched()) {
                return false;                           /* rcu_read_unlock(); */
            }
            sem.cpuRelax();                             /* cpu_relax_lowlatency() */
        }
        /* rcu_read_unlock(); */
        if (sem.readOwner() != NULL) {                  /* READ_ONCE(sem->owner) */
            return true;                                /* new owner, continue spinning */
        }
        /* When the owner is not set, the lock could be free or held by readers. Check the
         * counter to verify the state. */
        long count = sem.atomicLongRead();              /* READ_ONCE(sem->count) */
        return count == 0 || count == RWSEM_WAITING_BIAS;
    }

    @Kernel(function = "rwsem_optimistic_spin", file = "kernel/locking/rwsem-xadd.c", version = "v4.7")
    protected boolean rwsemOptimisticSpin(RwSem sem) {
        taken = false;
        sem.preemptDisable();

        /* sem->wait_lock should not be held when doing optimistic spinning */
        if (rwsemCanSpinOnOwner(sem) && sem.osqLock()) {            /* else goto done */
            while (true) {
                owner = sem.readOwner();                            /* READ_ONCE(sem->owner) */
                if (owner != NULL && !rwsemSpinOnOwner(sem, owner)) {
                    break;
                }
                /* wait_lock will be acquired if write_lock is obtained */
                if (rwsemTryWriteLockUnqueued(sem)) {
                    taken = true;
                    break;
                }
                /* When there's no owner, we might have preempted between the owner acquiring
                 * the lock and setting the owner field. If we're an RT task that will live-lock
                 * because we won't let the owner complete. */
                if (owner == NULL && (sem.needResched() || sem.rtTask())) {
                    break;
                }
                /* The cpu_relax() call is a compiler barrier which forces everything in this
                 * loop to be re-loaded. */
                sem.cpuRelax();
            }
            sem.osqUnlock();
        }
        /* done: */
        sem.preemptEnable();
        return taken;
    }

    @Kernel(function = "rwsem_has_spinner", file = "kernel/locking/rwsem-xadd.c", version = "v4.7")
    protected boolean rwsemHasSpinner(RwSem sem) {
        return sem.osqIsLocked();
    }

    /** Wait until we successfully acquire the write lock. */
    @Kernel(function = "__rwsem_down_write_failed_common", file = "kernel/locking/rwsem-xadd.c", version = "v4.7")
    protected void __rwsemDownWriteFailedCommon(RwSem sem) {
        waiting = true;                                 /* any queued threads before us */

        /* undo write bias from down_write operation, stop active locking
         * (count = ...: the value is not read before count is assigned again) */
        rwsemAtomicUpdate(-RWSEM_ACTIVE_WRITE_BIAS, sem);

        /* do optimistic spinning and steal lock if possible */
        if (rwsemOptimisticSpin(sem)) {
            return;
        }

        /* Optimistic spinning failed, proceed to the slowpath and block until we can acquire the sem. */
        /* waiter.task = current; waiter.type = RWSEM_WAITING_FOR_WRITE; */
        sem.rawSpinLockIrq();

        /* account for this before adding a new element to the list */
        if (sem.listEmpty()) {
            waiting = false;
        }
        sem.listAddTail(RWSEM_WAITING_FOR_WRITE);

        /* we're now waiting on the lock, but no longer actively locking */
        if (waiting) {
            count = sem.atomicLongRead();               /* READ_ONCE(sem->count) */
            /* If there were already threads queued before us and there are no active writers,
             * the lock must be read owned; so we try to wake any read locks that were queued
             * ahead of us. */
            if (count > RWSEM_WAITING_BIAS) {
                __rwsemDoWake(sem, RWSEM_WAKE_READERS);
            }
        } else {
            count = rwsemAtomicUpdate(RWSEM_WAITING_BIAS, sem);
        }

        /* wait until we successfully acquire the lock */
        sem.setCurrentState();                                  sem.setCurrentState();                          /* set_current_state(state); */
        while (true) {
            if (rwsemTryWriteLock(count, sem)) {
                break;
            }
            sem.rawSpinUnlockIrq();

            /* Block until there are no active lockers. */
            do {
                /* if (signal_pending_state(state, current)) goto out_nolock;  (TASK_UNINTERRUPTIBLE: never) */
                sem.schedule();
                /* set_current_state(state); */
                count = sem.atomicLongRead();           /* count = sem->count */
            } while ((count & RWSEM_ACTIVE_MASK) != 0);

            sem.rawSpinLockIrq();
        }
        /* __set_current_state(TASK_RUNNING); */
        sem.listDel();
        sem.rawSpinUnlockIrq();
    }

    @Kernel(function = "rwsem_down_write_failed", file = "kernel/locking/rwsem-xadd.c", version = "v4.7")
    protected void rwsemDownWriteFailed(RwSem sem) {
        __rwsemDownWriteFailedCommon(sem);              /* TASK_UNINTERRUPTIBLE */
    }

    /** Handle waking up a waiter on the semaphore: up_read/up_write has decremented the active part of count if we come here. */
    @Kernel(function = "rwsem_wake", file = "kernel/locking/rwsem-xadd.c", version = "v4.7")
    protected void rwsemWake(RwSem sem) {
        /* If a spinner is present, it is not necessary to do the wakeup. Try to do wakeup only
         * if the trylock succeeds to minimize spinlock contention which may introduce too much
         * delay in the unlock operation. */
        if (rwsemHasSpinner(sem)) {
            /* smp_rmb(): the spinner state is consulted before reading the wait_lock. */
            if (!sem.rawSpinTrylockIrqsave()) {
                return;
            }
        } else {
            sem.rawSpinLockIrq();                       /* raw_spin_lock_irqsave */
        }
        /* locked: do nothing if list empty */
        if (!sem.listEmpty()) {
            __rwsemDoWake(sem, RWSEM_WAKE_ANY);
        }
        sem.rawSpinUnlockIrq();                         /* raw_spin_unlock_irqrestore */
    }

    /** {@code rwsem_atomic_update()} of include/asm-generic/rwsem.h (v4.7): add and return the new count. */
    @Kernel(function = "rwsem_atomic_update", file = "include/asm-generic/rwsem.h", version = "v4.7")
    protected static long rwsemAtomicUpdate(long delta, RwSem sem) {
        return sem.atomicLongAddReturn(delta);
    }

    /** {@code rwsem_atomic_add()} of include/asm-generic/rwsem.h (v4.7). */
    @Kernel(function = "rwsem_atomic_add", file = "include/asm-generic/rwsem.h", version = "v4.7")
    protected static void rwsemAtomicAdd(long delta, RwSem sem) {
        sem.atomicLongAdd(delta);
    }
}
