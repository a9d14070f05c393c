package kcheck.model.rwsem;

import static kcheck.model.rwsem.RwsemBits.RWSEM_FLAG_HANDOFF;
import static kcheck.model.rwsem.RwsemBits.RWSEM_FLAG_WAITERS;
import static kcheck.model.rwsem.RwsemBits.RWSEM_LOCK_MASK;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READER_BIAS;
import static kcheck.model.rwsem.RwsemBits.RWSEM_RD_NONSPINNABLE;
import static kcheck.model.rwsem.RwsemBits.RWSEM_WRITER_LOCKED;
import static kcheck.model.rwsem.RwsemBits.RWSEM_WRITER_MASK;

import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_READ_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_ANY;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_READ_OWNED;

import kcheck.model.Kernel;
import kcheck.model.MemoryOrder;

/**
 * Real kernel bugs, fixed in mainline, reintroduced into a port: each class undoes exactly the
 * lines its fix commit changed (found in kernel history; commit, subject and release in
 * {@link RwsemOwnerFactory}'s catalogue) and nothing else.
 */
public final class RwsemRealBugs {
    private RwsemRealBugs() {
    }

    /**
     * 48dfb5d2560d "locking/rwsem: Disable preemption while trying for rwsem lock" (v6.1) made the
     * write fast path (the count cmpxchg and rwsem_set_owner()) non-preemptible; in v6.12 that
     * preempt_disable() sits in __down_write_common(), where 1d61659ced6b moved it together with the
     * slow path's. Undone here for the fast path only: a writer can be preempted holding the lock
     * with owner still NULL, and an RT waiter spinning in the slow path on OWNER_NULL live-locks.
     */
    public static class Bug48dfb5d2560d extends RwsemV612 {
        @Override
        @Kernel(function = "__down_write_common", file = "kernel/locking/rwsem.c", version = "v6.12 with 48dfb5d2560d undone")
        protected int __downWriteCommon(RwSem sem, int state) {
            int ret = 0;
            if (!rwsemWriteTrylock(sem)) {
                sem.preemptDisable();                               /* the slow path keeps v6.12's preemption off */
                if (!rwsemDownWriteSlowpath(sem, state)) {
                    ret = -EINTR;
                }
                sem.preemptEnable();
            }
            return ret;
        }
    }

    /**
     * 3f5245538a19 "locking/rwsem: Disable preemption in all down_read*() and up_read() code paths"
     * (v6.3) disabled preemption around __down_read_common() and __up_read(). Undone: a reader can
     * add its RWSEM_READER_BIAS and be preempted before rwsem_set_reader_owned(), owner stays NULL,
     * and an RT writer in the slow path with the handoff bit set spins on OWNER_NULL.
     */
    public static class Bug3f5245538a19 extends RwsemV612 {
        @Override
        @Kernel(function = "__down_read_common", file = "kernel/locking/rwsem.c", version = "v6.12 with 3f5245538a19 undone")
        protected int __downReadCommon(RwSem sem, int state) {
            int ret = 0;
            if (!rwsemReadTrylock(sem)) {
                if (!rwsemDownReadSlowpath(sem, downCount, state)) {
                    ret = -EINTR;
                }
            }
            return ret;
        }

        @Override
        @Kernel(function = "__up_read", file = "kernel/locking/rwsem.c", version = "v6.12 with 3f5245538a19 undone")
        protected void __upRead(RwSem sem) {
            rwsemClearReaderOwned(sem);
            long tmp = sem.atomicLongAddReturn(-RWSEM_READER_BIAS);
            sem.lockReleased();
            if ((tmp & (RWSEM_LOCK_MASK | RWSEM_FLAG_WAITERS)) == RWSEM_FLAG_WAITERS) {
                clearNonspinnable(sem);
                rwsemWake(sem);
            }
        }
    }

