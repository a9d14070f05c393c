package kcheck.model.rwsem;

import static kcheck.model.rwsem.RwsemBits.OWNER_NONSPINNABLE;
import static kcheck.model.rwsem.RwsemBits.OWNER_NULL;
import static kcheck.model.rwsem.RwsemBits.OWNER_READER;
import static kcheck.model.rwsem.RwsemBits.OWNER_SPINNABLE;
import static kcheck.model.rwsem.RwsemBits.OWNER_WRITER;
import static kcheck.model.rwsem.RwsemBits.RWSEM_FLAG_HANDOFF;
import static kcheck.model.rwsem.RwsemBits.RWSEM_FLAG_WAITERS;
import static kcheck.model.rwsem.RwsemBits.RWSEM_LOCK_MASK;
import static kcheck.model.rwsem.RwsemBits.RWSEM_NONSPINNABLE_V5;
import static kcheck.model.rwsem.RwsemBits.RWSEM_OWNER_FLAGS_MASK;
import static kcheck.model.rwsem.RwsemBits.RWSEM_RD_NONSPINNABLE;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READER_BIAS;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READER_MASK;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READER_OWNED;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READ_FAILED_MASK;
import static kcheck.model.rwsem.RwsemBits.RWSEM_UNLOCKED_VALUE;
import static kcheck.model.rwsem.RwsemBits.RWSEM_WRITER_LOCKED;
import static kcheck.model.rwsem.RwsemBits.RWSEM_WRITER_MASK;
import static kcheck.model.rwsem.RwsemBits.RWSEM_WR_NONSPINNABLE;
import static kcheck.model.rwsem.RwsemBits.WRITER_FIRST;
import static kcheck.model.rwsem.RwsemBits.WRITER_HANDOFF;
import static kcheck.model.rwsem.RwsemBits.WRITER_NOT_FIRST;
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
 * kernel/locking/rwsem.c of v5.4 (the v5.4.286 stable release as stored in the search index; that
 * copy is reformatted, so no line numbers are cited): the rewrite of v5.3 with reader optimistic
 * spinning. Readers spin on a writer owner like writers do ({@code rwsem_optimistic_spin(sem,
 * false)}) and may join a reader-owned lock by spinning; RWSEM_RD_NONSPINNABLE and
 * RWSEM_WR_NONSPINNABLE switch spinning off per kind; writers spin on readers for a time
 * ({@code rspin_threshold}); the first waiter sets the handoff bit after RWSEM_WAIT_TIMEOUT
 * ({@code enum writer_wait_state}). Reader spinning was removed in v5.11 (617f3ef95177).
 *
 * <p>Kernel locals that live across an atomic step are fields ({@link FrameLocal}); a few are
 * cleared once dead, which the kernel does not need to do: it keeps the recorded program free of
 * dead values. {@code lockAcquired()} and {@code lockReleased()} are model annotations.
 */
public class RwsemV54 implements RwsemVariant {
    static final String V = "v5.4.286";

    /** {@code long count}, {@code adjustment}, {@code bool wake} and {@code waiter.last_rowner} of rwsem_down_read_slowpath(). */
    @FrameLocal("rwsem_down_read_slowpath")
    protected long rdCount;
    @FrameLocal("rwsem_down_read_slowpath")
    protected long rdAdjustment;
    @FrameLocal("rwsem_down_read_slowpath")
    protected long rdLastRowner;
    /** {@code long count}, {@code bool disable_rspin}, {@code enum writer_wait_state wstate} of rwsem_down_write_slowpath(). */
    @FrameLocal("rwsem_down_write_slowpath")
    protected long wrCount;
    @FrameLocal("rwsem_down_write_slowpath")
    protected boolean wrDisableRspin;
    @FrameLocal("rwsem_down_write_slowpath")
    protected int wrWstate;
    /** {@code wake_type}, {@code long oldcount, woken, adjustment} of rwsem_mark_wake(). */
    /** The readers left on {@code wlist} in the 2nd pass of {@code rwsem_mark_wake()}. */
    @FrameLocal("rwsem_mark_wake")
    protected long mwLeft;
    @FrameLocal("rwsem_mark_wake")
    protected int mwWakeType;
    @FrameLocal("rwsem_mark_wake")
    protected long mwOldcount;
    @FrameLocal("rwsem_mark_wake")
    protected long mwWoken;
    @FrameLocal("rwsem_mark_wake")
    protected long mwAdjustment;
    @FrameLocal("rwsem_mark_wake")
    protected long mwOwner;
    /** {@code owner} argument of __rwsem_set_reader_owned(). */
    @FrameLocal("__rwsem_set_reader_owned")
    protected long srOwner;
    /** {@code long count, new} and {@code wstate} of rwsem_try_write_lock(). */
    @FrameLocal("rwsem_try_write_lock")
    protected long twCount;
    @FrameLocal("rwsem_try_write_lock")
    protected long twNew;
    @FrameLocal("rwsem_try_write_lock")
    protected int twWstate;
    /** {@code long count} of rwsem_try_write_lock_unqueued() / rwsem_try_read_lock_unqueued(). */
    @FrameLocal({"rwsem_try_write_lock_unqueued", "rwsem_try_read_lock_unqueued"})
    protected long tuCount;
    /** {@code owner | flags} and {@code nonspinnable} of rwsem_can_spin_on_owner(). */
    @FrameLocal("rwsem_can_spin_on_owner")
    protected long csOwner;
    @FrameLocal("rwsem_can_spin_on_owner")
    protected long csNonspinnable;
    /** {@code owner | flags} and {@code nonspinnable} of rwsem_spin_on_owner(). */
    @FrameLocal("rwsem_spin_on_owner")
    protected long soOwner;
    @FrameLocal("rwsem_spin_on_owner")
    protected long soNonspinnable;
    /** {@code bool wlock, taken}, {@code prev_owner_state}, {@code owner_state} of rwsem_optimistic_spin(). */
    @FrameLocal("rwsem_optimistic_spin")
    protected boolean osWlock;
    @FrameLocal("rwsem_optimistic_spin")
    protected boolean taken;
    @FrameLocal("rwsem_optimistic_spin")
    protected int prevOwnerState;
    @FrameLocal("rwsem_optimistic_spin")
    protected int ownerState;
    /** {@code last_rowner} argument of rwsem_reader_phase_trylock(). */
    @FrameLocal("rwsem_reader_phase_trylock")
    protected long rpLastRowner;
    /** {@code unsigned long owner} of rwsem_set_nonspinnable(). */
    @FrameLocal("rwsem_set_nonspinnable")
    protected long snOwner;

