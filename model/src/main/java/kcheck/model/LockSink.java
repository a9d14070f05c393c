package kcheck.model;

/**
 * Receives who holds and who waits for each lock of a decoded state: what the lock lane chart of
 * a trace draws (per lock, over the steps: the holder, and the waiters in the order they will be
 * served). Actors are indices into {@link Model#actors()}.
 */
@FunctionalInterface
public interface LockSink {

    /**
     * Lock {@code name} (as the trace's fields name it, e.g. {@code rq0}): its holders and its
     * waiters. {@code ordered}: the waiters are listed in the order the lock will serve them (a
     * ticket or queued lock); false for a lock with no such order (test-and-set).
     */
    void lock(String name, int[] holders, int[] waiters, boolean ordered);
}
