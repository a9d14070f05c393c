package kcheck.model.rwsem;

import static kcheck.model.rwsem.RwsemBits.OWNER_NONSPINNABLE;
import static kcheck.model.rwsem.RwsemBits.OWNER_NULL;
import static kcheck.model.rwsem.RwsemBits.OWNER_READER;
import static kcheck.model.rwsem.RwsemBits.OWNER_SPINNABLE;
import static kcheck.model.rwsem.RwsemBits.OWNER_WRITER;
import static kcheck.model.rwsem.RwsemBits.RWSEM_FLAG_HANDOFF;
import static kcheck.model.rwsem.RwsemBits.RWSEM_FLAG_WAITERS;
import static kcheck.model.rwsem.RwsemBits.RWSEM_LOCK_MASK;
import static kcheck.model.rwsem.RwsemBits.RWSEM_NONSPINNABLE;
import static kcheck.model.rwsem.RwsemBits.RWSEM_OWNER_FLAGS_MASK;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READER_BIAS;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READER_MASK;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READER_OWNED;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READER_SHIFT;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READ_FAILED_MASK;
import static kcheck.model.rwsem.RwsemBits.RWSEM_UNLOCKED_VALUE;
import static kcheck.model.rwsem.RwsemBits.RWSEM_WRITER_LOCKED;
import static kcheck.model.rwsem.RwsemBits.RWSEM_WRITER_MASK;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_FOR_READ;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_FOR_WRITE;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_ANY;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_READERS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_READ_OWNED;

import kcheck.model.Kernel;
import kcheck.model.MemoryOrder;

/**
 * kernel/locking/rwsem.c of v6.12 (Debian's linux-source-6.12, v6.12.117; the !CONFIG_PREEMPT_RT
 * half, with CONFIG_RWSEM_SPIN_ON_OWNER and without CONFIG_DEBUG_RWSEMS): no reader optimistic
 * spinning (removed by 617f3ef95177 "locking/rwsem: Remove reader optimistic spinning", v5.11),
 * readers steal the lock in their slow path instead; the owner word is a task pointer with the
 * RWSEM_READER_OWNED and RWSEM_NONSPINNABLE bits; {@code rwsem_spin_on_owner()} returns an owner
 * state; the first waiter can set the handoff bit after RWSEM_WAIT_TIMEOUT (or at once as an RT
 * task) and then owns the next acquisition; preemption is disabled across every lock and unlock
 * path (48dfb5d2560d, 1d61659ced6b, 3f5245538a19).
 *
 * <p>Kernel locals that live across an atomic step are fields ({@link FrameLocal}). Where the
 * code reads the clock the model has a deadline that passes as an environment step
 * ({@link RwSem#armWaitTimeout}, {@link RwSem#armSpinDeadline}). {@code lockAcquired()} and
 * {@code lockReleased()} are model annotations, not kernel code.
 */
public class RwsemV612 implements RwsemVariant {

    /**
     * {@code long count} of {@code __down_read_common()}, filled by {@code rwsem_read_trylock()} (live across
     * an atomic step only inside rwsem_read_trylock; the slow path copies it before its first step).
     */
    @FrameLocal("rwsem_read_trylock")
    protected long downCount;
    /** {@code long count}, {@code adjustment} and {@code rcnt} of {@code rwsem_down_read_slowpath()}. */
    @FrameLocal("rwsem_down_read_slowpath")
    protected long rdCount;
    @FrameLocal("rwsem_down_read_slowpath")
    protected long rdAdjustment;
    @FrameLocal("rwsem_down_read_slowpath")
    protected long rdRcnt;
    /** {@code wake_type} of {@code rwsem_mark_wake()} and of {@code rwsem_cond_wake_waiter()}. */
    /** The readers left on {@code wlist} in the 2nd pass of {@code rwsem_mark_wake()}. */
    @FrameLocal("rwsem_mark_wake")
    protected long mwLeft;
    @FrameLocal("rwsem_mark_wake")
    protected int mwWakeType;
    @FrameLocal("rwsem_cond_wake_waiter")
    protected int cwWakeType;
    /** {@code long oldcount, woken, adjustment} of {@code rwsem_mark_wake()}. */
    @FrameLocal("rwsem_mark_wake")
    protected long mwOldcount;
    @FrameLocal("rwsem_mark_wake")
    protected long mwWoken;
    @FrameLocal("rwsem_mark_wake")
    protected long mwAdjustment;
    /** {@code long count, new} of {@code rwsem_try_write_lock()}. */
    @FrameLocal("rwsem_try_write_lock")
    protected long twCount;
    @FrameLocal("rwsem_try_write_lock")
    protected long twNew;
    /** {@code long count} of {@code rwsem_try_write_lock_unqueued()}. */
    @FrameLocal("rwsem_try_write_lock_unqueued")
    protected long tuCount;
    /** {@code owner} and {@code flags} of {@code rwsem_can_spin_on_owner()} (one word: pointer | flags). */
    @FrameLocal("rwsem_can_spin_on_owner")
    protected long csOwner;
    /** {@code owner} and {@code flags} of {@code rwsem_spin_on_owner()} (one word). */
    @FrameLocal("rwsem_spin_on_owner")
    protected long soOwner;
    /** {@code bool taken}, {@code int prev_owner_state} and {@code owner_state} of {@code rwsem_optimistic_spin()}. */
    @FrameLocal("rwsem_optimistic_spin")
    protected boolean taken;
    @FrameLocal("rwsem_optimistic_spin")
    protected int prevOwnerState;
    @FrameLocal("rwsem_optimistic_spin")
    protected int ownerState;
    /** {@code unsigned long owner} of {@code rwsem_set_nonspinnable()}. */
    @FrameLocal("rwsem_set_nonspinnable")
    protected long snOwner;
    /** {@code bool first} of {@code rwsem_del_wake_waiter()}. */
    @FrameLocal("rwsem_del_wake_waiter")
    protected boolean dwFirst;
    /** {@code owner} argument of {@code __rwsem_set_reader_owned()} (a waker passes the front reader's pointer). */
    @FrameLocal("__rwsem_set_reader_owned")
    protected long srOwner;

