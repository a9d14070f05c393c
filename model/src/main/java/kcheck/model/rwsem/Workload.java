package kcheck.model.rwsem;

/**
 * What each task of the model does: a reader takes and drops the lock for reading, a writer
 * for writing, forever ({@code rounds == 0}: a cyclic workload, so that a spinner that never
 * stops is a cycle of the state graph) or {@code rounds} times. The critical section is empty:
 * a task in it is about to call {@code up_read}/{@code up_write}.
 */
final class Workload {
    /** The round being run (bounded workloads only). */
    int round;
    /** Set when a down_read/down_write call starts, cleared by its first operation: the task is idle there. */
    boolean atStart;
    /**
     * Set when down_read/down_write returns, cleared by the first operation of up_read/up_write: the task is in
     * its critical section, where it runs with preemption enabled (whatever the unlock path disables first).
     */
    boolean inCs;

    void reader(RwsemVariant v, RwSem sem, int rounds) {
        reader(v, sem, rounds, false);
    }

    void writer(RwsemVariant v, RwSem sem, int rounds) {
        writer(v, sem, rounds, false);
    }

    /** A killable task takes the lock with down_read_killable(); when it returns -EINTR the round has no critical section. */
    void reader(RwsemVariant v, RwSem sem, int rounds, boolean killable) {
        for (round = 0; rounds == 0 || round < rounds; round = rounds == 0 ? 0 : round + 1) {
            atStart = true;
            if (killable ? v.downReadKillable(sem) != 0 : downRead(v, sem)) {
                continue;                                           /* -EINTR: the lock was not taken */
            }
            inCs = true;
            /* critical section */
            v.upRead(sem);
        }
    }

    /** A killable task takes the lock with down_write_killable(); when it returns -EINTR the round has no critical section. */
    void writer(RwsemVariant v, RwSem sem, int rounds, boolean killable) {
        writer(v, sem, rounds, killable, false);
    }

    /**
     * As above; with {@code handsOff} the critical section is a percpu_rw_semaphore's write side
     * handed between tasks (v5.3 to v5.7: {@code percpu_rwsem_release()}, as freeze_super() does
     * before returning to user space, then {@code percpu_rwsem_acquire()} by the task that
     * continues): the owner is RWSEM_OWNER_UNKNOWN in between. The model's task does both, so the
     * lock is released by the task that took it, as with any other writer.
     */
    void writer(RwsemVariant v, RwSem sem, int rounds, boolean killable, boolean handsOff) {
        for (round = 0; rounds == 0 || round < rounds; round = rounds == 0 ? 0 : round + 1) {
            atStart = true;
            if (killable ? v.downWriteKillable(sem) != 0 : downWrite(v, sem)) {
                continue;
            }
            inCs = true;
            /* critical section */
            if (handsOff) {
                v.percpuRwsemRelease(sem);
                inCs = true;                                        /* still in the critical section, preemptible */
                v.percpuRwsemAcquire(sem);
                inCs = true;
            }
            v.upWrite(sem);
        }
    }

    private static boolean downRead(RwsemVariant v, RwSem sem) {
        v.downRead(sem);
        return false;
    }

    private static boolean downWrite(RwsemVariant v, RwSem sem) {
        v.downWrite(sem);
        return false;
    }
}
