package kcheck.engine;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * When a run must stop: its time limit has passed, or a stop was asked for from outside (the
 * command line's SIGINT or SIGTERM, through {@link ProgressListener#stopRequested}). One per run,
 * started with it and shared by every phase that follows: the search, the cycle analysis,
 * rebuilding traces, the second search for the shortest counterexamples, the minimisation of a
 * random walk's counterexample. Each phase polls {@link #reason} (a clock read and the listener's
 * answer) every few thousand states; what it has not decided by then stays INCOMPLETE.
 */
public final class Deadline {
    /** A run without a time limit that no one can stop. */
    public static final Deadline NONE = new Deadline(null, () -> null, () -> 0L);

    private final Duration limit;
    private final Supplier<String> requested;
    private final LongSupplier clock;
    private final long atNanos;

    /**
     * A deadline {@code limit} after now on {@code clock} (nanoseconds; null limit: none), or as
     * soon as {@code requested} gives a reason (null: no one asks).
     */
    public Deadline(Duration limit, Supplier<String> requested, LongSupplier clock) {
        this.limit = limit;
        this.requested = requested;
        this.clock = clock;
        this.atNanos = limit == null ? Long.MAX_VALUE : clock.getAsLong() + limit.toNanos();
    }

    /** The deadline of a run starting now with {@code options}: their time limit, their listener's stop requests. */
    public static Deadline start(Options options) {
        ProgressListener l = options.listener();
        return new Deadline(options.timeLimit(), l::stopRequested, System::nanoTime);
    }

    /** Null while the run may go on; else why it must stop ("time limit 1m", "interrupted (SIGINT)"). */
    public String reason() {
        String r = requested.get();
        if (r != null) {
            return r;
        }
        if (limit != null && clock.getAsLong() - atNanos > 0) {
            return "time limit " + Durations.format(limit);
        }
        return null;
    }

    /** True once the run must stop. */
    public boolean passed() {
        return reason() != null;
    }

    /**
     * A listener that reports nothing and asks to stop when this deadline passes: for a search
     * that runs inside this run (the second search for shortest counterexamples), so that it
     * stops with it rather than start a time limit of its own.
     */
    public ProgressListener asListener() {
        return new ProgressListener() {
            @Override
            public void progress(Progress p) {
            }

            @Override
            public String stopRequested() {
                return reason();
            }
        };
    }
}
