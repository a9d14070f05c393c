package kcheck.model.rqlock;

/**
 * The runqueue-lock primitives the reference code calls: {@code spin_lock}, {@code spin_trylock}
 * and {@code spin_unlock} on {@code cpu_rq(rq)->lock}. Runqueues are named by CPU id; the lock
 * order is by id (the kernel orders by rq address, which follows the CPU id).
 *
 * <p>Three implementations run the same reference code: the recorder that turns it into the
 * explicit-state model's program ({@link RqLockProgram}), and real-thread locks for the
 * JVM-thread cross-check.
 */
public interface RqLocks {

    /** {@code spin_lock(&rq->lock)} (also {@code spin_lock_nested}: lockdep annotation only). */
    void spinLock(int rq);

    /** {@code spin_trylock(&rq->lock)}: true if the lock was taken. */
    boolean spinTrylock(int rq);

    /** {@code spin_unlock(&rq->lock)}. */
    void spinUnlock(int rq);
}
