package kcheck.model.rwsem;

import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_MASK;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_READ_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_WRITE_BIAS;

import kcheck.model.Kernel;

/**
 * The count fast paths of the xadd rwsem, include/asm-generic/rwsem.h (identical in v4.7 and
 * v4.8 but for the {@code _acquire}/{@code _release} spelling): each is one atomic operation on
 * {@code sem->count}, falling into the slow paths of rwsem-xadd.c when the result says so.
 * x86 does the same operations in inline assembly ({@code xadd}); its {@code call_rwsem_wake}
 * thunk additionally skips the wake-up when other lockers are still active, which asm-generic
 * leaves to {@code __rwsem_do_wake}.
 */
public abstract class AsmGenericRwsem implements RwsemVariant {

    /** {@code rwsem_down_read_failed()}: queue and sleep until a waker grants the read lock. */
    protected abstract void rwsemDownReadFailed(RwSem sem);

    /** {@code rwsem_down_write_failed()}: spin optimistically, else queue and sleep. */
    protected abstract void rwsemDownWriteFailed(RwSem sem);

    /** {@code rwsem_wake()}: wake waiters after an unlock found them. */
    protected abstract void rwsemWake(RwSem sem);

    /** Lock for reading: one {@code inc}; a result &le; 0 means a writer is active or queued. */
    @Kernel(function = "__down_read", file = "include/asm-generic/rwsem.h", version = "v4.7-v4.8")
    protected void __downRead(RwSem sem) {
        if (sem.atomicLongAddReturn(RWSEM_ACTIVE_READ_BIAS) <= 0) {   /* atomic_long_inc_return_acquire */
            rwsemDownReadFailed(sem);
        }
    }

    /** Unlock after reading: one {@code dec}; wake if that was the last active locker and waiters are queued. */
    @Kernel(function = "__up_read", file = "include/asm-generic/rwsem.h", version = "v4.7-v4.8")
    protected void __upRead(RwSem sem) {
        long tmp = sem.atomicLongAddReturn(-RWSEM_ACTIVE_READ_BIAS);    /* atomic_long_dec_return_release */
        sem.lockReleased();
        if (tmp < -1 && (tmp & RWSEM_ACTIVE_MASK) == 0) {
            rwsemWake(sem);
        }
    }

    /** Lock for writing: one {@code xadd} of the write bias; anything but a lone write bias is contention. */
    @Kernel(function = "__down_write", file = "include/asm-generic/rwsem.h", version = "v4.7-v4.8")
    protected void __downWrite(RwSem sem) {
        long tmp = sem.atomicLongAddReturn(RWSEM_ACTIVE_WRITE_BIAS);   /* atomic_long_add_return_acquire */
        if (tmp != RWSEM_ACTIVE_WRITE_BIAS) {
            rwsemDownWriteFailed(sem);
        }
    }

    /** Unlock after writing: subtract the write bias; a negative result means waiters are queued. */
    @Kernel(function = "__up_write", file = "include/asm-generic/rwsem.h", version = "v4.7-v4.8")
    protected void __upWrite(RwSem sem) {
        long tmp = sem.atomicLongAddReturn(-RWSEM_ACTIVE_WRITE_BIAS);  /* atomic_long_sub_return_release */
        sem.lockReleased();
        if (tmp < 0) {
            rwsemWake(sem);
        }
    }
}
