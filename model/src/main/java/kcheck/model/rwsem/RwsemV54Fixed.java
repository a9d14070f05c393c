package kcheck.model.rwsem;

import static kcheck.model.rwsem.RwsemBits.RWSEM_FLAG_HANDOFF;
import static kcheck.model.rwsem.RwsemBits.RWSEM_FLAG_WAITERS;
import static kcheck.model.rwsem.RwsemBits.RWSEM_LOCK_MASK;
import static kcheck.model.rwsem.RwsemBits.RWSEM_RD_NONSPINNABLE;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READER_BIAS;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READER_OWNED;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READER_SHIFT;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READ_FAILED_MASK;
import static kcheck.model.rwsem.RwsemBits.RWSEM_WRITER_LOCKED;
import static kcheck.model.rwsem.RwsemBits.RWSEM_WRITER_MASK;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_FOR_READ;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_ANY;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_READ_OWNED;

import kcheck.model.Kernel;

/**
 * The v5.4 port with the fix of 2f06f702925b "locking/rwsem: Prevent potential lock starvation" (v5.11)
 * and the commit it builds on, c8fe8b056438 "locking/rwsem: Pass the current atomic count to
 * rwsem_down_read_slowpath()": a reader that finds the lock owned by other readers
 * (READER_OWNED, reader count above its own, no writer) queues instead of spinning, so a stream of
 * spinning readers can no longer keep the reader count above zero forever while a writer sleeps.
 * The hunks follow the patch as posted (v2, lore message 20201121041416.12285-3-longman@redhat.com);
 * everything else is the v5.4 port.
 */
public class RwsemV54Fixed extends RwsemV54 {
    static final String V54F = "v5.4.286 + c8fe8b056438 + 2f06f702925b";

    /** {@code long count} of __down_read() (rwsem_read_trylock()'s {@code *cntp}), passed to the slow path. */
    @FrameLocal("rwsem_read_trylock")
    protected long cnt;
    /** The slow path's {@code count} argument. */
    @FrameLocal("rwsem_down_read_slowpath")
    protected long fastCount;

    /** c8fe8b056438: the count the fast path saw is handed to the slow path. */
    @Override
    @Kernel(function = "rwsem_read_trylock", file = "kernel/locking/rwsem.c", version = V54F)
    protected boolean rwsemReadTrylock(RwSem sem) {
        cnt = sem.atomicLongAddReturn(RWSEM_READER_BIAS);
        RwsemV612.readerBiasAnnotation(sem, cnt);
        if (cnt < 0) {
            rwsemSetNonspinnable(sem);
        }
        return (cnt & RWSEM_READ_FAILED_MASK) == 0;
    }

    @Override
    @Kernel(function = "__down_read", file = "kernel/locking/rwsem.c", version = V54F)
    protected void __downRead(RwSem sem) {
        if (!rwsemReadTrylock(sem)) {
            fastCount = cnt;                                        /* rwsem_down_read_slowpath(sem, TASK_UNINTERRUPTIBLE, count) */
            rwsemDownReadSlowpath(sem);
        } else {
            rwsemSetReaderOwned(sem);
        }
    }

    /** Wait for the read lock to be granted (c8fe8b056438: the count the fast path saw; 2f06f702925b: the check). */
    @Override
    @Kernel(function = "rwsem_down_read_slowpath", file = "kernel/locking/rwsem.c", version = V54F)
    protected void rwsemDownReadSlowpath(RwSem sem) {
        rdAdjustment = -RWSEM_READER_BIAS;
        long rcnt = fastCount >> RWSEM_READER_SHIFT;
        sem.wakeQInit();                                            /* DEFINE_WAKE_Q(wake_q); bool wake = false */
        boolean queueNow;

        /* To prevent a constant stream of readers from starving a sleeping waiter, don't attempt optimistic
         * spinning if the lock is currently owned by readers. */
        rdLastRowner = sem.readOwner();                             /* owner = atomic_long_read(&sem->owner) */
        if ((rdLastRowner & RWSEM_READER_OWNED) != 0 && rcnt > 1 && (fastCount & RWSEM_WRITER_LOCKED) == 0) {
            queueNow = true;                                        /* goto queue (waiter.last_rowner left unset: the */
            sem.setWaiterRdNonspinnable(false);                     /* model gives it no RD_NONSPINNABLE bit) */
        } else {
            /* Save the current read-owner of rwsem, if available, and the reader nonspinnable bit. */
            if ((rdLastRowner & RWSEM_READER_OWNED) == 0) {         /* waiter.last_rowner = owner */
                rdLastRowner &= RWSEM_RD_NONSPINNABLE;
            }
            sem.setWaiterRdNonspinnable((rdLastRowner & RWSEM_RD_NONSPINNABLE) != 0);
            queueNow = !rwsemCanSpinOnOwner(sem, RWSEM_RD_NONSPINNABLE); /* goto queue */
        }
        fastCount = 0;                                              /* model: dead from here */
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
                return;
            } else if (rwsemReaderPhaseTrylock(sem, rdLastRowner)) {
                /* rwsem_reader_phase_trylock() implies ACQUIRE on success */
                return;
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
                return;
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

        /* wait to be given the lock */
        for (;;) {
            sem.setCurrentState();                      /* set_current_state(state); */
            if (sem.waiterTaskIsNull()) {                           /* !smp_load_acquire(&waiter.task) */
                break;
            }
            /* signal_pending_state(state, current): TASK_UNINTERRUPTIBLE, never */
            sem.schedule();
        }
        /* __set_current_state(TASK_RUNNING); */
    }

}
