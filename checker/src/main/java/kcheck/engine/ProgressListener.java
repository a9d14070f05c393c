package kcheck.engine;

/** Receives the search's progress about once a second. The engine itself never prints. */
@FunctionalInterface
public interface ProgressListener {
    ProgressListener NONE = p -> { };

    void progress(Progress p);

    /** The disk search wrote a checkpoint into {@code dir} (at {@code states} states, BFS depth {@code depth}), taking {@code seconds}. */
    default void checkpoint(java.nio.file.Path dir, long states, int depth, double seconds) {
    }

    /**
     * The search starts a long step between progress lines (the disk search checking a level
     * against its key runs, or moving a full RAM table to disk: minutes at 10^9 states), so that
     * a user watching the log knows it is working. {@code what} is one line of text.
     */
    default void phase(String what) {
    }

    /**
     * Polled by the search as often as its time limit: non-null asks it to stop now, with this
     * reason, and report what it has (INCOMPLETE, violations found so far keep their traces).
     * The command line returns non-null after SIGINT or SIGTERM.
     */
    default String stopRequested() {
        return null;
    }

    /** A snapshot: distinct states, transitions, states waiting, current depth, seconds, bytes used. */
    record Progress(long states, long transitions, long queued, int depth, double seconds, long bytes) {
        public double statesPerSecond() {
            return seconds > 0 ? states / seconds : 0;
        }
    }
}
