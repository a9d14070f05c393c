package kcheck.cli;

import sun.misc.Signal;

/**
 * SIGINT and SIGTERM during a search: the first asks the search to stop and report what it has
 * (verdicts so far, violations with their traces, exit 3); a second one ends the process at once.
 * Installed by {@link Main#main} only (tests run the command line in-process).
 */
public final class Interrupts {
    private static volatile String reason;

    private Interrupts() {
    }

    static void install() {
        for (String name : new String[] {"INT", "TERM"}) {
            try {
                Signal.handle(new Signal(name), s -> {
                    if (reason != null) {
                        Runtime.getRuntime().halt(128 + s.getNumber());
                    }
                    reason = "interrupted (SIG" + s.getName() + ")";
                    System.err.println();
                    System.err.println("kcheck: SIG" + s.getName() + ": stopping the search and printing what it found so far "
                            + "(again to quit at once)");
                });
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // this platform does not let us handle it: the JVM's default applies
            }
        }
    }

    /** Non-null once a signal asked the search to stop: the reason ("interrupted (SIGINT)"). */
    public static String reason() {
        return reason;
    }

    /** For tests: as if a signal had arrived (null: none). */
    static void set(String r) {
        reason = r;
    }
}
