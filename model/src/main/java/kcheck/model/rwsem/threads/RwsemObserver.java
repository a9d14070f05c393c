package kcheck.model.rwsem.threads;

import kcheck.model.threads.WaitAbandoned;

/**
 * Hooks through which a check watches tasks run the reference code on {@link ThreadRwSem}. Each
 * hook runs on the task's own thread, inside the {@code RwSem} call it names, right after the
 * shared access that call makes (a check that needs the hook and the access to be one step, as
 * in the model, runs the hooks without scheduling points, e.g. Lincheck's {@code ignore}
 * guarantee). All default to doing nothing.
 */
public interface RwsemObserver {
    /** Observes nothing. */
    RwsemObserver NONE = new RwsemObserver() {
    };

    /** {@code task} loaded {@code count} ({@code atomic_long_read}). */
    default void countLoaded(int task, long count) {
    }

    /** Annotation {@code lockAcquired()}: {@code task} holds the lock from its last count step. */
    default void lockAcquired(int task) {
    }

    /** Annotation {@code lockReleased()}: {@code task} released the lock in its last count step. */
    default void lockReleased(int task) {
    }

    /** {@code waker} granted the read lock to the queued readers {@code readers} (their {@code waiter->task = NULL}). */
    default void readersGranted(int waker, int[] readers) {
    }

    /** {@code task}'s count step changed {@code sem->count} from {@code before} to {@code after}. */
    default void countChanged(int task, long before, long after) {
    }

    /** {@code task} loaded sem->owner. */
    default void ownerLoaded(int task, long owner) {
    }

    /** {@code task} stored {@code owner} in sem->owner. */
    default void ownerStored(int task, long owner) {
    }

    /** {@code task} took the osq (it is now the spinner). */
    default void osqTaken(int task) {
    }

    /** {@code task} released the osq. */
    default void osqReleased(int task) {
    }

    /** {@code task} calls {@code function} of its workload ({@code down_read}, {@code up_read}, {@code down_write}, {@code up_write}). */
    default void entering(int task, String function) {
    }

    /** {@code task}'s {@code function} returned. */
    default void returned(int task, String function) {
    }

    /**
     * Asked on every iteration of a wait or spin loop: true once the check has seen what it was
     * looking for, and waiting tasks should give up with {@link WaitAbandoned}.
     */
    default boolean stopWaiting() {
        return false;
    }
}