    /** include/linux/sched.h (v6.12): the task states the lock paths sleep in. */
    public static final int TASK_INTERRUPTIBLE = 0x1;
    public static final int TASK_UNINTERRUPTIBLE = 0x2;
    public static final int TASK_WAKEKILL = 0x100;
    public static final int TASK_KILLABLE = TASK_WAKEKILL | TASK_UNINTERRUPTIBLE;
    /** include/uapi/asm-generic/errno-base.h. */
    public static final int EINTR = 4;

    @Override
    public Encoding encoding() {
        return Encoding.BITS;
    }

    /** {@code signal_pending_state(state, current)} (include/linux/sched/signal.h): only killable / interruptible sleeps see a signal. */
    @Kernel(function = "signal_pending_state", file = "include/linux/sched/signal.h", version = "v6.12")
    public static boolean signalPendingState(RwSem sem, int state) {
        if ((state & (TASK_INTERRUPTIBLE | TASK_WAKEKILL)) == 0) {
            return false;
        }
        return sem.signalPending();                                 /* signal_pending(p) / __fatal_signal_pending(p) */
    }

    /* ---------------- owner ---------------- */

    @Kernel(function = "rwsem_set_owner", file = "kernel/locking/rwsem.c", version = "v6.12", line = 140)
    protected void rwsemSetOwner(RwSem sem) {
        sem.lockdepAssertPreemptionDisabled();
        sem.order(MemoryOrder.ONCE);
        sem.writeOwner(sem.current());                              /* atomic_long_set(&sem->owner, (long)current) */
    }

    @Kernel(function = "rwsem_clear_owner", file = "kernel/locking/rwsem.c", version = "v6.12", line = 146)
    protected void rwsemClearOwner(RwSem sem) {
        sem.lockdepAssertPreemptionDisabled();
        sem.order(MemoryOrder.ONCE);
        sem.writeOwner(0);                                          /* atomic_long_set(&sem->owner, 0) */
    }

    @Kernel(function = "rwsem_test_oflags", file = "kernel/locking/rwsem.c", version = "v6.12", line = 155)
    protected boolean rwsemTestOflags(RwSem sem, long flags) {
        sem.order(MemoryOrder.ONCE);
        return (sem.readOwner() & flags) != 0;
    }

    /** The reader non-spinnable bit is preserved. */
    @Kernel(function = "__rwsem_set_reader_owned", file = "kernel/locking/rwsem.c", version = "v6.12", line = 170)
    protected void __rwsemSetReaderOwned(RwSem sem, long owner) {
        srOwner = owner;
        sem.order(MemoryOrder.ONCE);
        long val = srOwner | RWSEM_READER_OWNED | (sem.readOwner() & RWSEM_NONSPINNABLE);
        sem.order(MemoryOrder.ONCE);
        sem.writeOwner(val);                                        /* atomic_long_set(&sem->owner, val) */
    }

    @Kernel(function = "rwsem_set_reader_owned", file = "kernel/locking/rwsem.c", version = "v6.12", line = 179)
    protected void rwsemSetReaderOwned(RwSem sem) {
        __rwsemSetReaderOwned(sem, sem.current());
    }

    /** Without CONFIG_DEBUG_RWSEMS: nothing. */
    @Kernel(function = "rwsem_clear_reader_owned", file = "kernel/locking/rwsem.c", version = "v6.12", line = 226)
    protected void rwsemClearReaderOwned(RwSem sem) {
    }

    /** Set the RWSEM_NONSPINNABLE bits if the RWSEM_READER_OWNED flag remains set. */
    @Kernel(function = "rwsem_set_nonspinnable", file = "kernel/locking/rwsem.c", version = "v6.12", line = 235)
    protected void rwsemSetNonspinnable(RwSem sem) {
        sem.order(MemoryOrder.ONCE);
        snOwner = sem.readOwner();
        do {
            if ((snOwner & RWSEM_READER_OWNED) == 0) {
                break;
            }
            if ((snOwner & RWSEM_NONSPINNABLE) != 0) {
                break;
            }
            sem.order(MemoryOrder.RMW_FULL);
            long found = sem.ownerCmpxchg(snOwner, snOwner | RWSEM_NONSPINNABLE);
            if (found == snOwner) {
                break;
            }
            snOwner = found;                                        /* try_cmpxchg updates owner */
        } while (true);
    }

    @Kernel(function = "rwsem_read_trylock", file = "kernel/locking/rwsem.c", version = "v6.12", line = 248)
    protected boolean rwsemReadTrylock(RwSem sem) {
        sem.order(MemoryOrder.RMW_ACQUIRE);
        downCount = sem.atomicLongAddReturn(RWSEM_READER_BIAS);    /* atomic_long_add_return_acquire */
        readerBiasAnnotation(sem, downCount);
        if (downCount < 0) {                                        /* WARN_ON_ONCE(*cntp < 0) */
            rwsemSetNonspinnable(sem);
        }
        if ((downCount & RWSEM_READ_FAILED_MASK) == 0) {
            rwsemSetReaderOwned(sem);
            return true;
        }
        return false;
    }

    /**
     * Model annotation: a reader bias added while no writer holds the lock and no handoff is
     * pending keeps writers out from this step on, so the reader holds the lock until its slow
     * path backs the bias out (or returns holding it). Public: the v5.4 ports call it, and so do
     * their {@code kcheck variant new} copies, which live outside this package.
     */
    public static void readerBiasAnnotation(RwSem sem, long count) {
        if ((count & (RWSEM_WRITER_LOCKED | RWSEM_FLAG_HANDOFF)) == 0) {
            sem.lockAcquired();
        }
    }

