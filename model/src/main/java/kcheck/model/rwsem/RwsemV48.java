package kcheck.model.rwsem;

import static kcheck.model.rwsem.RwsemCount.NULL;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_MASK;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_READ_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_WRITE_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_READER_OWNED;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_FOR_READ;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_FOR_WRITE;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_ANY;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_READERS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_READ_OWNED;

import static kcheck.model.rwsem.RwsemV612.EINTR;
import static kcheck.model.rwsem.RwsemV612.TASK_KILLABLE;
import static kcheck.model.rwsem.RwsemV612.TASK_UNINTERRUPTIBLE;
import static kcheck.model.rwsem.RwsemV612.signalPendingState;

import kcheck.model.Kernel;

/**
 * The xadd rwsem of v4.8, with "locking/rwsem: Add reader-owned state to the owner field"
 * (19c5d690e41697fc): readers store {@code RWSEM_READER_OWNED} in {@code sem->owner} after
 * taking the lock (and the waker after granting the first waiting reader); the marker is left
 * in place by {@code up_read} (sticky). Writers spin only on a writer owner that is running,
 * or on a NULL owner, and stop as soon as they see {@code RWSEM_READER_OWNED}.
 *
 * <p>The other v4.8 changes to the file are kept too: {@code __rwsem_mark_wake} with a wake
 * queue (the model wakes at {@code wake_q_add}), {@code atomic_long_*} instead of
 * {@code rwsem_atomic_update}, the single-cmpxchg {@code rwsem_try_write_lock}.
 */
public class RwsemV48 extends AsmGenericRwsem {

    /** {@code bool taken} of {@code rwsem_optimistic_spin()}. */
    @FrameLocal("rwsem_optimistic_spin")
    protected boolean taken;
    /** {@code struct task_struct *owner} of {@code rwsem_spin_on_owner()}. */
    @FrameLocal("rwsem_spin_on_owner")
    protected long owner;
    /** {@code long count} of {@code __rwsem_down_write_failed_common()}. */
    @FrameLocal("__rwsem_down_write_failed_common")
    protected long count;
    /** {@code bool waiting} of {@code __rwsem_down_write_failed_common()}. */
    @FrameLocal("__rwsem_down_write_failed_common")
    protected boolean waiting;
    /** {@code long adjustment} of {@code rwsem_down_read_failed()}. */
    @FrameLocal("rwsem_down_read_failed")
    protected long adjustment;
    /** {@code long adjustment} of {@code __rwsem_mark_wake()}. */
    @FrameLocal("__rwsem_mark_wake")
    protected long wakeAdjustment;
    /** {@code long woken} of {@code __rwsem_mark_wake()}. */
    @FrameLocal("__rwsem_mark_wake")
    protected long woken;
    /** {@code long loop} of {@code __rwsem_mark_wake()}: the grant loop's countdown. */
    @FrameLocal("__rwsem_mark_wake")
    protected long loop;

    /* ---------------- kernel/locking/rwsem.h ---------------- */

    /*
     * The owner field of the rw_semaphore structure will be set to RWSEM_READER_OWNED when a
     * reader grabs the lock. A writer will clear the owner field when it unlocks. A reader, on
     * the other hand, will not touch the owner field when it unlocks.
     */

    @Kernel(function = "rwsem_set_owner", file = "kernel/locking/rwsem.h", version = "v4.8")
    protected void rwsemSetOwner(RwSem sem) {
        sem.writeOwner(sem.current());                  /* WRITE_ONCE(sem->owner, current); */
    }

    @Kernel(function = "rwsem_clear_owner", file = "kernel/locking/rwsem.h", version = "v4.8")
    protected void rwsemClearOwner(RwSem sem) {
        sem.writeOwner(NULL);                           /* WRITE_ONCE(sem->owner, NULL); */
    }

    @Kernel(function = "rwsem_set_reader_owned", file = "kernel/locking/rwsem.h", version = "v4.8")
    protected void rwsemSetReaderOwned(RwSem sem) {
        /* We check the owner value first to make sure that we will only do a write to the rwsem
         * cacheline when it is really necessary to minimize cacheline contention. */
        if (sem.readOwner() != RWSEM_READER_OWNED) {    /* sem->owner != RWSEM_READER_OWNED */
            sem.writeOwner(RWSEM_READER_OWNED);         /* WRITE_ONCE(sem->owner, RWSEM_READER_OWNED); */
        }
    }

