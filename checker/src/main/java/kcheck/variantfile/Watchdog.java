package kcheck.variantfile;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The run-time half of the guard around a variant file (the other halves: {@link StaticCheck} at
 * compile time, the CLI's shutdown hook for a JVM exit). Every call from kcheck into a variant
 * file's model ({@link GuardedModel}: the expansion of one state, the initial states, building
 * the model) is a <em>section</em> of the calling thread; a daemon thread samples the sections
 * every 100 ms. A section that has not returned after the step budget ({@code --step-timeout},
 * default 10 s) while the thread runs the variant's or the model's code is reported as an error of
 * the file naming the stuck frame; a section still running a few seconds past the search's
 * {@code --time-limit} ends the run INCOMPLETE. Java cannot stop a thread that loops, so both
 * reports end the JVM (the CLI's {@link Handler} prints, then halts with exit 2 or 3).
 *
 * <p>Cost: two ordered stores and a thread-local lookup per call into the variant's model, for
 * variant files only; the built-in variants are not wrapped, so the engine's inner loop is
 * untouched for them.
 */
public final class Watchdog {
    /** Default budget of one call into a variant file's code. */
    public static final Duration DEFAULT_STEP_TIMEOUT = Duration.ofSeconds(10);
    /** How long past the time limit a running step is given before the run is ended. */
    public static final Duration GRACE = Duration.ofSeconds(2);
    private static final long PERIOD_MS = 100;

    /** What tripped. */
    public enum Kind {
        /** One call into the variant's code ran longer than the step budget. */
        STEP_TIMEOUT,
        /** The time limit passed while a call into the variant's code was still running. */
        TIME_LIMIT
    }

    /**
     * A trip: the stuck thread's stack, how long the call has run, and the frame of the variant
     * file it is in (null if it is in model code).
     */
    public record Trip(Kind kind, Thread thread, StackTraceElement[] stack, double seconds, VariantFile.Frame frame,
                       VariantFile file, Duration budget) {
    }

    /** Receives a trip; must not return normally in a CLI (it halts the JVM). */
    @FunctionalInterface
    public interface Handler {
        void trip(Trip t);
    }

    /** One thread's calls into variant code: {@code calls} counts entries, {@code depth} > 0 while inside. */
    static final class Section {
        private static final VarHandle CALLS;
        private static final VarHandle DEPTH;

        static {
            try {
                MethodHandles.Lookup l = MethodHandles.lookup();
                CALLS = l.findVarHandle(Section.class, "calls", long.class);
                DEPTH = l.findVarHandle(Section.class, "depth", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final Thread thread;
        volatile VariantFile file;
        @SuppressWarnings("unused")
        private long calls;
        @SuppressWarnings("unused")
        private int depth;
        /* the watchdog's own bookkeeping (its thread only) */
        long seenCalls = -1;
        long seenSince;

        Section(Thread thread) {
            this.thread = thread;
        }

        void enter(VariantFile f) {
            if (file != f) {
                file = f;
            }
            CALLS.setRelease(this, (long) CALLS.getOpaque(this) + 1);
            DEPTH.setRelease(this, (int) DEPTH.getOpaque(this) + 1);
        }

        void exit() {
            DEPTH.setRelease(this, (int) DEPTH.getOpaque(this) - 1);
        }

        long calls() {
            return (long) CALLS.getAcquire(this);
        }

        boolean inside() {
            return (int) DEPTH.getAcquire(this) > 0;
        }
    }

    private static final ThreadLocal<Section> CURRENT = ThreadLocal.withInitial(() -> {
        Section s = new Section(Thread.currentThread());
        sections().add(s);
        start();
        return s;
    });
    private static final Set<Section> SECTIONS = ConcurrentHashMap.newKeySet();
    private static volatile long stepTimeoutNanos = DEFAULT_STEP_TIMEOUT.toNanos();
    private static volatile long deadlineNanos = Long.MAX_VALUE;
    private static volatile Duration timeLimit;
    private static volatile Handler handler = Watchdog::haltWithMessage;
    private static volatile Thread thread;

    private Watchdog() {
    }

    private static Set<Section> sections() {
        return SECTIONS;
    }

    /** The calling thread's section. */
    static Section current() {
        return CURRENT.get();
    }

    /** The budget of one call into variant code (the CLI's {@code --step-timeout}). */
    public static void stepTimeout(Duration d) {
        stepTimeoutNanos = d.toNanos();
    }

    public static Duration stepTimeout() {
        return Duration.ofNanos(stepTimeoutNanos);
    }

    /**
     * A search with {@code limit} (null: none) starts now: a call into variant code still running
     * {@link #GRACE} after it ends the run. {@link #clearTimeLimit()} when the search returns.
     */
    public static void timeLimit(Duration limit) {
        timeLimit = limit;
        deadlineNanos = limit == null ? Long.MAX_VALUE : System.nanoTime() + limit.toNanos() + GRACE.toNanos();
    }

    public static void clearTimeLimit() {
        deadlineNanos = Long.MAX_VALUE;
        timeLimit = null;
    }

    /** The time limit of the running search (null: none). */
    public static Duration timeLimit() {
        return timeLimit;
    }

    /** Who reports a trip (the CLI: one line, the --json document, then halt). */
    public static void handler(Handler h) {
        handler = h;
    }

    private static synchronized void start() {
        if (thread != null) {
            return;
        }
        Thread t = new Thread(Watchdog::loop, "kcheck-watchdog");
        t.setDaemon(true);
        t.start();
        thread = t;
    }

    private static void loop() {
        while (true) {
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
            sample(System.nanoTime());
        }
    }

    /** One look at every section. */
    static void sample(long now) {
        for (Section s : SECTIONS) {
            if (!s.thread.isAlive()) {
                SECTIONS.remove(s);
                continue;
            }
            if (!s.inside()) {
                s.seenCalls = -1;
                continue;
            }
            long calls = s.calls();
            if (calls != s.seenCalls) {
                s.seenCalls = calls;
                s.seenSince = now;
            }
            long running = now - s.seenSince;
            boolean late = now > deadlineNanos;
            if (running < stepTimeoutNanos && !late) {
                continue;
            }
            StackTraceElement[] stack = s.thread.getStackTrace();
            if (!inVariantOrModelCode(stack, s.file)) {
                /* kcheck's own code (the store, a trace link) is not charged to the variant */
                s.seenSince = now;
                continue;
            }
            VariantFile f = s.file;
            Kind kind = late ? Kind.TIME_LIMIT : Kind.STEP_TIMEOUT;
            handler.trip(new Trip(kind, s.thread, stack, running / 1e9, f == null ? null : f.frame(stack), f,
                    kind == Kind.TIME_LIMIT ? timeLimit : stepTimeout()));
        }
    }

    /** The innermost frame outside the JDK is the variant's or a model's. */
    static boolean inVariantOrModelCode(StackTraceElement[] stack, VariantFile f) {
        for (StackTraceElement e : stack) {
            String c = e.getClassName();
            if (c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("sun.") || c.startsWith("kcheck.variantfile.")) {
                continue;
            }
            return (f != null && f.owns(c)) || c.startsWith("kcheck.model.") || !c.startsWith("kcheck.");
        }
        return false;
    }

    /** Without a CLI handler: the one line on stderr, then the JVM ends (a looping thread cannot be stopped). */
    private static void haltWithMessage(Trip t) {
        System.err.println("kcheck: " + describe(t));
        System.err.flush();
        Runtime.getRuntime().halt(t.kind() == Kind.TIME_LIMIT ? 3 : 2);
    }

    /** One line: where the variant is stuck and for how long. */
    public static String describe(Trip t) {
        String where = t.frame() != null ? t.frame().where()
                : (t.file() != null ? t.file().shown() + ": variant " + t.file().variantName() + ": in model code at "
                + firstKcheckFrame(t.stack()) : "in " + firstKcheckFrame(t.stack()));
        String secs = String.format(java.util.Locale.ROOT, "%.1f s", t.seconds());
        if (t.kind() == Kind.TIME_LIMIT) {
            return where + ": still running one step when the time limit " + kcheck.engine.Durations.format(t.budget())
                    + " passed (this step has run " + secs + "): INCOMPLETE, no verdict";
        }
        return where + ": one step has not returned after " + secs + " (an endless loop?); no verdict (if it is only slow, "
                + "raise --step-timeout, now " + kcheck.engine.Durations.format(t.budget()) + ")";
    }

    private static String firstKcheckFrame(StackTraceElement[] stack) {
        for (StackTraceElement e : stack) {
            if (!e.getClassName().startsWith("java.") && !e.getClassName().startsWith("jdk.")) {
                return e.getFileName() + ":" + e.getLineNumber() + " (" + e.getClassName() + "." + e.getMethodName() + ")";
            }
        }
        return "?";
    }
}
