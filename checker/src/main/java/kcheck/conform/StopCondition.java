package kcheck.conform;

import java.util.function.Supplier;

/**
 * When a conform run must stop: a deadline (its time limit, or a budget such as minimisation's),
 * or a request from outside (the command line's: a signal), polled while waiting for the C.
 *
 * @param deadlineNanos  {@link System#nanoTime()} to stop at; 0 for none
 * @param deadlineReason what to call reaching it ("the time limit (60s)")
 * @param requested      non-null once asked to stop, with the reason; never null itself
 */
record StopCondition(long deadlineNanos, String deadlineReason, Supplier<String> requested) {
    static final StopCondition NEVER = new StopCondition(0, null, () -> null);

    /** Null while the run may go on; else why it must stop. */
    String reason() {
        String r = requested.get();
        if (r != null) {
            return r;
        }
        return deadlineNanos != 0 && System.nanoTime() - deadlineNanos >= 0 ? deadlineReason : null;
    }

    /** This condition, and also stop when {@code r} says so. */
    StopCondition withRequests(Supplier<String> r) {
        return new StopCondition(deadlineNanos, deadlineReason, r);
    }

    /** This condition, and also stop {@code millis} from now, for {@code why}. */
    StopCondition within(long millis, String why) {
        long d = System.nanoTime() + millis * 1_000_000;
        if (d == 0) {
            d = 1;
        }
        return deadlineNanos != 0 && deadlineNanos - d <= 0 ? this : new StopCondition(d, why, requested);
    }
}