    @Kernel(function = "rwsem_owner_is_writer", file = "kernel/locking/rwsem.h", version = "v4.8")
    protected static boolean rwsemOwnerIsWriter(long owner) {
        return owner != NULL && owner != RWSEM_READER_OWNED;
    }

    @Kernel(function = "rwsem_owner_is_reader", file = "kernel/locking/rwsem.h", version = "v4.8")
    protected static boolean rwsemOwnerIsReader(long owner) {
        return owner == RWSEM_READER_OWNED;
    }

    /* ---------------- kernel/locking/rwsem.c ---------------- */

    @Override
    @Kernel(function = "down_read", file = "kernel/locking/rwsem.c", version = "v4.8")
    public void downRead(RwSem sem) {
        /* might_sleep(); rwsem_acquire_read(&sem->dep_map, 0, 0, _RET_IP_); */
        __downRead(sem);                                /* LOCK_CONTENDED(sem, __down_read_trylock, __down_read) */
        sem.lockAcquired();
        rwsemSetReaderOwned(sem);
    }

    @Override
    @Kernel(function = "up_read", file = "kernel/locking/rwsem.c", version = "v4.8")
    public void upRead(RwSem sem) {
        /* rwsem_release(&sem->dep_map, 1, _RET_IP_); */
        __upRead(sem);
    }

    @Override
    @Kernel(function = "down_write", file = "kernel/locking/rwsem.c", version = "v4.8")
    public void downWrite(RwSem sem) {
        /* might_sleep(); rwsem_acquire(&sem->dep_map, 0, 0, _RET_IP_); */
        __downWrite(sem);                               /* LOCK_CONTENDED(sem, __down_write_trylock, __down_write) */
        sem.lockAcquired();
        rwsemSetOwner(sem);
    }

    @Override
    @Kernel(function = "down_write_killable", file = "kernel/locking/rwsem.c", version = "v4.8")
    public int downWriteKillable(RwSem sem) {
        /* might_sleep(); rwsem_acquire(&sem->dep_map, 0, 0, _RET_IP_); */
        if (__downWriteKillable(sem) != 0) {           /* LOCK_CONTENDED_RETURN(sem, __down_write_trylock, __down_write_killable) */
            /* rwsem_release(&sem->dep_map, 1, _RET_IP_); */
            return -EINTR;
        }
        sem.lockAcquired();
        rwsemSetOwner(sem);
        return 0;
    }

    /** Lock for writing, killable: as {@code __down_write}, the slow path may end in -EINTR. */
    @Kernel(function = "__down_write_killable", file = "include/asm-generic/rwsem.h", version = "v4.8")
    protected int __downWriteKillable(RwSem sem) {
        long tmp = sem.atomicLongAddReturn(RWSEM_ACTIVE_WRITE_BIAS);   /* atomic_long_add_return_acquire */
        if (tmp != RWSEM_ACTIVE_WRITE_BIAS) {
            if (!rwsemDownWriteFailedKillable(sem)) {   /* IS_ERR(rwsem_down_write_failed_killable(sem)) */
                return -EINTR;
            }
        }
        return 0;
    }

    @Override
    @Kernel(function = "up_write", file = "kernel/locking/rwsem.c", version = "v4.8")
    public void upWrite(RwSem sem) {
        /* rwsem_release(&sem->dep_map, 1, _RET_IP_); */
        rwsemClearOwner(sem);
        __upWrite(sem);
    }

    /* ---------------- kernel/locking/rwsem-xadd.c ---------------- */