    @Kernel(function = "rwsem_write_trylock", file = "kernel/locking/rwsem.c", version = "v6.12", line = 263)
    protected boolean rwsemWriteTrylock(RwSem sem) {
        long tmp = RWSEM_UNLOCKED_VALUE;
        sem.order(MemoryOrder.RMW_ACQUIRE);
        if (sem.atomicLongCmpxchg(tmp, RWSEM_WRITER_LOCKED) == tmp) {  /* atomic_long_try_cmpxchg_acquire */
            sem.lockAcquired();
            rwsemSetOwner(sem);
            return true;
        }
        return false;
    }

    /** The owner word: pointer | flags (the caller splits it as rwsem_owner_flags() does). */
    @Kernel(function = "rwsem_owner_flags", file = "kernel/locking/rwsem.c", version = "v6.12", line = 280)
    protected long rwsemOwnerFlags(RwSem sem) {
        sem.order(MemoryOrder.ONCE);
        return sem.readOwner();                                     /* atomic_long_read(&sem->owner) */
    }

    /* ---------------- wait list ---------------- */

    @Kernel(function = "rwsem_add_waiter", file = "kernel/locking/rwsem.c", version = "v6.12", line = 368)
    protected void rwsemAddWaiter(RwSem sem, int type) {
        sem.lockdepAssertHeldWaitLock();
        sem.listAddTail(type);
        /* caller will set RWSEM_FLAG_WAITERS */
    }

    /** Remove a waiter from the wait_list and clear flags; true if the list isn't empty. */
    @Kernel(function = "rwsem_del_waiter", file = "kernel/locking/rwsem.c", version = "v6.12", line = 384)
    protected boolean rwsemDelWaiter(RwSem sem) {
        sem.lockdepAssertHeldWaitLock();
        sem.listDel();
        if (!sem.listEmpty()) {
            return true;
        }
        sem.order(MemoryOrder.RMW_RELAXED);
        sem.atomicLongAndnot(RWSEM_FLAG_HANDOFF | RWSEM_FLAG_WAITERS);
        return false;
    }

    /**
     * Handle the lock release when processes blocked on it can now run: a writer at the front is
     * woken (not granted); otherwise every reader waiter is granted the lock (phase-fair), in two
     * passes so that the count is raised before any of them can run.
     */
    @Kernel(function = "rwsem_mark_wake", file = "kernel/locking/rwsem.c", version = "v6.12", line = 409)
    protected void rwsemMarkWake(RwSem sem, int wakeType) {
        sem.lockdepAssertHeldWaitLock();
        mwWakeType = wakeType;
        mwWoken = 0;
        mwAdjustment = 0;
        if (sem.waitListFrontIsWriter()) {                          /* waiter = rwsem_first_waiter(sem) */
            if (mwWakeType == RWSEM_WAKE_ANY) {
                /* Mark writer at the front of the queue for wakeup. Until the task is actually later awoken later by
                 * the caller, other writers are able to steal it. Readers, on the other hand, will block as they
                 * will notice the queued writer. */
                sem.wakeUpFrontWriter();                            /* wake_q_add(wake_q, waiter->task) */
            }
            return;
        }

        /* No reader wakeup if there are too many of them already. */
        sem.order(MemoryOrder.ONCE);
        if (sem.atomicLongRead() < 0) {
            return;
        }

        /* Writers might steal the lock before we grant it to the next reader. We prefer to do the first reader grant
         * before counting readers so we can bail out early if a writer stole the lock. */
        if (mwWakeType != RWSEM_WAKE_READ_OWNED) {
            mwAdjustment = RWSEM_READER_BIAS;
            sem.order(MemoryOrder.RMW_FULL);
            mwOldcount = sem.atomicLongFetchAdd(mwAdjustment);
            if ((mwOldcount & RWSEM_WRITER_MASK) != 0) {
                /* When we've been waiting "too" long (for writers to give up the lock), request a HANDOFF to force
                 * the issue. */
                if (sem.firstWaiterTimedOut()) {                    /* time_after(jiffies, waiter->timeout) */
                    if ((mwOldcount & RWSEM_FLAG_HANDOFF) == 0) {
                        mwAdjustment -= RWSEM_FLAG_HANDOFF;
                    }
                    sem.setFirstWaiterHandoff();                    /* waiter->handoff_set = true */
                }
                sem.order(MemoryOrder.RMW_RELAXED);
                sem.atomicLongAdd(-mwAdjustment);
                return;
            }
            /* Set it to reader-owned to give spinners an early indication that readers now have the lock. The reader
             * nonspinnable bit seen at slowpath entry of the reader is copied over. */
            __rwsemSetReaderOwned(sem, sem.frontWaiterTask());     /* owner = waiter->task */
        }

        /* Grant up to MAX_READERS_WAKEUP read locks to all the readers in the queue (first pass: move them to wlist,
         * count them). */
        mwWoken = sem.waitListMoveReaders();
        mwAdjustment = mwWoken * RWSEM_READER_BIAS - mwAdjustment;
        sem.order(MemoryOrder.ONCE);
        mwOldcount = sem.atomicLongRead();
        if (sem.listEmpty()) {
            /* Combined with list_move_tail() above, this implies rwsem_del_waiter(). */
            mwAdjustment -= RWSEM_FLAG_WAITERS;
            if ((mwOldcount & RWSEM_FLAG_HANDOFF) != 0) {
                mwAdjustment -= RWSEM_FLAG_HANDOFF;
            }
        } else if (mwWoken != 0) {
            /* When we've woken a reader, we no longer need to force writers to give up the lock and we can clear
             * HANDOFF. */
            if ((mwOldcount & RWSEM_FLAG_HANDOFF) != 0) {
                mwAdjustment -= RWSEM_FLAG_HANDOFF;
            }
        }
        long adjustment = mwAdjustment;
        mwLeft = mwWoken;                                           /* the 2nd pass's list: the moved readers */
        mwOldcount = 0;                                             /* model: dead from here (keeps the recorded */
        mwWoken = 0;                                                /* program free of dead values) */
        mwAdjustment = 0;
        if (adjustment != 0) {
            sem.order(MemoryOrder.RMW_RELAXED);
            sem.atomicLongAdd(adjustment);
        }
        /* 2nd pass */
        while (mwLeft != 0) {                                       /* list_for_each_entry_safe(waiter, tmp, &wlist, list) */
            mwLeft--;
            /* tsk = waiter->task; get_task_struct(tsk); */
            /* Ensure calling get_task_struct() before setting the reader waiter to nil such that
             * rwsem_down_read_slowpath() cannot race with do_exit() by always holding a reference count to the task to
             * wakeup. */
            sem.order(MemoryOrder.RELEASE);
            sem.clearWaiterTask(RwSem.WAITER_WLIST);                /* smp_store_release(&waiter->task, NULL) */
            /* Ensure issuing the wakeup (either by us or someone else) after setting the reader waiter to nil. */
            sem.wakeQAdd(RwSem.WAITER_CURRENT);                     /* wake_q_add_safe(wake_q, tsk) */
        }
    }

