package kcheck.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a short run's time goes, for {@code kcheck bench --startup}: with
 * {@code KCHECK_STARTUP_TRACE=FILE} in the environment, {@link Main#main} records the milliseconds
 * from its entry to each phase's end (the command line parsed, the model set up, the search done,
 * the exit) and writes them to FILE as {@code phase ms} lines when it exits. Without the variable
 * nothing is recorded. The time before {@code main} (the JVM's own start) is the process's wall
 * time less the {@code exit} mark, which only the bench that started the process knows.
 */
final class StartupClock {
    static final String ENV = "KCHECK_STARTUP_TRACE";
    /** The marks main and {@code check} record, in the order they are reached; {@code exit} is always last. */
    static final java.util.List<String> MARKS_IN_ORDER = java.util.List.of("parsed", "model", "searched", "exit");
    private static final String FILE = System.getenv(ENV);
    private static long start;
    private static final StringBuilder MARKS = new StringBuilder();

    private StartupClock() {
    }

    /** Called first thing in {@code main}. */
    static void start() {
        start = System.nanoTime();
    }

    /** The end of a phase: {@code parsed}, {@code model}, {@code searched}. */
    static void mark(String phase) {
        if (FILE != null && start != 0) {
            MARKS.append(phase).append(' ').append((System.nanoTime() - start) / 1_000_000.0).append('\n');
        }
    }

    /** Called by {@code main} just before the JVM exits: writes the marks and {@code exit}. */
    static void finish() {
        if (FILE == null || start == 0) {
            return;
        }
        mark("exit");
        try {
            Files.writeString(Path.of(FILE), MARKS);
        } catch (IOException | RuntimeException e) {
            /* a measurement aid: a file that cannot be written costs the bench its breakdown, never the run */
        }
    }
}
