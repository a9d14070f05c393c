package kcheck.model.rqlock.threads;

import kcheck.model.threads.WaitAbandoned;

/**
 * Hooks through which a check watches CPUs run the reference code on {@link AtomicRqLocks}. Each
 * hook runs on the CPU's own thread, next to the lock step it names: {@link #waits} right after
 * the step that starts a wait (a ticket taken; for a test-and-set lock, before its first
 * attempt), {@link #acquired} right after the step that takes a lock, {@link #releasing} right
 * before the step that releases one. All default to doing nothing.
 */
public interface LockObserver {
    /** Observes nothing. */
    LockObserver NONE = new LockObserver() {
    };

    /** {@code cpu} starts waiting for {@code rq} in {@code spin_lock}. */
    default void waits(int cpu, int rq) {
    }

    /** {@code cpu} has taken {@code rq} (by {@code spin_lock} or a successful {@code spin_trylock}). */
    default void acquired(int cpu, int rq) {
    }

    /** {@code cpu} is about to release {@code rq}. */
    default void releasing(int cpu, int rq) {
    }

    /** {@code cpu} calls {@code double_lock_balance(this_rq, busiest)}. */
    default void entering(int cpu, int thisRq, int busiest) {
    }

    /** {@code cpu}'s {@code double_lock_balance(this_rq, busiest)} returned {@code ret}. */
    default void returned(int cpu, int thisRq, int busiest, int ret) {
    }

    /**
     * Asked on every iteration of a spin loop: true once the check has seen what it was looking
     * for (a violation) and waiting CPUs should give up with {@link WaitAbandoned} rather than
     * wait for a CPU that may never release its lock.
     */
    default boolean stopWaiting() {
        return false;
    }
}
