package kcheck.model.rwsem;

/**
 * The variant contract of the rwsem-owner model: one version of the rwsem (its public entry
 * points and behind them the fast paths, the slow paths and the optimistic spinning: the xadd
 * rwsem of kernel/locking/rwsem.c and rwsem-xadd.c up to v5.2, or kernel/locking/rwsem.c since
 * v5.3, see {@link #encoding()}), written against {@link RwSem}.
 *
 * <p>The model runs each task's workload ({@code down_read; up_read} or {@code down_write;
 * up_write}, forever or for some rounds) through this code, step by step: every {@link RwSem}
 * call that touches shared memory is one atomic step. The code is recorded into a finite
 * program graph ({@link ProgramRecorder}), so it may loop like the kernel does, with one rule:
 * <b>a value that is used after a later {@link RwSem} call must be kept in a field annotated
 * {@link FrameLocal}</b> (the Java stack is not visible to the recorder), unless it is a
 * parameter whose value a {@code FrameLocal} of the caller determines. The recorder checks the
 * rule on random paths and rejects code that breaks it.
 *
 * <p>To check your own patch, copy {@link RwsemV48}, change it, and build the model with
 * {@link RwsemOwnerFactory#create(String, RwsemVariant, kcheck.model.Params, java.util.Set)}.
 */
public interface RwsemVariant {

    /** How {@code sem->count} and {@code sem->owner} are laid out by the ported kernel version. */
    enum Encoding {
        /**
         * kernel/locking/rwsem-xadd.c (up to v5.2): {@code count = active + k * RWSEM_WAITING_BIAS};
         * owner NULL, RWSEM_READER_OWNED (v4.8) or a writer ({@link RwsemCount}).
         */
        XADD,
        /**
         * kernel/locking/rwsem.c, v5.3 to v5.10: count bit fields and a reader count; owner = task
         * pointer | RWSEM_READER_OWNED | RWSEM_RD_NONSPINNABLE | RWSEM_WR_NONSPINNABLE ({@link RwsemBits}).
         */
        BITS_RD_WR,
        /** kernel/locking/rwsem.c since v5.11: as BITS_RD_WR with one RWSEM_NONSPINNABLE bit ({@link RwsemBits}). */
        BITS
    }

    /** The encoding this code uses; {@link Encoding#XADD} unless the port says otherwise. */
    default Encoding encoding() {
        return Encoding.XADD;
    }

    /** {@code down_read(sem)}. */
    void downRead(RwSem sem);

    /** {@code up_read(sem)}. */
    void upRead(RwSem sem);

    /** {@code down_write(sem)}. */
    void downWrite(RwSem sem);

    /** {@code up_write(sem)}. */
    void upWrite(RwSem sem);

    /**
     * {@code down_read_killable(sem)}: 0 when the lock is taken, -EINTR when a fatal signal ended the wait. A port
     * without the killable paths (v4.x, v5.4 here) takes the lock uninterruptibly.
     */
    default int downReadKillable(RwSem sem) {
        downRead(sem);
        return 0;
    }

    /** {@code down_write_killable(sem)}: 0, or -EINTR. */
    default int downWriteKillable(RwSem sem) {
        downWrite(sem);
        return 0;
    }

    /**
     * True if this version has {@code RWSEM_OWNER_UNKNOWN}: a write lock held through a
     * percpu_rw_semaphore may be handed from task to task ({@code percpu_rwsem_release()} then
     * {@code percpu_rwsem_acquire()}, v5.3 to v5.7; before v5.3 the owner was a plain pointer, and
     * v5.8's percpu-rwsem no longer uses an rwsem). Parameter {@code owner-unknown} needs it.
     */
    default boolean hasOwnerUnknown() {
        return false;
    }

    /** {@code percpu_rwsem_release(sem, false, ip)} by the writer that holds the lock: owner becomes RWSEM_OWNER_UNKNOWN. */
    default void percpuRwsemRelease(RwSem sem) {
        throw new UnsupportedOperationException("percpu_rwsem_release: this version has no RWSEM_OWNER_UNKNOWN");
    }

    /** {@code percpu_rwsem_acquire(sem, false, ip)}: the task that now holds the write lock stores itself as owner. */
    default void percpuRwsemAcquire(RwSem sem) {
        throw new UnsupportedOperationException("percpu_rwsem_acquire: this version has no RWSEM_OWNER_UNKNOWN");
    }
}