    /**
     * b613c7f31476 "locking/rwsem: Prevent non-first waiter from spinning in down_write() slowpath"
     * (v6.3). Undone: a non-first waiter that sets the handoff bit sets its own handoff_set (and the
     * first waiter inherits one when it finds the bit set), so the non-first waiter spins in the
     * slow path on OWNER_NULL and can never take the lock while the first waiter, woken but on its
     * CPU, does not run.
     */
    public static class Bugb613c7f31476 extends RwsemV612 {
        @Override
        @Kernel(function = "rwsem_try_write_lock", file = "kernel/locking/rwsem.c", version = "v6.12 with b613c7f31476 undone")
        protected boolean rwsemTryWriteLock(RwSem sem) {
            sem.lockdepAssertHeldWaitLock();
            twCount = sem.atomicLongRead();
            do {
                boolean hasHandoff = (twCount & RWSEM_FLAG_HANDOFF) != 0;
                if (hasHandoff) {
                    if (sem.firstWaiterHandoffSet() && !sem.isFirstWaiter()) {
                        return false;
                    }
                    /* First waiter can inherit a previously set handoff bit and spin on rwsem if lock acquisition
                     * fails. */
                    if (sem.isFirstWaiter()) {
                        sem.setWaiterHandoff();                     /* waiter->handoff_set = true */
                    }
                }
                twNew = twCount;
                if ((twCount & RWSEM_LOCK_MASK) != 0) {
                    if (hasHandoff || (!sem.rtTask() && !sem.waitTimedOut())) {
                        return false;
                    }
                    twNew |= RWSEM_FLAG_HANDOFF;
                } else {
                    twNew |= RWSEM_WRITER_LOCKED;
                    twNew &= ~RWSEM_FLAG_HANDOFF;
                    if (sem.listIsSingular()) {
                        twNew &= ~RWSEM_FLAG_WAITERS;
                    }
                }
                long found = sem.atomicLongCmpxchg(twCount, twNew);
                if (found == twCount) {
                    break;
                }
                twCount = found;
            } while (true);
            /* We have either acquired the lock with handoff bit cleared or set the handoff bit. */
            if ((twNew & RWSEM_FLAG_HANDOFF) != 0) {
                sem.setWaiterHandoff();                             /* waiter->handoff_set = true */
                return false;
            }
            sem.lockAcquired();
            sem.listDel();
            rwsemSetOwner(sem);
            return true;
        }
    }

