package kcheck.cli;

import java.io.PrintStream;

import kcheck.engine.ProgressListener;

/**
 * The progress line on stderr: states, states/s, queue, depth, memory, rewritten in place about
 * once a second. Silent when stderr is not a terminal or with {@code --quiet}.
 */
final class ProgressPrinter implements ProgressListener {
    private final PrintStream err;
    private boolean printed;

    private ProgressPrinter(PrintStream err) {
        this.err = err;
    }

    static ProgressListener create(boolean quiet) {
        if (quiet || System.console() == null || "dumb".equals(System.getenv("TERM"))) {
            return ProgressListener.NONE;
        }
        return new ProgressPrinter(System.err);
    }

    @Override
    public void progress(Progress p) {
        err.printf("\r%,d states  %,.0f states/s  queue %,d  depth %d  %s  %.0fs   ", p.states(), p.statesPerSecond(),
                p.queued(), p.depth(), Format.bytes(p.bytes()), p.seconds());
        err.flush();
        printed = true;
    }

    /** Clears the line once the search has ended. */
    static void done(ProgressListener l) {
        if (l instanceof ProgressPrinter pp && pp.printed) {
            pp.err.print("\r" + " ".repeat(100) + "\r");
            pp.err.flush();
        }
    }
}