    /**
     * Handle the lock release when processes blocked on it can now run: a writer at the front
     * is woken (not granted); readers at the front are granted the lock together. The model
     * wakes at {@code wake_q_add} (the kernel a little later, at {@code wake_up_q}).
     */
    @Kernel(function = "__rwsem_mark_wake", file = "kernel/locking/rwsem-xadd.c", version = "v4.8")
    protected void __rwsemMarkWake(RwSem sem, int wakeType) {
        if (sem.waitListFrontIsWriter()) {
            if (wakeType == RWSEM_WAKE_ANY) {
                /* Mark writer at the front of the queue for wakeup. Until the task is actually
                 * later awoken later by the caller, other writers are able to steal it. */
                sem.wakeUpFrontWriter();                /* wake_q_add(wake_q, waiter->task); */
            }
            return;                                     /* goto out */
        }

        /* Writers might steal the lock before we grant it to the next reader. We prefer to do
         * the first reader grant before counting readers so we can bail out early if a writer
         * stole the lock. */
        wakeAdjustment = 0;
        if (wakeType != RWSEM_WAKE_READ_OWNED) {
            wakeAdjustment = RWSEM_ACTIVE_READ_BIAS;
            while (true) {                              /* try_reader_grant: */
                long oldcount = sem.atomicLongFetchAdd(wakeAdjustment);
                if (oldcount < RWSEM_WAITING_BIAS) {
                    /* If the count is still less than RWSEM_WAITING_BIAS after removing the
                     * adjustment, it is assumed that a writer has stolen the lock. We have to
                     * undo our reader grant. */
                    if (sem.atomicLongAddReturn(-wakeAdjustment) < RWSEM_WAITING_BIAS) {
                        return;                         /* goto out */
                    }
                    /* Last active locker left. Retry waking readers. */
                    continue;                           /* goto try_reader_grant */
                }
                break;
            }
            /* It is not really necessary to set it to reader-owned here, but it gives the
             * spinners an early indication that the readers now have the lock. */
            rwsemSetReaderOwned(sem);
        }

        /* Grant an infinite number of read locks to the readers at the front of the queue. */
        woken = sem.waitListLeadingReaders();
        wakeAdjustment = woken * RWSEM_ACTIVE_READ_BIAS - wakeAdjustment;
        if (!sem.waitListWriterAfter((int) woken)) {
            /* hit end of list above */
            wakeAdjustment -= RWSEM_WAITING_BIAS;
        }
        if (wakeAdjustment != 0) {
            sem.atomicLongAdd(wakeAdjustment);
        }
        /* next = sem->wait_list.next; */
        loop = woken;
        do {
            /* waiter = list_entry(next, struct rwsem_waiter, list); next = waiter->list.next; tsk = waiter->task; */
            sem.wakeQAdd(RwSem.WAITER_FRONT);           /* wake_q_add(wake_q, tsk); */
            /* Ensure that the last operation is setting the reader waiter to nil such that rwsem_down_read_failed()
             * cannot race with do_exit() by always holding a reference count to the task to wakeup. */
            sem.clearWaiterTask(RwSem.WAITER_CURRENT);  /* smp_store_release(&waiter->task, NULL); */
        } while (--loop != 0);
        /* sem->wait_list.next = next; next->prev = &sem->wait_list; */
    }

    /** Wait for the read lock to be granted. */
    @Kernel(function = "rwsem_down_read_failed", file = "kernel/locking/rwsem-xadd.c", version = "v4.8")
    protected void rwsemDownReadFailed(RwSem sem) {
        adjustment = -RWSEM_ACTIVE_READ_BIAS;
        /* waiter.task = tsk; waiter.type = RWSEM_WAITING_FOR_READ; */
        sem.rawSpinLockIrq();
        if (sem.listEmpty()) {
            adjustment += RWSEM_WAITING_BIAS;
        }
        sem.listAddTail(RWSEM_WAITING_FOR_READ);

        /* we're now waiting on the lock, but no longer actively locking */
        long count = sem.atomicLongAddReturn(adjustment);

        /* If there are no active locks, wake the front queued process(es). If there are no
         * writers and we are first in the queue, wake our own waiter to join the existing
         * active readers! */
        if (count == RWSEM_WAITING_BIAS || (count > RWSEM_WAITING_BIAS && adjustment != -RWSEM_ACTIVE_READ_BIAS)) {
            __rwsemMarkWake(sem, RWSEM_WAKE_ANY);
        }
        sem.rawSpinUnlockIrq();
        sem.wakeUpQ();                                  /* wake_up_q(&wake_q); */

        /* wait to be given the lock */
        while (true) {
            sem.setCurrentState();                      /* set_task_state(tsk, TASK_UNINTERRUPTIBLE); */
            if (sem.waiterTaskIsNull()) {
                break;
            }
            sem.schedule();
        }
        /* __set_task_state(tsk, TASK_RUNNING); */
    }

