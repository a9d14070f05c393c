package kcheck.crosscheck;

import java.util.function.Supplier;

import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;

/**
 * Lincheck's test instance for rwsem-owner: a fresh {@link RwsemRun} per schedule; thread
 * {@code t} calls {@code task(t)}. The run to build is handed over in {@link #next} (the runner
 * sets it before each check and runs one check at a time).
 */
public class RwsemSubject {
    static volatile Supplier<RwsemRun> next;

    private final RwsemRun run = next.get();

    /** Task {@code t}'s workload (readers first, then writers, as in the model). */
    @Operation
    public void task(int t) {
        run.task(t);
    }

    /** Task {@code t}'s down_read/down_write alone. */
    @Operation
    public void lock(int t) {
        run.lock(t);
    }

    /** Task {@code t}'s up_read/up_write alone. */
    @Operation
    public void unlock(int t) {
        run.unlock(t);
    }

    /** Task {@code t}'s up_read/up_write once it holds the lock. */
    @Operation
    public void unlockWhenHeld(int t) {
        run.unlockWhenHeld(t);
    }

    /** Lincheck calls this after every schedule: throws the first violation a monitor recorded. */
    @Validate
    public void noViolation() {
        run.check();
    }
}