    @Override
    public Encoding encoding() {
        return Encoding.BITS_RD_WR;
    }

    /* ---------------- owner ---------------- */

    @Kernel(function = "rwsem_set_owner", file = "kernel/locking/rwsem.c", version = V)
    protected void rwsemSetOwner(RwSem sem) {
        sem.writeOwner(sem.current());                              /* atomic_long_set(&sem->owner, (long)current) */
    }

    @Override
    public boolean hasOwnerUnknown() {
        return true;
    }

    /** {@code lock_release()} (lockdep only), then, for a writer, the owner no task is (CONFIG_RWSEM_SPIN_ON_OWNER). */
    @Override
    @Kernel(function = "percpu_rwsem_release", file = "include/linux/percpu-rwsem.h", version = "v5.4")
    public void percpuRwsemRelease(RwSem sem) {
        sem.writeOwner(RwsemBits.RWSEM_OWNER_UNKNOWN);             /* atomic_long_set(&sem->rw_sem.owner, RWSEM_OWNER_UNKNOWN) */
    }

    /** {@code lock_acquire()} (lockdep only), then, for a writer, {@code current} as owner. */
    @Override
    @Kernel(function = "percpu_rwsem_acquire", file = "include/linux/percpu-rwsem.h", version = "v5.4")
    public void percpuRwsemAcquire(RwSem sem) {
        sem.writeOwner(sem.current());                              /* atomic_long_set(&sem->rw_sem.owner, (long)current) */
    }

    @Kernel(function = "rwsem_clear_owner", file = "kernel/locking/rwsem.c", version = V)
    protected void rwsemClearOwner(RwSem sem) {
        sem.writeOwner(0);
    }

    @Kernel(function = "rwsem_test_oflags", file = "kernel/locking/rwsem.c", version = V)
    protected boolean rwsemTestOflags(RwSem sem, long flags) {
        return (sem.readOwner() & flags) != 0;
    }

    /** The reader non-spinnable bit is preserved. */
    @Kernel(function = "__rwsem_set_reader_owned", file = "kernel/locking/rwsem.c", version = V)
    protected void __rwsemSetReaderOwned(RwSem sem, long owner) {
        srOwner = owner;
        long val = srOwner | RWSEM_READER_OWNED | (sem.readOwner() & RWSEM_RD_NONSPINNABLE);
        sem.writeOwner(val);
    }

    @Kernel(function = "rwsem_set_reader_owned", file = "kernel/locking/rwsem.c", version = V)
    protected void rwsemSetReaderOwned(RwSem sem) {
        __rwsemSetReaderOwned(sem, sem.current());
    }

    /** Without CONFIG_DEBUG_RWSEMS: nothing. */
    @Kernel(function = "rwsem_clear_reader_owned", file = "kernel/locking/rwsem.c", version = V)
    protected void rwsemClearReaderOwned(RwSem sem) {
    }

    /** Set the RWSEM_NONSPINNABLE bits if the RWSEM_READER_OWNED flag remains set. */
    @Kernel(function = "rwsem_set_nonspinnable", file = "kernel/locking/rwsem.c", version = V)
    protected void rwsemSetNonspinnable(RwSem sem) {
        snOwner = sem.readOwner();
        do {
            if ((snOwner & RWSEM_READER_OWNED) == 0) {
                break;
            }
            if ((snOwner & RWSEM_NONSPINNABLE_V5) != 0) {
                break;
            }
            long found = sem.ownerCmpxchg(snOwner, snOwner | RWSEM_NONSPINNABLE_V5);
            if (found == snOwner) {
                break;
            }
            snOwner = found;
        } while (true);
    }

    @Kernel(function = "rwsem_read_trylock", file = "kernel/locking/rwsem.c", version = V)
    protected boolean rwsemReadTrylock(RwSem sem) {
        long cnt = sem.atomicLongAddReturn(RWSEM_READER_BIAS);     /* atomic_long_add_return_acquire */
        RwsemV612.readerBiasAnnotation(sem, cnt);
        if (cnt < 0) {                                              /* WARN_ON_ONCE(cnt < 0): never in the model */
            rwsemSetNonspinnable(sem);
        }
        return (cnt & RWSEM_READ_FAILED_MASK) == 0;
    }