    /** This function must be called with the sem->wait_lock held to prevent race conditions. */
    @Kernel(function = "rwsem_try_write_lock", file = "kernel/locking/rwsem-xadd.c", version = "v4.8")
    protected boolean rwsemTryWriteLock(long count, RwSem sem) {
        /* Avoid trying to acquire write lock if count isn't RWSEM_WAITING_BIAS. */
        if (count != RWSEM_WAITING_BIAS) {
            return false;
        }
        /* Acquire the lock by trying to set it to ACTIVE_WRITE_BIAS. If there are other tasks
         * on the wait list, we need to add on WAITING_BIAS. */
        count = sem.listIsSingular() ? RWSEM_ACTIVE_WRITE_BIAS : RWSEM_ACTIVE_WRITE_BIAS + RWSEM_WAITING_BIAS;
        if (sem.atomicLongCmpxchg(RWSEM_WAITING_BIAS, count) == RWSEM_WAITING_BIAS) {   /* cmpxchg_acquire */
            sem.lockAcquired();
            rwsemSetOwner(sem);
            return true;
        }
        return false;
    }

    /** Try to acquire write lock before the writer has been put on wait queue. */
    @Kernel(function = "rwsem_try_write_lock_unqueued", file = "kernel/locking/rwsem-xadd.c", version = "v4.8")
    protected boolean rwsemTryWriteLockUnqueued(RwSem sem) {
        long count = sem.atomicLongRead();              /* atomic_long_read(&sem->count) */
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

    @Kernel(function = "rwsem_can_spin_on_owner", file = "kernel/locking/rwsem-xadd.c", version = "v4.8")
    protected boolean rwsemCanSpinOnOwner(RwSem sem) {
        if (sem.needResched()) {
            return false;
        }
        /* rcu_read_lock(); */
        long owner = sem.readOwner();                   /* READ_ONCE(sem->owner) */
        if (!rwsemOwnerIsWriter(owner)) {
            /* Don't spin if the rwsem is readers owned. */
            return !rwsemOwnerIsReader(owner);          /* goto done */
        }
        return sem.onCpu(owner);                        /* ret = owner->on_cpu; rcu_read_unlock(); */
    }

    /** Return true only if we can still spin on the owner field of the rwsem. */
    @Kernel(function = "rwsem_spin_on_owner", file = "kernel/locking/rwsem-xadd.c", version = "v4.8")
    protected boolean rwsemSpinOnOwner(RwSem sem) {
        owner = sem.readOwner();                        /* READ_ONCE(sem->owner) */
        if (rwsemOwnerIsWriter(owner)) {                /* else goto out */
            /* rcu_read_lock(); */
            while (sem.readOwner() == owner) {          /* while (sem->owner == owner) */
                /* barrier(); abort spinning when need_resched or owner is not running */
                if (!sem.onCpu(owner) || sem.needResched()) {
                    return false;                       /* rcu_read_unlock(); */
                }
                sem.cpuRelax();                         /* cpu_relax_lowlatency() */
            }
            /* rcu_read_unlock(); */
        }
        /* out: If there is a new owner or the owner is not set, we continue spinning. */
        return !rwsemOwnerIsReader(sem.readOwner());    /* READ_ONCE(sem->owner) */
    }

    @Kernel(function = "rwsem_optimistic_spin", file = "kernel/locking/rwsem-xadd.c", version = "v4.8")
    protected boolean rwsemOptimisticSpin(RwSem sem) {
        taken = false;
        sem.preemptDisable();

        /* sem->wait_lock should not be held when doing optimistic spinning */
        if (rwsemCanSpinOnOwner(sem) && sem.osqLock()) {            /* else goto done */
            /* Optimistically spin on the owner field and attempt to acquire the lock whenever
             * the owner changes. Spinning will be stopped when: 1) the owning writer isn't
             * running; or 2) readers own the lock as we can't determine if they are actively
             * running or not. */
            while (rwsemSpinOnOwner(sem)) {
                /* Try to acquire the lock */
                if (rwsemTryWriteLockUnqueued(sem)) {
                    taken = true;
                    break;
                }
                /* When there's no owner, we might have preempted between the owner acquiring
                 * the lock and setting the owner field. If we're an RT task that will live-lock
                 * because we won't let the owner complete. */
                if (sem.readOwner() == NULL && (sem.needResched() || sem.rtTask())) {   /* !sem->owner */
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

    @Kernel(function = "rwsem_has_spinner", file = "kernel/locking/rwsem-xadd.c", version = "v4.8")
    protected boolean rwsemHasSpinner(RwSem sem) {
        return sem.osqIsLocked();
    }

    /** Wait until we successfully acquire the write lock. */
    @Kernel(function = "__rwsem_down_write_failed_common", file = "kernel/locking/rwsem-xadd.c", version = "v4.8")
    protected boolean __rwsemDownWriteFailedCommon(RwSem sem, int state) {
        waiting = true;                                 /* any queued threads before us */

        /* undo write bias from down_write operation, stop active locking
         * (count = ...: the value is not read before count is assigned again) */
        sem.atomicLongAddReturn(-RWSEM_ACTIVE_WRITE_BIAS);          /* atomic_long_sub_return */

        /* do optimistic spinning and steal lock if possible */
        if (rwsemOptimisticSpin(sem)) {
            return true;
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
            count = sem.atomicLongRead();
            /* If there were already threads queued before us and there are no active writers,
             * the lock must be read owned; so we try to wake any read locks that were queued
             * ahead of us. */
            if (count > RWSEM_WAITING_BIAS) {
                __rwsemMarkWake(sem, RWSEM_WAKE_READERS);
                /* The wakeup is normally called _after_ the wait_lock is released, but given that we are proactively
                 * waking readers we can deal with the wake_q overhead as it is similar to releasing and taking the
                 * wait_lock again for attempting rwsem_try_write_lock(). */
                sem.wakeUpQ();                          /* wake_up_q(&wake_q); */
            }
        } else {
            count = sem.atomicLongAddReturn(RWSEM_WAITING_BIAS);
        }

        /* wait until we successfully acquire the lock */
        sem.setCurrentState();                          /* set_current_state(state); */
        while (true) {
            if (rwsemTryWriteLock(count, sem)) {
                break;
            }
            sem.rawSpinUnlockIrq();

            /* Block until there are no active lockers. */
            do {
                if (signalPendingState(sem, state)) {
                    writeOutNolock(sem);                /* goto out_nolock */
                    return false;                       /* ERR_PTR(-EINTR) */
                }
                sem.schedule();
                sem.setCurrentState();                  /* set_current_state(state); */
                count = sem.atomicLongRead();
            } while ((count & RWSEM_ACTIVE_MASK) != 0);

            sem.rawSpinLockIrq();
        }
        /* __set_current_state(TASK_RUNNING); */
        sem.listDel();
        sem.rawSpinUnlockIrq();
        return true;
    }

    /**
     * The {@code out_nolock:} label of __rwsem_down_write_failed_common(): the killed writer leaves the wait list; the
     * last waiter out takes the waiting bias with it, otherwise the waiters it held back are woken.
     */
    @Kernel(function = "__rwsem_down_write_failed_common", file = "kernel/locking/rwsem-xadd.c", version = "v4.8")
    protected void writeOutNolock(RwSem sem) {
        /* __set_current_state(TASK_RUNNING); */
        sem.rawSpinLockIrq();
        sem.listDel();                                  /* list_del(&waiter.list) */
        if (sem.listEmpty()) {
            sem.atomicLongAdd(-RWSEM_WAITING_BIAS);     /* atomic_long_add(-RWSEM_WAITING_BIAS, &sem->count) */
        } else {
            __rwsemMarkWake(sem, RWSEM_WAKE_ANY);
        }
        sem.rawSpinUnlockIrq();
        /* wake_up_q(&wake_q); */
    }

    @Kernel(function = "rwsem_down_write_failed", file = "kernel/locking/rwsem-xadd.c", version = "v4.8")
    protected void rwsemDownWriteFailed(RwSem sem) {
        __rwsemDownWriteFailedCommon(sem, TASK_UNINTERRUPTIBLE);
    }

    @Kernel(function = "rwsem_down_write_failed_killable", file = "kernel/locking/rwsem-xadd.c", version = "v4.8")
    protected boolean rwsemDownWriteFailedKillable(RwSem sem) {
        return __rwsemDownWriteFailedCommon(sem, TASK_KILLABLE);
    }

    /** Handle waking up a waiter on the semaphore: up_read/up_write has decremented the active part of count if we come here. */
    @Kernel(function = "rwsem_wake", file = "kernel/locking/rwsem-xadd.c", version = "v4.8")
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
            __rwsemMarkWake(sem, RWSEM_WAKE_ANY);
        }
        sem.rawSpinUnlockIrq();                         /* raw_spin_unlock_irqrestore */
        sem.wakeUpQ();                                  /* wake_up_q(&wake_q); */
    }
}