    /**
     * a9e9bcb45b15 "locking/rwsem: Prevent decrement of reader count before increment" (v5.1; Fixes: 70800c3c0cc5
     * "locking/rwsem: Scan the wait_list for readers only once", v4.9) made __rwsem_mark_wake() two passes again:
     * count the readers, add their biases, then clear waiter->task and queue them. Undone in the closest port (v4.8,
     * whose wake is already the fixed order): the readers are granted (waiter->task = NULL) before the count is
     * raised, so a granted reader can run up_read() and drive the active count below zero (or let a writer in).
     */
    public static class Buga9e9bcb45b15 extends RwsemV48 {
        @Override
        @Kernel(function = "__rwsem_mark_wake", file = "kernel/locking/rwsem-xadd.c", version = "v4.8 with a9e9bcb45b15 undone")
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
            loop = woken;
            do {                                            /* the one pass: list_for_each_entry_safe(waiter, tmp, &sem->wait_list, list) */
                sem.wakeQAdd(RwSem.WAITER_FRONT);           /* wake_q_add(wake_q, tsk); list_del(&waiter->list); */
                sem.clearWaiterTask(RwSem.WAITER_CURRENT);  /* smp_store_release(&waiter->task, NULL); */
            } while (--loop != 0);
            if (wakeAdjustment != 0) {
                sem.atomicLongAdd(wakeAdjustment);
            }
        }
    }

    /**
     * d257cc8cb8d5 "locking/rwsem: Make handoff bit handling more consistent" (v5.16; Fixes 4f23dbc1e657, v5.3)
     * replaced the out_nolock paths of v5.3 to v5.15 with rwsem_del_waiter(), which clears RWSEM_FLAG_HANDOFF
     * together with RWSEM_FLAG_WAITERS whenever the wait list empties, and removed the writer's {@code wstate}.
     * The closest port of the code it changed is {@link RwsemV54} itself: its {@code writeOutNolock} takes the bit
     * back only when its own {@code wstate == WRITER_HANDOFF}, its {@code readOutNolock} only when the list empties
     * (the '-' lines of the fix). Nothing is changed here; the bug needs killable waiters
     * ({@code --param killable=all}): a reader that set the bit (rwsem_mark_wake, timed out behind a writer) is
     * killed, the writer behind it is killed before it ever became WRITER_FIRST, and the empty list keeps the bit.
     */
    public static class Bugd257cc8cb8d5 extends RwsemV54 {
    }

    /**
     * 78134300579a "locking/rwsem: Don't call owner_on_cpu() on read-owner" (v5.3; Fixes 94a9717b3c40e, v5.3-rc1)
     * added the {@code !(flags & RWSEM_READER_OWNED)} test before {@code owner_on_cpu(owner)} in
     * rwsem_can_spin_on_owner(): a reader leaves its task pointer in owner when it unlocks, so the task may have
     * exited (KASAN use-after-free in rwsem_down_write_slowpath). Undone in the v5.4 port, the closest to the v5.3
     * code; nothing else changed.
     */
    public static class Bug78134300579a extends RwsemV54 {
        @Override
        @Kernel(function = "rwsem_can_spin_on_owner", file = "kernel/locking/rwsem.c", version = "v5.3-rc1 (before 78134300579a)")
        protected boolean rwsemCanSpinOnOwner(RwSem sem, long nonspinnable) {
            csNonspinnable = nonspinnable;
            if (sem.needResched()) {
                return false;
            }
            sem.preemptDisable();
            /* rcu_read_lock(); */
            csOwner = rwsemOwnerFlags(sem);
            long flags = csOwner & RwsemBits.RWSEM_OWNER_FLAGS_MASK;
            long owner = csOwner & ~RwsemBits.RWSEM_OWNER_FLAGS_MASK;
            boolean ret = true;
            if ((flags & csNonspinnable) != 0 || (owner != 0 && !ownerOnCpu(sem, owner))) {
                ret = false;
            }
            /* rcu_read_unlock(); */
            sem.preemptEnable();
            return ret;
        }
    }

    /**
     * "locking/rwsem: Fix (possible) missed wakeup" (v5.0; upstream id e158488be27b as the issue gives it, not found in a
     * primary source: the subject and diff are confirmed from backports, see docs/bugs.md) moved wake_q_add() after
     * smp_store_release(&waiter->task, NULL) in the reader grant loop: "Because wake_q_add() can imply an immediate
     * wakeup (cmpxchg failure case), we must not rely on the wakeup being delayed." Undone in the closest port, v5.4
     * (the fixed lines are its 2nd pass, with wake_q_add_safe since 07879c6a3740): the reader is queued for its wake-up
     * before it is granted. If it is already on another waker's wake_q, that waker's wake_up_q() may wake it before
     * the grant; it sees waiter.task still set, sleeps again, and this waker's wake_up_q() does not know it: a lost
     * wake-up (the reader sleeps holding the read lock). v4.6 to v4.20 had this order (the v4.8 port, {@code after}).
     */
    public static class WakeBeforeGrantV54 extends RwsemV54 {
        @Override
        @Kernel(function = "rwsem_mark_wake", file = "kernel/locking/rwsem.c", version = "v5.4 with 'Fix (possible) missed wakeup' undone")
        protected void rwsemMarkWake(RwSem sem, int wakeType) {
            sem.lockdepAssertHeldWaitLock();                            /* lockdep_assert_held(&sem->wait_lock) (v5.3+, 4f23dbc1e657) */
            mwWakeType = wakeType;
            mwWoken = 0;
            mwAdjustment = 0;
            if (sem.waitListFrontIsWriter()) {                          /* waiter = rwsem_first_waiter(sem) */
                if (mwWakeType == RWSEM_WAKE_ANY) {
                    /* Mark writer at the front of the queue for wakeup. Until the task is actually later awoken later by
                     * the caller, other writers are able to steal it. */
                    sem.wakeUpFrontWriter();                            /* wake_q_add(wake_q, waiter->task) */
                }
                return;
            }
            /* No reader wakeup if there are too many of them already. */
            if (sem.atomicLongRead() < 0) {
                return;
            }
            /* Writers might steal the lock before we grant it to the next reader. */
            if (mwWakeType != RWSEM_WAKE_READ_OWNED) {
                mwAdjustment = RWSEM_READER_BIAS;
                mwOldcount = sem.atomicLongFetchAdd(mwAdjustment);
                if ((mwOldcount & RWSEM_WRITER_MASK) != 0) {
                    /* When we've been waiting "too" long (for writers to give up the lock), request a HANDOFF to force
                     * the issue. */
                    if ((mwOldcount & RWSEM_FLAG_HANDOFF) == 0 && sem.firstWaiterTimedOut()) {
                        mwAdjustment -= RWSEM_FLAG_HANDOFF;
                    }
                    sem.atomicLongAdd(-mwAdjustment);
                    return;
                }
                /* Set it to reader-owned to give spinners an early indication that readers now have the lock. The
                 * reader nonspinnable bit seen at slowpath entry of the reader is copied over. */
                mwOwner = sem.frontWaiterTask();                        /* owner = waiter->task */
                if (sem.firstWaiterRdNonspinnable()) {                  /* waiter->last_rowner & RWSEM_RD_NONSPINNABLE */
                    mwOwner |= RWSEM_RD_NONSPINNABLE;
                }
                long owner = mwOwner;
                mwOwner = 0;                                            /* model: dead from here */
                __rwsemSetReaderOwned(sem, owner);
            }
            /* Grant up to MAX_READERS_WAKEUP read locks to all the readers in the queue (first pass). */
            mwWoken = sem.waitListMoveReaders();
            mwAdjustment = mwWoken * RWSEM_READER_BIAS - mwAdjustment;
            if (sem.listEmpty()) {
                /* hit end of list above */
                mwAdjustment -= RWSEM_FLAG_WAITERS;
            }
            /* When we've woken a reader, we no longer need to force writers to give up the lock and we can clear
             * HANDOFF. */
            if (mwWoken != 0 && (sem.atomicLongRead() & RWSEM_FLAG_HANDOFF) != 0) {
                mwAdjustment -= RWSEM_FLAG_HANDOFF;
            }
            long adjustment = mwAdjustment;
            mwLeft = mwWoken;                                           /* the 2nd pass's list: the moved readers */
            mwOldcount = 0;                                             /* model: dead from here */
            mwWoken = 0;
            mwAdjustment = 0;
            if (adjustment != 0) {
                sem.atomicLongAdd(adjustment);
            }
            /* 2nd pass */
            while (mwLeft != 0) {                                       /* list_for_each_entry_safe(waiter, tmp, &wlist, list) */
                mwLeft--;
                /* tsk = waiter->task; */
                sem.wakeQAdd(RwSem.WAITER_WLIST);                       /* wake_q_add(wake_q, tsk) */
                /* Ensure that the last operation is setting the reader waiter to nil such that
                 * rwsem_down_read_slowpath() cannot race with do_exit() by always holding a reference count to the task to
                 * wakeup. */
                sem.clearWaiterTask(RwSem.WAITER_CURRENT);              /* smp_store_release(&waiter->task, NULL) */
            }
        }
    }

    /**
     * 39e7234f00bc "locking/rwsem: Fix kernel crash when spinning on RWSEM_OWNER_UNKNOWN" (v5.5; Fixes
     * 91d2a812dfb9 "locking/rwsem: Make handoff writer optimistically spin on owner", v5.3): the writer
     * that set the handoff bit and failed its trylock spins on the owner with
     * {@code rwsem_spin_on_owner(sem, 0)}, so no owner is non-spinnable to it: RWSEM_OWNER_UNKNOWN,
     * stored by percpu_rwsem_release(), is taken for a running writer and its {@code on_cpu} read
     * through a pointer that is no task's. The fix passes RWSEM_NONSPINNABLE. Undone in the v5.4 port
     * (v5.4.286 carries the fix): that call site, and only it, passes no non-spinnable bits.
     */
    public static class Bug39e7234f00bc extends RwsemV54 {
        @Override
        @Kernel(function = "rwsem_down_write_slowpath", file = "kernel/locking/rwsem.c", version = "v5.4 (before 39e7234f00bc)")
        protected int rwsemSpinOnOwner(RwSem sem, long nonspinnable) {
            /* the handoff wait's call, rwsem_spin_on_owner(sem, RWSEM_NONSPINNABLE) in the fix, is (sem, 0) here;
               rwsem_optimistic_spin's calls pass one bit (RD or WR) and are unchanged */
            return super.rwsemSpinOnOwner(sem, nonspinnable == RwsemBits.RWSEM_NONSPINNABLE_V5 ? 0 : nonspinnable);
        }
    }

    /**
     * e1b98fa31664 "locking/rwsem: Add missing ACQUIRE to read_slowpath exit when queue is empty" (v5.3; Jan Stancek,
     * LKML 50b8914e20d1d62bb2dee42d342836c2c16ebee7.1563438048.git.jstancek@redhat.com): a reader whose fast path saw a
     * writer, and whose slow path then finds the wait list empty and the writer gone, returned holding the lock with no
     * ACQUIRE: its count load is relaxed and the wait_lock it holds was never taken by the writer, so the critical
     * section's loads may be satisfied before the writer's stores are visible (seen on arm64 as a stale vmacache).
     * The fix added {@code smp_acquire__after_ctrl_dep()}; undone here in v6.12's code, which still has it at
     * rwsem.c:1048. A bug of the memory ordering only: under sequential consistency this is v6.12's program.
     */
    public static final class BugE1b98fa31664 extends RwsemV612 {
        @Override
        @Kernel(function = "rwsem_down_read_slowpath", file = "kernel/locking/rwsem.c", version = "v6.12 with e1b98fa31664 undone",
                line = 1048)
        protected void queueEmptyAcquire(RwSem sem) {
            /* no smp_acquire__after_ctrl_dep() */
        }
    }

    /**
     * 99143f82a255 "locking/rwsem: Add missing ACQUIRE to read_slowpath sleep loop" (v5.3; Peter Zijlstra and Will
     * Deacon): the sleeping reader tested {@code waiter.task} with a plain load, so once it saw the waker's
     * {@code smp_store_release(&waiter->task, NULL)} nothing ordered its critical section after the releasing writer's
     * ("Allows 'r == 0'", the commit message). The fix made the load {@code smp_load_acquire()}; undone here in v6.12's
     * code (rwsem.c:1072). A bug of the memory ordering only: under sequential consistency this is v6.12's program.
     */
    public static final class Bug99143f82a255 extends RwsemV612 {
        @Override
        @Kernel(function = "rwsem_down_read_slowpath", file = "kernel/locking/rwsem.c", version = "v6.12 with 99143f82a255 undone",
                line = 1072)
        protected boolean waiterGranted(RwSem sem) {
            sem.order(MemoryOrder.PLAIN);                           /* if (!waiter.task) */
            return sem.waiterTaskIsNull();
        }
    }
}
