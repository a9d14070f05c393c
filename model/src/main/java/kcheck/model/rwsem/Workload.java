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
        if (rounds == 0) {
            while (true) {
                atStart = true;
            v.downRead(sem);
            inCs = true;
                /* critical section */
                v.upRead(sem);
            }
        }
        for (round = 0; round < rounds; round++) {
            atStart = true;
            v.downRead(sem);
            inCs = true;
            /* critical section */
            v.upRead(sem);
        }
    }

    void writer(RwsemVariant v, RwSem sem, int rounds) {
        if (rounds == 0) {
            while (true) {
                atStart = true;
                v.downWrite(sem);
                inCs = true;
                /* critical section */
                v.upWrite(sem);
            }
        }
        for (round = 0; round < rounds; round++) {
            atStart = true;
            v.downWrite(sem);
            inCs = true;
            /* critical section */
            v.upWrite(sem);
        }
    }
}