    /**
     * This function must be called with the sem->wait_lock held to prevent race conditions between checking the
     * rwsem wait list and setting the sem->count accordingly. Implies rwsem_del_waiter() on success.
     */
    @Kernel(function = "rwsem_try_write_lock", file = "kernel/locking/rwsem.c", version = "v6.12", line = 602)
    protected boolean rwsemTryWriteLock(RwSem sem) {
        /* struct rwsem_waiter *first = rwsem_first_waiter(sem); */
        sem.lockdepAssertHeldWaitLock();
        sem.order(MemoryOrder.ONCE);
        twCount = sem.atomicLongRead();
        do {
            boolean hasHandoff = (twCount & RWSEM_FLAG_HANDOFF) != 0;
            if (hasHandoff) {
                /* Honor handoff bit and yield only when the first waiter is the one that set it. Otherwisee, we still
                 * try to acquire the rwsem. */
                if (sem.firstWaiterHandoffSet() && !sem.isFirstWaiter()) {
                    return false;
                }
            }
            twNew = twCount;
            if ((twCount & RWSEM_LOCK_MASK) != 0) {
                /* A waiter (first or not) can set the handoff bit if it is an RT task or wait in the wait queue for
                 * too long. */
                if (hasHandoff || (!sem.rtTask() && !sem.waitTimedOut())) {   /* rt_or_dl_task(waiter->task) */
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
            sem.order(MemoryOrder.RMW_ACQUIRE);
            long found = sem.atomicLongCmpxchg(twCount, twNew);     /* atomic_long_try_cmpxchg_acquire */
            if (found == twCount) {
                break;
            }
            twCount = found;
        } while (true);

        /* We have either acquired the lock with handoff bit cleared or set the handoff bit. Only the first waiter can
         * have its handoff_set set here to enable optimistic spinning in slowpath loop. */
        if ((twNew & RWSEM_FLAG_HANDOFF) != 0) {
            rwsemTryWriteLockSetHandoff(sem);
            return false;
        }
        sem.lockAcquired();
        /* Have rwsem_try_write_lock() fully imply rwsem_del_waiter() on success. */
        sem.listDel();
        rwsemSetOwner(sem);
        return true;
    }

    /** {@code first->handoff_set = true;} (b613c7f31476; before it: {@code waiter->handoff_set = true}). */
    protected void rwsemTryWriteLockSetHandoff(RwSem sem) {
        sem.setFirstWaiterHandoff();
    }

    /* ---------------- optimistic spinning ---------------- */

    /** Try to acquire write lock before the writer has been put on wait queue. */
    @Kernel(function = "rwsem_try_write_lock_unqueued", file = "kernel/locking/rwsem.c", version = "v6.12", line = 688)
    protected boolean rwsemTryWriteLockUnqueued(RwSem sem) {
        sem.order(MemoryOrder.ONCE);
        tuCount = sem.atomicLongRead();
        while ((tuCount & (RWSEM_LOCK_MASK | RWSEM_FLAG_HANDOFF)) == 0) {
            sem.order(MemoryOrder.RMW_ACQUIRE);
            long found = sem.atomicLongCmpxchg(tuCount, tuCount | RWSEM_WRITER_LOCKED);   /* try_cmpxchg_acquire */
            if (found == tuCount) {
                sem.lockAcquired();
                rwsemSetOwner(sem);
                return true;
            }
            tuCount = found;
        }
        return false;
    }

    /** {@code owner->on_cpu && !vcpu_is_preempted(task_cpu(owner))} (the model has no vCPUs). */
    @Kernel(function = "owner_on_cpu", file = "include/linux/sched.h", version = "v6.12", line = 2200)
    protected boolean ownerOnCpu(RwSem sem, long owner) {
        return sem.onCpu(owner);
    }

    @Kernel(function = "rwsem_can_spin_on_owner", file = "kernel/locking/rwsem.c", version = "v6.12", line = 703)
    protected boolean rwsemCanSpinOnOwner(RwSem sem) {
        if (sem.needResched()) {
            return false;
        }
        /* Disable preemption is equal to the RCU read-side crital section, thus the task_strcut structure won't go
         * away. */
        csOwner = rwsemOwnerFlags(sem);
        long flags = csOwner & RWSEM_OWNER_FLAGS_MASK;
        long owner = csOwner & ~RWSEM_OWNER_FLAGS_MASK;
        /* Don't check the read-owner as the entry may be stale. */
        if ((flags & RWSEM_NONSPINNABLE) != 0
                || (owner != 0 && (flags & RWSEM_READER_OWNED) == 0 && !ownerOnCpu(sem, owner))) {
            return false;
        }
        return true;
    }

    @Kernel(function = "rwsem_owner_state", file = "kernel/locking/rwsem.c", version = "v6.12", line = 733)
    protected static int rwsemOwnerState(long owner, long flags) {
        if ((flags & RWSEM_NONSPINNABLE) != 0) {
            return OWNER_NONSPINNABLE;
        }
        if ((flags & RWSEM_READER_OWNED) != 0) {
            return OWNER_READER;
        }
        return owner != 0 ? OWNER_WRITER : OWNER_NULL;
    }

    @Kernel(function = "rwsem_spin_on_owner", file = "kernel/locking/rwsem.c", version = "v6.12", line = 745)
    protected int rwsemSpinOnOwner(RwSem sem) {
        sem.lockdepAssertPreemptionDisabled();
        soOwner = rwsemOwnerFlags(sem);
        int state = rwsemOwnerState(soOwner & ~RWSEM_OWNER_FLAGS_MASK, soOwner & RWSEM_OWNER_FLAGS_MASK);
        if (state != OWNER_WRITER) {
            return state;
        }
        for (;;) {
            /* When a waiting writer set the handoff flag, it may spin on the owner as well. Once that writer acquires
             * the lock, we can spin on it. So we don't need to quit even when the handoff bit is set. */
            long nw = rwsemOwnerFlags(sem);
            if (nw != soOwner) {                                    /* (new != owner) || (new_flags != flags) */
                state = rwsemOwnerState(nw & ~RWSEM_OWNER_FLAGS_MASK, nw & RWSEM_OWNER_FLAGS_MASK);
                break;
            }
            /* barrier(); */
            if (sem.needResched() || !ownerOnCpu(sem, soOwner & ~RWSEM_OWNER_FLAGS_MASK)) {
                state = OWNER_NONSPINNABLE;
                break;
            }
            sem.cpuRelax();
        }
        return state;
    }

    /** Spinning threshold = (10 + nr_readers/2)us, capped at 25us: here a deadline that passes as an environment step. */
    @Kernel(function = "rwsem_rspin_threshold", file = "kernel/locking/rwsem.c", version = "v6.12", line = 804)
    protected void rwsemRspinThreshold(RwSem sem) {
        sem.order(MemoryOrder.ONCE);
        sem.atomicLongRead();                                       /* readers = count >> RWSEM_READER_SHIFT: delta only */
        sem.armSpinDeadline();                                      /* return sched_clock() + delta */
    }

    @Kernel(function = "rwsem_optimistic_spin", file = "kernel/locking/rwsem.c", version = "v6.12", line = 817)
    protected boolean rwsemOptimisticSpin(RwSem sem) {
        taken = false;
        prevOwnerState = OWNER_NULL;
        /* int loop = 0; u64 rspin_threshold = 0; */

        /* sem->wait_lock should not be held when doing optimistic spinning */
        if (!sem.osqLock()) {
            return false;                                           /* goto done */
        }
        /* Optimistically spin on the owner field and attempt to acquire the lock whenever the owner changes. Spinning
         * will be stopped when: 1) the owning writer isn't running; or 2) readers own the lock and spinning time has
         * exceeded limit. */
        for (;;) {
            ownerState = rwsemSpinOnOwner(sem);
            if ((ownerState & OWNER_SPINNABLE) == 0) {
                break;
            }
            /* Try to acquire the lock */
            taken = rwsemTryWriteLockUnqueued(sem);
            if (taken) {
                break;
            }
            /* Time-based reader-owned rwsem optimistic spinning */
            if (ownerState == OWNER_READER) {
                /* Re-initialize rspin_threshold every time when the owner state changes from non-reader to reader.
                 * This allows a writer to steal the lock in between 2 reader phases and have the threshold reset at
                 * the beginning of the 2nd reader phase. */
                if (prevOwnerState != OWNER_READER) {
                    if (rwsemTestOflags(sem, RWSEM_NONSPINNABLE)) {
                        break;
                    }
                    rwsemRspinThreshold(sem);                       /* rspin_threshold = ...; loop = 0; */
                } else if (sem.spinDeadlinePassed()) {
                    /* !(++loop & 0xf) && (sched_clock() > rspin_threshold): the model checks the clock on every
                     * iteration; the deadline passes at any time, so checking every 16th reaches the same states. */
                    rwsemSetNonspinnable(sem);
                    break;
                }
            }
            /* An RT task cannot do optimistic spinning if it cannot be sure the lock holder is running or live-lock
             * may happen if the current task and the lock holder happen to run in the same CPU. [...] If the owner
             * is a writer, the need_resched() check is done inside rwsem_spin_on_owner(). If the owner is not a
             * writer, need_resched() check needs to be done here. */
            if (ownerState != OWNER_WRITER) {
                if (sem.needResched()) {
                    break;
                }
                if (sem.rtTask() && (prevOwnerState != OWNER_WRITER)) {   /* rt_or_dl_task(current) */
                    break;
                }
            }
            prevOwnerState = ownerState;
            /* The cpu_relax() call is a compiler barrier which forces everything in this loop to be re-loaded. */
            sem.cpuRelax();
        }
        sem.osqUnlock();
        /* done: */
        return taken;
    }

    /** Clear the owner's RWSEM_NONSPINNABLE bit if it is set. This should only be called when the reader count reaches 0. */
    @Kernel(function = "clear_nonspinnable", file = "kernel/locking/rwsem.c", version = "v6.12", line = 939)
    protected void clearNonspinnable(RwSem sem) {
        if (rwsemTestOflags(sem, RWSEM_NONSPINNABLE)) {
            sem.order(MemoryOrder.RMW_RELAXED);
            sem.ownerAndnot(RWSEM_NONSPINNABLE);
        }
    }

    /* ---------------- slow paths ---------------- */

    /**
     * Prepare to wake up waiter(s) in the wait queue by putting them into the given wake_q if the rwsem lock owner
     * isn't a writer.
     */
    /** Remove a waiter and try to wake up other waiters in the wait queue; releases the wait_lock. */
    @Kernel(function = "rwsem_del_wake_waiter", file = "kernel/locking/rwsem.c", version = "v6.12", line = 575)
    protected void rwsemDelWakeWaiter(RwSem sem) {
        dwFirst = sem.isFirstWaiter();                              /* bool first = rwsem_first_waiter(sem) == waiter */
        sem.wakeQInit();                                            /* wake_q_init(wake_q) */
        /* If the wait_list isn't empty and the waiter to be deleted is the first waiter, we wake up the remaining
         * waiters as they may be eligible to acquire or spin on the lock. */
        boolean wake = rwsemDelWaiter(sem) && dwFirst;
        dwFirst = false;                                            /* model: dead from here */
        if (wake) {
            rwsemMarkWake(sem, RWSEM_WAKE_ANY);
        }
        sem.rawSpinUnlockIrq();
        if (!sem.wakeQEmpty()) {
            sem.wakeUpQ();                                          /* wake_up_q(wake_q) */
        }
    }

    /** The {@code out_nolock:} label of rwsem_down_read_slowpath() (wait_lock held; releases it). */
    @Kernel(function = "rwsem_down_read_slowpath", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1093)
    protected void readOutNolock(RwSem sem) {
        rwsemDelWakeWaiter(sem);
        /* __set_current_state(TASK_RUNNING); */
    }

    /** The {@code out_nolock:} label of rwsem_down_write_slowpath() after its raw_spin_lock_irq() (releases the wait_lock). */
    @Kernel(function = "rwsem_down_write_slowpath", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1195)
    protected void writeOutNolock(RwSem sem) {
        rwsemDelWakeWaiter(sem);
    }

    @Kernel(function = "rwsem_cond_wake_waiter", file = "kernel/locking/rwsem.c", version = "v6.12", line = 973)
    protected void rwsemCondWakeWaiter(RwSem sem, long count) {
        if ((count & RWSEM_WRITER_MASK) != 0) {
            return;
        }
        if ((count & RWSEM_READER_MASK) != 0) {
            cwWakeType = RWSEM_WAKE_READERS;
        } else {
            cwWakeType = RWSEM_WAKE_ANY;
            clearNonspinnable(sem);
        }
        rwsemMarkWake(sem, cwWakeType);
    }

    /**
     * {@code smp_acquire__after_ctrl_dep()} (include/asm-generic/barrier.h: {@code smp_rmb()}) at rwsem.c:1048, on the
     * queue-empty exit of rwsem_down_read_slowpath(): with the control dependency on the count just read, the reader's
     * critical section is ordered after it. Added by e1b98fa31664 ("locking/rwsem: Add missing ACQUIRE to read_slowpath
     * exit when queue is empty"); its own method so that a variant can take it out.
     */
    @Kernel(function = "rwsem_down_read_slowpath", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1048)
    protected void queueEmptyAcquire(RwSem sem) {
        sem.barrier("rmb");
    }

    /**
     * {@code !smp_load_acquire(&waiter.task)} at rwsem.c:1072, the reader's sleep loop: true when a waker has granted
     * the lock. The acquire came with 99143f82a255 ("locking/rwsem: Add missing ACQUIRE to read_slowpath sleep loop");
     * its own method so that a variant can weaken it.
     */
    @Kernel(function = "rwsem_down_read_slowpath", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1072)
    protected boolean waiterGranted(RwSem sem) {
        sem.order(MemoryOrder.ACQUIRE);
        return sem.waiterTaskIsNull();
    }

    /** Wait for the read lock to be granted. */
    @Kernel(function = "rwsem_down_read_slowpath", file = "kernel/locking/rwsem.c", version = "v6.12", line = 994)
    protected boolean rwsemDownReadSlowpath(RwSem sem, long count, int state) {
        rdCount = count;
        rdAdjustment = -RWSEM_READER_BIAS;
        rdRcnt = rdCount >> RWSEM_READER_SHIFT;
        sem.wakeQInit();                                            /* DEFINE_WAKE_Q(wake_q) */

        /* To prevent a constant stream of readers from starving a sleeping writer, don't attempt optimistic lock
         * stealing if the lock is very likely owned by readers. */
        sem.order(MemoryOrder.ONCE);
        if (!((sem.readOwner() & RWSEM_READER_OWNED) != 0 && rdRcnt > 1 && (rdCount & RWSEM_WRITER_LOCKED) == 0)) {
            /* Reader optimistic lock stealing. */
            if ((rdCount & (RWSEM_WRITER_LOCKED | RWSEM_FLAG_HANDOFF)) == 0) {
                /* model: the reader keeps its bias and returns holding the lock. Its count step took the lock already
                 * when this same test passed there (readerBiasAnnotation); an edited test here must not steal unseen. */
                sem.lockAcquired();
                rwsemSetReaderOwned(sem);
                /* Wake up other readers in the wait queue if it is the first reader. */
                if (rdRcnt == 1 && (rdCount & RWSEM_FLAG_WAITERS) != 0) {
                    sem.rawSpinLockIrq();
                    if (!sem.listEmpty()) {
                        rwsemMarkWake(sem, RWSEM_WAKE_READ_OWNED);
                    }
                    sem.rawSpinUnlockIrq();
                    sem.wakeUpQ();                                  /* wake_up_q(&wake_q) */
                }
                return true;
            }
        }
        rdRcnt = 0;                                                 /* model: dead from here */
        /* queue: */
        /* waiter.task = current; waiter.type = RWSEM_WAITING_FOR_READ; */
        sem.armWaitTimeout();                                       /* waiter.timeout = jiffies + RWSEM_WAIT_TIMEOUT */
        sem.initWaiterHandoff();                                    /* waiter.handoff_set = false */

        sem.rawSpinLockIrq();
        if (sem.listEmpty()) {
            /* In case the wait queue is empty and the lock isn't owned by a writer, this reader can exit the slowpath
             * and return immediately as its RWSEM_READER_BIAS has already been set in the count. */
            sem.order(MemoryOrder.ONCE);
            if ((sem.atomicLongRead() & RWSEM_WRITER_MASK) == 0) {
                sem.lockAcquired();
                queueEmptyAcquire(sem);                             /* Provide lock ACQUIRE */
                sem.rawSpinUnlockIrq();
                rwsemSetReaderOwned(sem);
                return true;
            }
            rdAdjustment += RWSEM_FLAG_WAITERS;
        }
        rwsemAddWaiter(sem, RWSEM_WAITING_FOR_READ);

        /* we're now waiting on the lock, but no longer actively locking */
        sem.order(MemoryOrder.RMW_FULL);
        rdCount = sem.atomicLongAddReturn(rdAdjustment);
        sem.lockReleased();                                         /* the bias is out (if it was holding) */
        rdAdjustment = 0;                                           /* model: dead from here */

        rwsemCondWakeWaiter(sem, rdCount);
        rdCount = 0;                                                /* model: dead from here */
        sem.rawSpinUnlockIrq();

        if (!sem.wakeQEmpty()) {
            sem.wakeUpQ();                                          /* wake_up_q(&wake_q) */
        }
        /* trace_contention_begin(sem, LCB_F_READ); */

        /* wait to be given the lock */
        for (;;) {
            sem.setCurrentState();                      /* set_current_state(state); */
            if (waiterGranted(sem)) {                               /* !smp_load_acquire(&waiter.task) */
                /* Matches rwsem_mark_wake()'s smp_store_release(). */
                break;
            }
            if (signalPendingState(sem, state)) {
                sem.rawSpinLockIrq();
                sem.order(MemoryOrder.PLAIN);
                if (!sem.waiterTaskIsNull()) {                      /* if (waiter.task) goto out_nolock; */
                    readOutNolock(sem);
                    return false;                                   /* ERR_PTR(-EINTR) */
                }
                sem.rawSpinUnlockIrq();
                /* Ordered by sem->wait_lock against rwsem_mark_wake(). */
                break;
            }
            sem.schedule();                                         /* schedule_preempt_disabled() */
        }
        /* __set_current_state(TASK_RUNNING); trace_contention_end(sem, 0); */
        return true;
    }

    /** Wait until we successfully acquire the write lock. */
    @Kernel(function = "rwsem_down_write_slowpath", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1105)
    protected boolean rwsemDownWriteSlowpath(RwSem sem, int state) {
        sem.wakeQInit();                                            /* DEFINE_WAKE_Q(wake_q) */

        /* do optimistic spinning and steal lock if possible */
        if (rwsemCanSpinOnOwner(sem) && rwsemOptimisticSpin(sem)) {
            /* rwsem_optimistic_spin() implies ACQUIRE on success */
            return true;
        }

        /* Optimistic spinning failed, proceed to the slowpath and block until we can acquire the sem. */
        /* waiter.task = current; waiter.type = RWSEM_WAITING_FOR_WRITE; */
        sem.armWaitTimeout();                                       /* waiter.timeout = jiffies + RWSEM_WAIT_TIMEOUT */
        sem.initWaiterHandoff();                                    /* waiter.handoff_set = false */

        sem.rawSpinLockIrq();
        rwsemAddWaiter(sem, RWSEM_WAITING_FOR_WRITE);

        /* we're now waiting on the lock */
        if (!sem.isFirstWaiter()) {                                 /* rwsem_first_waiter(sem) != &waiter */
            sem.order(MemoryOrder.ONCE);
            rwsemCondWakeWaiter(sem, sem.atomicLongRead());
            if (!sem.wakeQEmpty()) {
                /* We want to minimize wait_lock hold time especially when a large number of readers are to be woken
                 * up. */
                sem.rawSpinUnlockIrq();
                sem.wakeUpQ();                                      /* wake_up_q(&wake_q) */
                sem.rawSpinLockIrq();
            }
        } else {
            sem.order(MemoryOrder.RMW_RELAXED);
            sem.atomicLongOr(RWSEM_FLAG_WAITERS);
        }

        /* wait until we successfully acquire the lock */
        sem.setCurrentState();                      /* set_current_state(state); trace_contention_begin(sem, LCB_F_WRITE); */
        for (;;) {
            if (rwsemTryWriteLock(sem)) {
                /* rwsem_try_write_lock() implies ACQUIRE on success */
                break;
            }
            sem.rawSpinUnlockIrq();

            if (signalPendingState(sem, state)) {
                /* out_nolock: __set_current_state(TASK_RUNNING); */
                sem.rawSpinLockIrq();
                writeOutNolock(sem);
                return false;                                       /* ERR_PTR(-EINTR) */
            }

            /* After setting the handoff bit and failing to acquire the lock, attempt to spin on owner to accelerate
             * lock transfer. If the previous owner is a on-cpu writer and it has just released the lock, OWNER_NULL
             * will be returned. In this case, we attempt to acquire the lock again without sleeping. */
            boolean trylockAgain = false;
            if (sem.waiterHandoffSet()) {                           /* waiter.handoff_set */
                int ownerState = rwsemSpinOnOwner(sem);
                if (ownerState == OWNER_NULL) {
                    trylockAgain = true;                            /* goto trylock_again */
                }
            }
            if (!trylockAgain) {
                sem.schedule();                                     /* schedule_preempt_disabled() */
                sem.setCurrentState();                      /* set_current_state(state); */
            }
            /* trylock_again: */
            sem.rawSpinLockIrq();
        }
        /* __set_current_state(TASK_RUNNING); */
        sem.rawSpinUnlockIrq();
        /* trace_contention_end(sem, 0); */
        return true;
    }

    /** Handle waking up a waiter on the semaphore: up_read/up_write has decremented the active part of count. */
    @Kernel(function = "rwsem_wake", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1201)
    protected void rwsemWake(RwSem sem) {
        sem.wakeQInit();                                            /* DEFINE_WAKE_Q(wake_q) */
        sem.rawSpinLockIrq();                                       /* raw_spin_lock_irqsave */
        if (!sem.listEmpty()) {
            rwsemMarkWake(sem, RWSEM_WAKE_ANY);
        }
        sem.rawSpinUnlockIrq();                                     /* raw_spin_unlock_irqrestore */
        sem.wakeUpQ();                                              /* wake_up_q(&wake_q) */
    }

    /* ---------------- fast paths ---------------- */

    /** Lock for reading. */
    @Kernel(function = "__down_read_common", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1241)
    protected int __downReadCommon(RwSem sem, int state) {
        int ret = 0;
        sem.preemptDisable();
        if (!rwsemReadTrylock(sem)) {
            if (!rwsemDownReadSlowpath(sem, downCount, state)) {    /* IS_ERR(rwsem_down_read_slowpath(...)) */
                ret = -EINTR;
            }
            /* DEBUG_RWSEMS_WARN_ON(!is_rwsem_reader_owned(sem), sem): CONFIG_DEBUG_RWSEMS is not modelled */
        }
        sem.preemptEnable();
        return ret;
    }

    @Kernel(function = "__down_read", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1259)
    protected void __downRead(RwSem sem) {
        __downReadCommon(sem, TASK_UNINTERRUPTIBLE);
    }

    /** Lock for writing. */
    @Kernel(function = "__down_write_common", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1298)
    protected int __downWriteCommon(RwSem sem, int state) {
        int ret = 0;
        sem.preemptDisable();
        if (!rwsemWriteTrylock(sem)) {
            if (!rwsemDownWriteSlowpath(sem, state)) {             /* IS_ERR(rwsem_down_write_slowpath(...)) */
                ret = -EINTR;
            }
        }
        sem.preemptEnable();
        return ret;
    }

    @Kernel(function = "__down_write", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1311)
    protected void __downWrite(RwSem sem) {
        __downWriteCommon(sem, TASK_UNINTERRUPTIBLE);
    }

    /** Unlock after reading. */
    @Kernel(function = "__up_read", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1336)
    protected void __upRead(RwSem sem) {
        /* DEBUG_RWSEMS_WARN_ON(sem->magic != sem, sem); DEBUG_RWSEMS_WARN_ON(!is_rwsem_reader_owned(sem), sem); */
        sem.preemptDisable();
        rwsemClearReaderOwned(sem);
        sem.order(MemoryOrder.RMW_RELEASE);
        long tmp = sem.atomicLongAddReturn(-RWSEM_READER_BIAS);    /* atomic_long_add_return_release */
        sem.lockReleased();
        /* DEBUG_RWSEMS_WARN_ON(tmp < 0, sem); */
        if ((tmp & (RWSEM_LOCK_MASK | RWSEM_FLAG_WAITERS)) == RWSEM_FLAG_WAITERS) {
            clearNonspinnable(sem);
            rwsemWake(sem);
        }
        sem.preemptEnable();
    }

    /** Unlock after writing. */
    @Kernel(function = "__up_write", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1358)
    protected void __upWrite(RwSem sem) {
        /* sem->owner may differ from current if the ownership is transferred to an anonymous writer by setting the
         * RWSEM_NONSPINNABLE bits. DEBUG_RWSEMS_WARN_ON(...) */
        sem.preemptDisable();
        rwsemClearOwner(sem);
        sem.order(MemoryOrder.RMW_RELEASE);
        long tmp = sem.atomicLongFetchAdd(-RWSEM_WRITER_LOCKED);   /* atomic_long_fetch_add_release */
        sem.lockReleased();
        if ((tmp & RWSEM_FLAG_WAITERS) != 0) {
            rwsemWake(sem);
        }
        sem.preemptEnable();
    }

    /* ---------------- entry points ---------------- */

    @Override
    @Kernel(function = "down_read", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1521)
    public void downRead(RwSem sem) {
        /* might_sleep(); rwsem_acquire_read(&sem->dep_map, 0, 0, _RET_IP_); */
        __downRead(sem);                                            /* LOCK_CONTENDED(sem, __down_read_trylock, __down_read) */
    }

    @Override
    @Kernel(function = "down_write", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1574)
    public void downWrite(RwSem sem) {
        /* might_sleep(); rwsem_acquire(&sem->dep_map, 0, 0, _RET_IP_); */
        __downWrite(sem);                                           /* LOCK_CONTENDED(sem, __down_write_trylock, __down_write) */
    }

    @Override
    @Kernel(function = "down_read_killable", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1544)
    public int downReadKillable(RwSem sem) {
        /* might_sleep(); rwsem_acquire_read(&sem->dep_map, 0, 0, _RET_IP_); */
        if (__downReadCommon(sem, TASK_KILLABLE) != 0) {            /* LOCK_CONTENDED_RETURN(sem, ..., __down_read_killable) */
            /* rwsem_release(&sem->dep_map, _RET_IP_); */
            return -EINTR;
        }
        return 0;
    }

    @Override
    @Kernel(function = "down_write_killable", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1585)
    public int downWriteKillable(RwSem sem) {
        /* might_sleep(); rwsem_acquire(&sem->dep_map, 0, 0, _RET_IP_); */
        if (__downWriteCommon(sem, TASK_KILLABLE) != 0) {           /* LOCK_CONTENDED_RETURN(sem, ..., __down_write_killable) */
            /* rwsem_release(&sem->dep_map, _RET_IP_); */
            return -EINTR;
        }
        return 0;
    }

    @Override
    @Kernel(function = "up_read", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1617)
    public void upRead(RwSem sem) {
        /* rwsem_release(&sem->dep_map, _RET_IP_); */
        __upRead(sem);
    }

    @Override
    @Kernel(function = "up_write", file = "kernel/locking/rwsem.c", version = "v6.12", line = 1627)
    public void upWrite(RwSem sem) {
        /* rwsem_release(&sem->dep_map, _RET_IP_); */
        __upWrite(sem);
    }
}
