package kcheck.cli;

import java.io.PrintStream;
import java.util.Locale;

import kcheck.engine.ProgressListener;

/**
 * Progress on stderr. On a terminal: one line rewritten in place about once a second. Otherwise
 * (a CI log, {@code 2>log}): a plain line every 10 seconds, in the style of TLC's progress
 * lines. Silent with {@code --quiet}. Also tells the search to stop after SIGINT/SIGTERM
 * ({@link Interrupts}).
 */
final class ProgressPrinter implements ProgressListener {
    /** Seconds between plain progress lines when stderr is not a terminal. */
    static final double LOG_INTERVAL = 10;

    private final PrintStream err;
    private final boolean terminal;
    private final double interval;
    private double nextLine;
    private double lastSeconds;
    private boolean printed;

    ProgressPrinter(PrintStream err, boolean terminal, double interval) {
        this.err = err;
        this.terminal = terminal;
        this.interval = interval;
        this.nextLine = interval;
    }

    /** The listener for a command: silent (but interruptible) with {@code quiet}. */
    static ProgressListener create(boolean quiet) {
        return create(quiet, LOG_INTERVAL);
    }

    static ProgressListener create(boolean quiet, double logInterval) {
        if (quiet) {
            return new ProgressListener() {
                @Override
                public void progress(Progress p) {
                }

                @Override
                public String stopRequested() {
                    return Interrupts.reason();
                }
            };
        }
        boolean tty = Terminal.isTerminal(2);
        return new ProgressPrinter(System.err, tty, tty ? 0 : logInterval);
    }

    @Override
    public void progress(Progress p) {
        double before = lastSeconds;
        lastSeconds = p.seconds();
        if (terminal) {
            err.printf(Locale.ROOT, "\r%,d states  %,.0f states/s  queue %,d  depth %d  %s  %.0fs   ", p.states(), p.statesPerSecond(),
                    p.queued(), p.depth(), Format.bytes(p.bytes()), p.seconds());
            err.flush();
            printed = true;
            return;
        }
        if (p.seconds() < before) {
            nextLine = interval; /* a new search (verify runs one per group): its clock starts again */
        }
        if (p.seconds() + 1e-9 < nextLine) {
            return;
        }
        nextLine = (Math.floor(p.seconds() / interval) + 1) * interval;
        err.println(line(p));
        err.flush();
    }

    /**
     * Phase lines are printed once the search has run this long (before it, no step is long enough
     * to announce); in a log, scaled with the progress interval (60 s for the default 10 s).
     */
    static final double PHASE_AFTER = 60;

    @Override
    public void phase(String what) {
        if (lastSeconds < (terminal ? PHASE_AFTER : PHASE_AFTER * interval / LOG_INTERVAL)) {
            return;
        }
        done(this);
        err.println("kcheck: " + what);
        err.flush();
    }

    /** The plain progress line. */
    static String line(Progress p) {
        return String.format(Locale.ROOT, "kcheck: progress at %.0f s: %,d distinct states (%,.0f/s), %,d transitions, queue %,d, "
                + "depth %d, store %s", p.seconds(), p.states(), p.statesPerSecond(), p.transitions(), p.queued(), p.depth(),
                Format.bytes(p.bytes()));
    }

    @Override
    public String stopRequested() {
        return Interrupts.reason();
    }

    /** Clears the in-place line once the search has ended. */
    static void done(ProgressListener l) {
        if (l instanceof ProgressPrinter pp && pp.printed) {
            pp.err.print("\r" + " ".repeat(100) + "\r");
            pp.err.flush();
            pp.printed = false;
        }
    }
}
