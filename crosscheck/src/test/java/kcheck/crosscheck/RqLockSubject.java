package kcheck.crosscheck;

import java.util.function.Supplier;

import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;

/**
 * Lincheck's test instance: Lincheck creates one per explored schedule, so each schedule runs on
 * a fresh {@link RqLockRun} (fresh locks and monitors); thread {@code c} of a scenario calls
 * {@code balance(c, busiest)}. Lincheck instantiates this class itself, so the run to build is handed over
 * in {@link #next} (the runner sets it before each check and runs one check at a time).
 */
public class RqLockSubject {
    static volatile Supplier<RqLockRun> next;

    private final RqLockRun run = next.get();

    /** CPU {@code cpu}'s balancing pass pulling from runqueue {@code busiest} (thread {@code cpu} of every scenario). */
    @Operation
    public void balance(int cpu, int busiest) {
        run.cpu(cpu, busiest);
    }

    /** Lincheck calls this after every schedule: throws the first violation a monitor recorded. */
    @Validate
    public void noViolation() {
        run.check();
    }
}
