package kcheck.model.rqlock;

/**
 * The runqueue-lock primitives the reference code calls: {@code spin_lock}, {@code spin_trylock}
 * and {@code spin_unlock} on {@code cpu_rq(rq)->lock} (2.6.2x), and {@code raw_spin_rq_lock},
 * {@code raw_spin_rq_trylock}, {@code raw_spin_rq_unlock}, {@code __rq_lockp}, {@code rq->core}
 * (v5.14 and later). Runqueues are named by CPU id; the lock order is by id (the kernel orders by
 * rq address, which follows the CPU id).
 *
 * <p>Three implementations run the same reference code: the recorder that turns it into the
 * explicit-state model's program ({@link RqLockProgram}), and real-thread locks for the
 * JVM-thread cross-check.
 */
public interface RqLocks {

    /** {@code spin_lock(&rq->lock)}. */
    void spinLock(int rq);

    /** {@code spin_trylock(&rq->lock)}: true if the lock was taken. */
    boolean spinTrylock(int rq);

    /** {@code spin_unlock(&rq->lock)}. */
    void spinUnlock(int rq);

    /** {@code spin_lock_nested(&rq->lock, subclass)}: a {@code spin_lock} with a lockdep subclass. */
    default void spinLockNested(int rq, int subclass) {
        spinLock(rq);
    }

    /** {@code lock_set_subclass(&lock->dep_map, subclass, _RET_IP_)}: lockdep only, no lock operation. */
    default void lockSetSubclass(int rq, int subclass) {
    }

    /**
     * {@code double_rq_clock_clear_update(rq1, rq2)} (v5.19+): clears {@code RQCF_UPDATED} of both
     * runqueues' {@code clock_update_flags}, no lock operation.
     */
    default void doubleRqClockClearUpdate(int rq1, int rq2) {
    }

    /**
     * {@code CONFIG_PREEMPT} (2.6.28) / {@code CONFIG_PREEMPTION} (v6.12): which body of
     * {@code double_lock_balance} the kernel was built with (the model's {@code preempt} parameter).
     */
    default boolean configPreempt() {
        return true;
    }

    /**
     * {@code __rq_lockp(rq)}: the runqueue whose lock {@code rq} uses: itself, or with core
     * scheduling the core's ({@code &rq->core->__lock}).
     */
    default int rqLockp(int rq) {
        return rq;
    }

    /** {@code rq->core->cpu}: the first CPU of {@code rq}'s core (itself without core scheduling). */
    default int coreOf(int rq) {
        return rq;
    }

    /** {@code raw_spin_rq_lock_nested(rq, subclass)}: locks {@code __rq_lockp(rq)} (v5.14+; {@code raw_spin_rq_lock} is subclass 0). */
    default void rawSpinRqLockNested(int rq, int subclass) {
        spinLockNested(rqLockp(rq), subclass);
    }

    /** {@code raw_spin_rq_trylock(rq)}. */
    default boolean rawSpinRqTrylock(int rq) {
        return spinTrylock(rqLockp(rq));
    }

    /** {@code raw_spin_rq_unlock(rq)}. */
    default void rawSpinRqUnlock(int rq) {
        spinUnlock(rqLockp(rq));
    }

    /**
     * Where the next primitive is in the kernel's source, for code that is not a Java port (the
     * tree's compiled C replayed: {@code kcheck check rq-lock --kernel-tree}); a port's primitives
     * are cited from its {@code @Kernel} annotations instead.
     */
    default void source(String citation) {
    }
}
