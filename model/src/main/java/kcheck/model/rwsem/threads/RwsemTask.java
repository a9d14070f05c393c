package kcheck.model.rwsem.threads;

import kcheck.model.rwsem.RwSem;
import kcheck.model.rwsem.RwsemVariant;

/**
 * One task's workload on real threads, as the model's: a reader takes and drops the lock for
 * reading, a writer for writing, {@code rounds} times; the critical section is empty.
 */
public final class RwsemTask {
    private RwsemTask() {
    }

    /** Runs task {@code task}'s rounds through {@code v} (an instance of its own) on {@code sem}. */
    public static void run(RwsemVariant v, RwSem sem, RwsemObserver observer, int task, boolean writer, int rounds) {
        for (int round = 0; round < rounds; round++) {
            lock(v, sem, observer, task, writer);
            /* critical section */
            unlock(v, sem, observer, task, writer);
        }
    }

    /** {@code down_write} (writer) or {@code down_read}. */
    public static void lock(RwsemVariant v, RwSem sem, RwsemObserver observer, int task, boolean writer) {
        String f = writer ? "down_write" : "down_read";
        observer.entering(task, f);
        if (writer) {
            v.downWrite(sem);
        } else {
            v.downRead(sem);
        }
        observer.returned(task, f);
    }

    /** {@code up_write} (writer) or {@code up_read}. */
    public static void unlock(RwsemVariant v, RwSem sem, RwsemObserver observer, int task, boolean writer) {
        String f = writer ? "up_write" : "up_read";
        observer.entering(task, f);
        if (writer) {
            v.upWrite(sem);
        } else {
            v.upRead(sem);
        }
        observer.returned(task, f);
    }
}