    /** The owner word: pointer | flags (the caller splits it as rwsem_owner_flags() does). */
    @Kernel(function = "rwsem_owner_flags", file = "kernel/locking/rwsem.c", version = V)
    protected long rwsemOwnerFlags(RwSem sem) {
        return sem.readOwner();
    }

    /* ---------------- wake ---------------- */

    /** Handle the lock release when processes blocked on it can now run (two passes, as in v6.x). */
    @Kernel(function = "rwsem_mark_wake", file = "kernel/locking/rwsem.c", version = V)
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
            /* tsk = waiter->task; get_task_struct(tsk); */
            /* Ensure calling get_task_struct() before setting the reader waiter to nil such that
             * rwsem_down_read_slowpath() cannot race with do_exit() by always holding a reference count to the task to
             * wakeup. */
            sem.clearWaiterTask(RwSem.WAITER_WLIST);                /* smp_store_release(&waiter->task, NULL) */
            /* Ensure issuing the wakeup (either by us or someone else) after setting the reader waiter to nil. */
            sem.wakeQAdd(RwSem.WAITER_CURRENT);                     /* wake_q_add_safe(wake_q, tsk) */
        }
    }

    /**
     * This function must be called with the sem->wait_lock held. If wstate is WRITER_HANDOFF, it will make sure
     * that either the handoff bit is set or the lock is acquired with handoff bit cleared.
     */
    @Kernel(function = "rwsem_try_write_lock", file = "kernel/locking/rwsem.c", version = V)
    protected boolean rwsemTryWriteLock(RwSem sem, int wstate) {
        sem.lockdepAssertHeldWaitLock();                            /* lockdep_assert_held(&sem->wait_lock) */
        twWstate = wstate;
        twCount = sem.atomicLongRead();
        do {
            boolean hasHandoff = (twCount & RWSEM_FLAG_HANDOFF) != 0;
            if (hasHandoff && twWstate == WRITER_NOT_FIRST) {
                return false;
            }
            twNew = twCount;
            if ((twCount & RWSEM_LOCK_MASK) != 0) {
                if (hasHandoff || twWstate != WRITER_HANDOFF) {
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
            long found = sem.atomicLongCmpxchg(twCount, twNew);     /* atomic_long_try_cmpxchg_acquire */
            if (found == twCount) {
                break;
            }
            twCount = found;
        } while (true);
        /* We have either acquired the lock with handoff bit cleared or set the handoff bit. */
        if ((twNew & RWSEM_FLAG_HANDOFF) != 0) {
            return false;
        }
        sem.lockAcquired();
        rwsemSetOwner(sem);
        return true;
    }

    /* ---------------- optimistic spinning (CONFIG_RWSEM_SPIN_ON_OWNER) ---------------- */

    /** Try to acquire read lock before the reader is put on wait queue. */
    @Kernel(function = "rwsem_try_read_lock_unqueued", file = "kernel/locking/rwsem.c", version = V)
    protected boolean rwsemTryReadLockUnqueued(RwSem sem) {
        tuCount = sem.atomicLongRead();
        if ((tuCount & (RWSEM_WRITER_MASK | RWSEM_FLAG_HANDOFF)) != 0) {
            return false;
        }
        tuCount = sem.atomicLongFetchAdd(RWSEM_READER_BIAS);      /* atomic_long_fetch_add_acquire */
        if ((tuCount & (RWSEM_WRITER_MASK | RWSEM_FLAG_HANDOFF)) == 0) {
            sem.lockAcquired();
            rwsemSetReaderOwned(sem);
            return true;
        }
        /* Back out the change */
        sem.atomicLongAdd(-RWSEM_READER_BIAS);
        return false;
    }

    /** Try to acquire write lock before the writer has been put on wait queue. */
    @Kernel(function = "rwsem_try_write_lock_unqueued", file = "kernel/locking/rwsem.c", version = V)
    protected boolean rwsemTryWriteLockUnqueued(RwSem sem) {
        tuCount = sem.atomicLongRead();
        while ((tuCount & (RWSEM_LOCK_MASK | RWSEM_FLAG_HANDOFF)) == 0) {
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

    /** {@code owner->on_cpu && !vcpu_is_preempted(task_cpu(owner))} (the model has no vCPUs). */
    @Kernel(function = "owner_on_cpu", file = "kernel/locking/rwsem.c", version = V)
    protected boolean ownerOnCpu(RwSem sem, long owner) {
        return sem.onCpu(owner);
    }

    @Kernel(function = "rwsem_can_spin_on_owner", file = "kernel/locking/rwsem.c", version = V)
    protected boolean rwsemCanSpinOnOwner(RwSem sem, long nonspinnable) {
        csNonspinnable = nonspinnable;
        if (sem.needResched()) {
            return false;
        }
        sem.preemptDisable();
        /* rcu_read_lock(); */
        csOwner = rwsemOwnerFlags(sem);
        long flags = csOwner & RWSEM_OWNER_FLAGS_MASK;
        long owner = csOwner & ~RWSEM_OWNER_FLAGS_MASK;
        boolean ret = true;
        /* Don't check the read-owner as the entry may be stale. */
        if ((flags & csNonspinnable) != 0 || (owner != 0 && (flags & RWSEM_READER_OWNED) == 0 && !ownerOnCpu(sem, owner))) {
            ret = false;
        }
        /* rcu_read_unlock(); */
        sem.preemptEnable();
        return ret;
    }

    @Kernel(function = "rwsem_owner_state", file = "kernel/locking/rwsem.c", version = V)
    protected static int rwsemOwnerState(long owner, long flags, long nonspinnable) {
        if ((flags & nonspinnable) != 0) {
            return OWNER_NONSPINNABLE;
        }
        if ((flags & RWSEM_READER_OWNED) != 0) {
            return OWNER_READER;
        }
        return owner != 0 ? OWNER_WRITER : OWNER_NULL;
    }

    @Kernel(function = "rwsem_spin_on_owner", file = "kernel/locking/rwsem.c", version = V)
    protected int rwsemSpinOnOwner(RwSem sem, long nonspinnable) {
        soNonspinnable = nonspinnable;
        soOwner = rwsemOwnerFlags(sem);
        int state = rwsemOwnerState(soOwner & ~RWSEM_OWNER_FLAGS_MASK, soOwner & RWSEM_OWNER_FLAGS_MASK, soNonspinnable);
        if (state != OWNER_WRITER) {
            return state;
        }
        /* rcu_read_lock(); */
        for (;;) {
            /* When a waiting writer set the handoff flag, it may spin on the owner as well. Once that writer
             * acquires the lock, we can spin on it. So we don't need to quit even when the handoff bit is set. */
            long nw = rwsemOwnerFlags(sem);
            if (nw != soOwner) {                                    /* (new != owner) || (new_flags != flags) */
                state = rwsemOwnerState(nw & ~RWSEM_OWNER_FLAGS_MASK, nw & RWSEM_OWNER_FLAGS_MASK, soNonspinnable);
                break;
            }
            /* barrier(); */
            if (sem.needResched() || !ownerOnCpu(sem, soOwner & ~RWSEM_OWNER_FLAGS_MASK)) {
                state = OWNER_NONSPINNABLE;
                break;
            }
            sem.cpuRelax();
        }
        /* rcu_read_unlock(); */
        return state;
    }

    /** Spinning threshold = (10 + nr_readers/2)us, capped at 25us: here a deadline the clock reads find passed or not. */
    @Kernel(function = "rwsem_rspin_threshold", file = "kernel/locking/rwsem.c", version = V)
    protected void rwsemRspinThreshold(RwSem sem) {
        sem.atomicLongRead();                                       /* readers = count >> RWSEM_READER_SHIFT: delta only */
        sem.armSpinDeadline();                                      /* return sched_clock() + delta */
    }

    @Kernel(function = "rwsem_optimistic_spin", file = "kernel/locking/rwsem.c", version = V)
    protected boolean rwsemOptimisticSpin(RwSem sem, boolean wlock) {
        osWlock = wlock;
        taken = false;
        prevOwnerState = OWNER_NULL;
        /* unsigned long nonspinnable = wlock ? RWSEM_WR_NONSPINNABLE : RWSEM_RD_NONSPINNABLE; */
        sem.preemptDisable();
        /* sem->wait_lock should not be held when doing optimistic spinning */
        if (sem.osqLock()) {                                        /* else goto done */
            /* Optimistically spin on the owner field and attempt to acquire the lock whenever the owner changes.
             * Spinning will be stopped when: 1) the owning writer isn't running; or 2) readers own the lock and
             * spinning time has exceeded limit. */
            for (;;) {
                ownerState = rwsemSpinOnOwner(sem, osWlock ? RWSEM_WR_NONSPINNABLE : RWSEM_RD_NONSPINNABLE);
                if ((ownerState & OWNER_SPINNABLE) == 0) {
                    break;
                }
                /* Try to acquire the lock */
                taken = osWlock ? rwsemTryWriteLockUnqueued(sem) : rwsemTryReadLockUnqueued(sem);
                if (taken) {
                    break;
                }
                /* Time-based reader-owned rwsem optimistic spinning */
                if (osWlock && ownerState == OWNER_READER) {
                    /* Re-initialize rspin_threshold every time when the owner state changes from non-reader to
                     * reader. */
                    if (prevOwnerState != OWNER_READER) {
                        if (rwsemTestOflags(sem, osWlock ? RWSEM_WR_NONSPINNABLE : RWSEM_RD_NONSPINNABLE)) {
                            break;
                        }
                        rwsemRspinThreshold(sem);                   /* rspin_threshold = ...; loop = 0; */
                    } else if (sem.spinDeadlinePassed()) {
                        /* !(++loop & 0xf) && (sched_clock() > rspin_threshold): checked on every iteration in the
                         * model (the deadline passes at any time, so every 16th reaches the same states) */
                        rwsemSetNonspinnable(sem);
                        break;
                    }
                }
                /* An RT task cannot do optimistic spinning if it cannot be sure the lock holder is running or
                 * live-lock may happen if the current task and the lock holder happen to run in the same CPU. [...]
                 * If the owner is not a writer, need_resched() check needs to be done here. */
                if (ownerState != OWNER_WRITER) {
                    if (sem.needResched()) {
                        break;
                    }
                    if (sem.rtTask() && prevOwnerState != OWNER_WRITER) {
                        break;
                    }
                }
                prevOwnerState = ownerState;
                /* The cpu_relax() call is a compiler barrier which forces everything in this loop to be re-loaded. */
                sem.cpuRelax();
            }
            sem.osqUnlock();
        }
        /* done: */
        sem.preemptEnable();
        return taken;
    }

    /** Clear the owner's RWSEM_WR_NONSPINNABLE bit if it is set. This should only be called when the reader count reaches 0. */
    @Kernel(function = "clear_wr_nonspinnable", file = "kernel/locking/rwsem.c", version = V)
    protected void clearWrNonspinnable(RwSem sem) {
        if (rwsemTestOflags(sem, RWSEM_WR_NONSPINNABLE)) {
            sem.ownerAndnot(RWSEM_WR_NONSPINNABLE);
        }
    }

    /**
     * Called when the reader fails to acquire the lock via optimistic spinning: still try the lock if the rwsem is
     * in a valid reader phase (reader-owned now, and not by the reader owner seen at slowpath entry).
     */
    @Kernel(function = "rwsem_reader_phase_trylock", file = "kernel/locking/rwsem.c", version = V)
    protected boolean rwsemReaderPhaseTrylock(RwSem sem, long lastRowner) {
        rpLastRowner = lastRowner;
        long owner = sem.readOwner();
        if ((owner & RWSEM_READER_OWNED) == 0) {
            return false;
        }
        return ((owner ^ rpLastRowner) & ~RWSEM_OWNER_FLAGS_MASK) != 0 && rwsemTryReadLockUnqueued(sem);
    }

    /* ---------------- slow paths ---------------- */

    /** Wait for the read lock to be granted. */
    @Kernel(function = "rwsem_down_read_slowpath", file = "kernel/locking/rwsem.c", version = V)
    protected boolean rwsemDownReadSlowpath(RwSem sem, int state) {
        rdAdjustment = -RWSEM_READER_BIAS;
        sem.wakeQInit();                                            /* DEFINE_WAKE_Q(wake_q); bool wake = false */
        boolean queueNow;

        /* Save the current read-owner of rwsem, if available, and the reader nonspinnable bit. */
        rdLastRowner = sem.readOwner();                             /* waiter.last_rowner = atomic_long_read(&sem->owner) */
        if ((rdLastRowner & RWSEM_READER_OWNED) == 0) {
            rdLastRowner &= RWSEM_RD_NONSPINNABLE;
        }
        sem.setWaiterRdNonspinnable((rdLastRowner & RWSEM_RD_NONSPINNABLE) != 0);
        queueNow = !rwsemCanSpinOnOwner(sem, RWSEM_RD_NONSPINNABLE); /* goto queue */
        if (!queueNow) {
            /* Undo read bias from down_read() and do optimistic spinning. */
            sem.atomicLongAdd(-RWSEM_READER_BIAS);
            sem.lockReleased();
            rdAdjustment = 0;
            if (rwsemOptimisticSpin(sem, false)) {
                /* rwsem_optimistic_spin() implies ACQUIRE on success. Wake up other readers in the wait list if the
                 * front waiter is a reader. */
                if ((sem.atomicLongRead() & RWSEM_FLAG_WAITERS) != 0) {
                    sem.rawSpinLockIrq();
                    if (!sem.listEmpty()) {
                        rwsemMarkWake(sem, RWSEM_WAKE_READ_OWNED);
                    }
                    sem.rawSpinUnlockIrq();
                    sem.wakeUpQ();                                  /* wake_up_q(&wake_q) */
                }
                return true;
            } else if (rwsemReaderPhaseTrylock(sem, rdLastRowner)) {
                /* rwsem_reader_phase_trylock() implies ACQUIRE on success */
                return true;
            }
        }
        rdLastRowner = 0;                                           /* model: dead from here (the waiter keeps its bit) */
        /* queue: */
        /* waiter.task = current; waiter.type = RWSEM_WAITING_FOR_READ; */
        sem.armWaitTimeout();                                       /* waiter.timeout = jiffies + RWSEM_WAIT_TIMEOUT */

        sem.rawSpinLockIrq();
        if (sem.listEmpty()) {
            /* In case the wait queue is empty and the lock isn't owned by a writer or has the handoff bit set, this
             * reader can exit the slowpath and return immediately as its RWSEM_READER_BIAS has already been set in
             * the count. */
            if (rdAdjustment != 0 && (sem.atomicLongRead() & (RWSEM_WRITER_MASK | RWSEM_FLAG_HANDOFF)) == 0) {
                sem.lockAcquired();
                /* Provide lock ACQUIRE: smp_acquire__after_ctrl_dep(); */
                sem.rawSpinUnlockIrq();
                rwsemSetReaderOwned(sem);
                return true;
            }
            rdAdjustment += RWSEM_FLAG_WAITERS;
        }
        sem.listAddTail(RWSEM_WAITING_FOR_READ);

        /* we're now waiting on the lock, but no longer actively locking */
        if (rdAdjustment != 0) {
            rdCount = sem.atomicLongAddReturn(rdAdjustment);
            sem.lockReleased();
        } else {
            rdCount = sem.atomicLongRead();
        }
        /* If there are no active locks, wake the front queued process(es). If there are no writers and we are first
         * in the queue, wake our own waiter to join the existing active readers! */
        boolean wake = false;
        if ((rdCount & RWSEM_LOCK_MASK) == 0) {
            wake = true;
            clearWrNonspinnable(sem);
        }
        if (wake || ((rdCount & RWSEM_WRITER_MASK) == 0 && (rdAdjustment & RWSEM_FLAG_WAITERS) != 0)) {
            rwsemMarkWake(sem, RWSEM_WAKE_ANY);
        }
        rdCount = 0;                                                /* model: dead from here */
        rdAdjustment = 0;
        sem.rawSpinUnlockIrq();
        sem.wakeUpQ();                                              /* wake_up_q(&wake_q) */

        return readWaitGranted(sem, state);
    }

    /** The {@code wait to be given the lock} loop of rwsem_down_read_slowpath(): true when granted, false (-EINTR) when a signal ended the wait. */
    @Kernel(function = "rwsem_down_read_slowpath", file = "kernel/locking/rwsem.c", version = V)
    protected boolean readWaitGranted(RwSem sem, int state) {
        for (;;) {
            sem.setCurrentState();                      /* set_current_state(state); */
            if (sem.waiterTaskIsNull()) {                           /* !smp_load_acquire(&waiter.task) */
                /* Matches rwsem_mark_wake()'s smp_store_release(). */
                break;
            }
            if (signalPendingState(sem, state)) {
                sem.rawSpinLockIrq();
                if (!sem.waiterTaskIsNull()) {                      /* if (waiter.task) goto out_nolock; */
                    readOutNolock(sem);
                    return false;                                   /* ERR_PTR(-EINTR) */
                }
                sem.rawSpinUnlockIrq();
                /* Ordered by sem->wait_lock against rwsem_mark_wake(). */
                break;
            }
            sem.schedule();
        }
        /* __set_current_state(TASK_RUNNING); */
        return true;
    }

    /** The {@code out_nolock:} label of rwsem_down_read_slowpath() (wait_lock held; releases it). */
    @Kernel(function = "rwsem_down_read_slowpath", file = "kernel/locking/rwsem.c", version = V)
    protected void readOutNolock(RwSem sem) {
        sem.listDel();                                              /* list_del(&waiter.list) */
        if (sem.listEmpty()) {
            sem.atomicLongAndnot(RWSEM_FLAG_WAITERS | RWSEM_FLAG_HANDOFF);
        }
        sem.rawSpinUnlockIrq();
        /* __set_current_state(TASK_RUNNING); */
    }

    /** This function is called by the write lock owner, so the owner value won't get changed by others. */
    @Kernel(function = "rwsem_disable_reader_optspin", file = "kernel/locking/rwsem.c", version = V)
    protected void rwsemDisableReaderOptspin(RwSem sem, boolean disable) {
        if (disable) {
            sem.ownerOr(RWSEM_RD_NONSPINNABLE);                     /* atomic_long_or(RWSEM_RD_NONSPINNABLE, &sem->owner) */
        }
    }

    /** Wait until we successfully acquire the write lock. */
    @Kernel(function = "rwsem_down_write_slowpath", file = "kernel/locking/rwsem.c", version = V)
    protected boolean rwsemDownWriteSlowpath(RwSem sem, int state) {
        sem.wakeQInit();                                            /* DEFINE_WAKE_Q(wake_q) */
        /* do optimistic spinning and steal lock if possible */
        if (rwsemCanSpinOnOwner(sem, RWSEM_WR_NONSPINNABLE) && rwsemOptimisticSpin(sem, true)) {
            return true;
        }
        /* Disable reader optimistic spinning for this rwsem after acquiring the write lock when the setting of the
         * nonspinnable bits are observed. */
        wrDisableRspin = (sem.readOwner() & RWSEM_NONSPINNABLE_V5) != 0;

        /* Optimistic spinning failed, proceed to the slowpath and block until we can acquire the sem. */
        /* waiter.task = current; waiter.type = RWSEM_WAITING_FOR_WRITE; */
        sem.armWaitTimeout();                                       /* waiter.timeout = jiffies + RWSEM_WAIT_TIMEOUT */

        sem.rawSpinLockIrq();
        /* account for this before adding a new element to the list */
        wrWstate = sem.listEmpty() ? WRITER_FIRST : WRITER_NOT_FIRST;
        sem.listAddTail(RWSEM_WAITING_FOR_WRITE);

        /* we're now waiting on the lock */
        if (wrWstate == WRITER_NOT_FIRST) {
            wrCount = sem.atomicLongRead();
            /* If there were already threads queued before us and: 1) there are no no active locks, wake the front
             * queued process(es) as the handoff bit might be set. 2) there are no active writers and some readers,
             * the lock must be read owned; so we try to wake any read lock waiters that were queued ahead of us. */
            if ((wrCount & RWSEM_WRITER_MASK) == 0) {               /* else goto wait */
                rwsemMarkWake(sem, (wrCount & RWSEM_READER_MASK) != 0 ? RWSEM_WAKE_READERS : RWSEM_WAKE_ANY);
                if (!sem.wakeQEmpty()) {
                    /* We want to minimize wait_lock hold time especially when a large number of readers are to be
                     * woken up. */
                    sem.rawSpinUnlockIrq();
                    sem.wakeUpQ();                                  /* wake_up_q(&wake_q); wake_q_init(&wake_q) */
                    sem.rawSpinLockIrq();
                }
            }
        } else {
            sem.atomicLongOr(RWSEM_FLAG_WAITERS);
        }
        wrCount = 0;                                                /* model: dead until read again */

        /* wait: wait until we successfully acquire the lock */
        sem.setCurrentState();                      /* set_current_state(state); */
        for (;;) {
            if (rwsemTryWriteLock(sem, wrWstate)) {
                /* rwsem_try_write_lock() implies ACQUIRE on success */
                break;
            }
            sem.rawSpinUnlockIrq();

            /* After setting the handoff bit and failing to acquire the lock, attempt to spin on owner to accelerate
             * lock transfer. If the previous owner is a on-cpu writer and it has just released the lock, OWNER_NULL
             * will be returned. In this case, we attempt to acquire the lock again without sleeping. */
            if (!(wrWstate == WRITER_HANDOFF && rwsemSpinOnOwner(sem, RWSEM_NONSPINNABLE_V5) == OWNER_NULL)) {
                /* Block until there are no active lockers. */
                for (;;) {
                    if (signalPendingState(sem, state)) {
                        writeOutNolock(sem);                        /* goto out_nolock */
                        return false;                               /* ERR_PTR(-EINTR) */
                    }
                    sem.schedule();
                    sem.setCurrentState();                      /* set_current_state(state); */
                    /* If HANDOFF bit is set, unconditionally do a trylock. */
                    if (wrWstate == WRITER_HANDOFF) {
                        break;
                    }
                    if (wrWstate == WRITER_NOT_FIRST && sem.isFirstWaiter()) {   /* rwsem_first_waiter(sem) == &waiter */
                        wrWstate = WRITER_FIRST;
                    }
                    wrCount = sem.atomicLongRead();
                    if ((wrCount & RWSEM_LOCK_MASK) == 0) {
                        break;
                    }
                    /* The setting of the handoff bit is deferred until rwsem_try_write_lock() is called. */
                    if (wrWstate == WRITER_FIRST && (sem.rtTask() || sem.waitTimedOut())) {
                        wrWstate = WRITER_HANDOFF;
                        break;
                    }
                }
                wrCount = 0;                                        /* model: dead from here */
            }
            /* trylock_again: */
            sem.rawSpinLockIrq();
        }
        /* __set_current_state(TASK_RUNNING); */
        sem.listDel();
        rwsemDisableReaderOptspin(sem, wrDisableRspin);
        wrWstate = 0;                                               /* model: dead from here */
        wrDisableRspin = false;
        sem.rawSpinUnlockIrq();
        return true;
    }

    /**
     * The {@code out_nolock:} label of rwsem_down_write_slowpath(): the writer leaves the wait list; it takes back the
     * handoff bit when its own {@code wstate} says it set it (the lines d257cc8cb8d5 replaced by rwsem_del_waiter()).
     */
    @Kernel(function = "rwsem_down_write_slowpath", file = "kernel/locking/rwsem.c", version = V)
    protected void writeOutNolock(RwSem sem) {
        /* __set_current_state(TASK_RUNNING); */
        sem.rawSpinLockIrq();
        sem.listDel();                                              /* list_del(&waiter.list) */
        if (wrWstate == WRITER_HANDOFF) {                           /* unlikely(wstate == WRITER_HANDOFF) */
            sem.atomicLongAdd(-RWSEM_FLAG_HANDOFF);
        }
        wrWstate = 0;                                               /* model: dead from here */
        wrDisableRspin = false;
        if (sem.listEmpty()) {
            sem.atomicLongAndnot(RWSEM_FLAG_WAITERS);
        } else {
            rwsemMarkWake(sem, RWSEM_WAKE_ANY);
        }
        sem.rawSpinUnlockIrq();
        sem.wakeUpQ();                                              /* wake_up_q(&wake_q) */
    }

    /** Handle waking up a waiter on the semaphore: up_read/up_write has decremented the active part of count. */
    @Kernel(function = "rwsem_wake", file = "kernel/locking/rwsem.c", version = V)
    protected void rwsemWake(RwSem sem) {
        sem.wakeQInit();                                            /* DEFINE_WAKE_Q(wake_q) */
        sem.rawSpinLockIrq();                                       /* raw_spin_lock_irqsave */
        if (!sem.listEmpty()) {
            rwsemMarkWake(sem, RWSEM_WAKE_ANY);
        }
        sem.rawSpinUnlockIrq();
        sem.wakeUpQ();                                              /* wake_up_q(&wake_q) */
    }

    /* ---------------- fast paths ---------------- */

    /** Lock for reading. */
    @Kernel(function = "__down_read", file = "kernel/locking/rwsem.c", version = V)
    protected void __downRead(RwSem sem) {
        if (!rwsemReadTrylock(sem)) {
            rwsemDownReadSlowpath(sem, TASK_UNINTERRUPTIBLE);
            /* DEBUG_RWSEMS_WARN_ON(!is_rwsem_reader_owned(sem), sem); */
        } else {
            rwsemSetReaderOwned(sem);
        }
    }

    /** Lock for writing. */
    @Kernel(function = "__down_write", file = "kernel/locking/rwsem.c", version = V)
    protected void __downWrite(RwSem sem) {
        long tmp = RWSEM_UNLOCKED_VALUE;
        if (sem.atomicLongCmpxchg(tmp, RWSEM_WRITER_LOCKED) != tmp) {   /* atomic_long_try_cmpxchg_acquire */
            rwsemDownWriteSlowpath(sem, TASK_UNINTERRUPTIBLE);
        } else {
            sem.lockAcquired();
            rwsemSetOwner(sem);
        }
    }

    @Kernel(function = "__down_read_killable", file = "kernel/locking/rwsem.c", version = V)
    protected int __downReadKillable(RwSem sem) {
        if (!rwsemReadTrylock(sem)) {
            if (!rwsemDownReadSlowpath(sem, TASK_KILLABLE)) {       /* IS_ERR(rwsem_down_read_slowpath(sem, TASK_KILLABLE)) */
                return -EINTR;
            }
            /* DEBUG_RWSEMS_WARN_ON(!is_rwsem_reader_owned(sem), sem); */
        } else {
            rwsemSetReaderOwned(sem);
        }
        return 0;
    }

    @Kernel(function = "__down_write_killable", file = "kernel/locking/rwsem.c", version = V)
    protected int __downWriteKillable(RwSem sem) {
        long tmp = RWSEM_UNLOCKED_VALUE;
        if (sem.atomicLongCmpxchg(tmp, RWSEM_WRITER_LOCKED) != tmp) {   /* atomic_long_try_cmpxchg_acquire */
            if (!rwsemDownWriteSlowpath(sem, TASK_KILLABLE)) {      /* IS_ERR(rwsem_down_write_slowpath(sem, TASK_KILLABLE)) */
                return -EINTR;
            }
        } else {
            sem.lockAcquired();
            rwsemSetOwner(sem);
        }
        return 0;
    }

    /** Unlock after reading. */
    @Kernel(function = "__up_read", file = "kernel/locking/rwsem.c", version = V)
    protected void __upRead(RwSem sem) {
        rwsemClearReaderOwned(sem);
        long tmp = sem.atomicLongAddReturn(-RWSEM_READER_BIAS);    /* atomic_long_add_return_release */
        sem.lockReleased();
        if ((tmp & (RWSEM_LOCK_MASK | RWSEM_FLAG_WAITERS)) == RWSEM_FLAG_WAITERS) {
            clearWrNonspinnable(sem);
            rwsemWake(sem);                                         /* rwsem_wake(sem, tmp) */
        }
    }

    /** Unlock after writing. */
    @Kernel(function = "__up_write", file = "kernel/locking/rwsem.c", version = V)
    protected void __upWrite(RwSem sem) {
        rwsemClearOwner(sem);
        long tmp = sem.atomicLongFetchAdd(-RWSEM_WRITER_LOCKED);   /* atomic_long_fetch_add_release */
        sem.lockReleased();
        if ((tmp & RWSEM_FLAG_WAITERS) != 0) {
            rwsemWake(sem);                                         /* rwsem_wake(sem, tmp) */
        }
    }

    /* ---------------- entry points ---------------- */

    @Override
    @Kernel(function = "down_read", file = "kernel/locking/rwsem.c", version = V)
    public void downRead(RwSem sem) {
        /* might_sleep(); rwsem_acquire_read(&sem->dep_map, 0, 0, _RET_IP_); */
        __downRead(sem);                                            /* LOCK_CONTENDED(sem, __down_read_trylock, __down_read) */
    }

    @Override
    @Kernel(function = "down_write", file = "kernel/locking/rwsem.c", version = V)
    public void downWrite(RwSem sem) {
        /* might_sleep(); rwsem_acquire(&sem->dep_map, 0, 0, _RET_IP_); */
        __downWrite(sem);                                           /* LOCK_CONTENDED(sem, __down_write_trylock, __down_write) */
    }

    @Override
    @Kernel(function = "down_read_killable", file = "kernel/locking/rwsem.c", version = V)
    public int downReadKillable(RwSem sem) {
        /* might_sleep(); rwsem_acquire_read(&sem->dep_map, 0, 0, _RET_IP_); */
        if (__downReadKillable(sem) != 0) {                         /* LOCK_CONTENDED_RETURN(sem, __down_read_trylock, __down_read_killable) */
            /* rwsem_release(&sem->dep_map, 1, _RET_IP_); */
            return -EINTR;
        }
        return 0;
    }

    @Override
    @Kernel(function = "down_write_killable", file = "kernel/locking/rwsem.c", version = V)
    public int downWriteKillable(RwSem sem) {
        /* might_sleep(); rwsem_acquire(&sem->dep_map, 0, 0, _RET_IP_); */
        if (__downWriteKillable(sem) != 0) {                        /* LOCK_CONTENDED_RETURN(sem, __down_write_trylock, __down_write_killable) */
            /* rwsem_release(&sem->dep_map, 1, _RET_IP_); */
            return -EINTR;
        }
        return 0;
    }

    @Override
    @Kernel(function = "up_read", file = "kernel/locking/rwsem.c", version = V)
    public void upRead(RwSem sem) {
        /* rwsem_release(&sem->dep_map, 1, _RET_IP_); */
        __upRead(sem);
    }

    @Override
    @Kernel(function = "up_write", file = "kernel/locking/rwsem.c", version = V)
    public void upWrite(RwSem sem) {
        /* rwsem_release(&sem->dep_map, 1, _RET_IP_); */
        __upWrite(sem);
    }
}
