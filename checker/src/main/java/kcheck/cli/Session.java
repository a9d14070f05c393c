package kcheck.cli;

import java.util.List;

/**
 * The command this JVM runs, as the error paths outside the command's own code need it (the
 * exception handlers, the watchdog, the shutdown hook): whether {@code --json} was asked for,
 * which command, and whether kcheck itself is ending the JVM.
 */
final class Session {
    static volatile boolean json;
    static volatile String command = "";
    static volatile List<String> args = List.of();
    /** Set by kcheck's own exit path: any other JVM exit was not kcheck's. */
    static volatile boolean exiting;
    /** The command has printed its --json document: an error after that prints no second one. */
    static volatile boolean documentPrinted;
    /** An error report has been printed (the watchdog or the hook may race with the main thread). */
    static volatile boolean errorReported;

    /** Freed on OutOfMemoryError so that the message can still be formatted and printed. */
    private static volatile byte[] reserve;

    private Session() {
    }

    static void start(String... argv) {
        reserve = new byte[128 * 1024];
        args = List.of(argv);
        int f = args.indexOf("--format");
        json = args.contains("--json") || args.contains("--format=json") || (f >= 0 && f + 1 < args.size() && args.get(f + 1).equals("json"));
        command = args.stream().filter(a -> !a.startsWith("-")).findFirst().orElse("");
        documentPrinted = false;
        errorReported = false;
    }

    static void releaseReserve() {
        reserve = null;
    }

    /** check, verify and bench search: memory running out there leaves the result INCOMPLETE. */
    static boolean searching() {
        return command.equals("check") || command.equals("verify") || command.equals("bench");
    }
}
