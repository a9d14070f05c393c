package kcheck.cli;

import java.util.List;
import java.util.Map;

import kcheck.engine.Durations;
import kcheck.variantfile.VariantFile;
import kcheck.variantfile.Watchdog;

/**
 * How the JVM ends: through {@link #exit} only. A shutdown hook catches any other exit (a
 * {@code System.exit} in a variant file that the static check did not see, or in a library):
 * it names the caller, prints the error (and the --json document) and halts with exit 2, so an
 * exit can never read as a verdict. A signal (Ctrl-C, {@code kill}) is left alone.
 * {@code Runtime.halt} runs no hook: only the static check stops it.
 */
final class ExitGuard {
    private ExitGuard() {
    }

    static void install() {
        Runtime.getRuntime().addShutdownHook(new Thread(ExitGuard::unexpectedExit, "kcheck-exit-guard"));
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            if (!(e instanceof OutOfMemoryError)) {
                ErrorReport.internal(e, "in thread " + t.getName());
            }
        });
    }

    /** kcheck's own way out. */
    static void exit(int code) {
        Session.exiting = true;
        System.out.flush();
        System.err.flush();
        System.exit(code);
    }

    /** The shutdown hook: an exit kcheck did not initiate. */
    static void unexpectedExit() {
        if (Session.exiting) {
            return;
        }
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            StackTraceElement[] st = e.getValue();
            if (!has(st, "java.lang.Shutdown", "exit")) {
                continue;
            }
            if (has(st, "java.lang.Terminator", null)) {
                return;
            }
            VariantFile.Frame f = VariantFile.anyFrame(st);
            String call = has(st, "java.lang.System", "exit") ? "System.exit" : "Runtime.exit";
            if (f != null) {
                ErrorReport.print(ErrorReport.Kind.VARIANT_FILE, ExitCodes.USAGE, f.where() + ": calls " + call
                        + ", which a variant may not do (a variant is one kernel function: it may not end the JVM); no verdict",
                        List.of(), f, null, null);
            } else {
                Throwable where = new IllegalStateException(call + " called outside kcheck's exit path, in thread " + e.getKey().getName());
                where.setStackTrace(st);
                ErrorReport.internal(where, "the JVM was ended by code other than kcheck's");
            }
            System.out.flush();
            System.err.flush();
            Runtime.getRuntime().halt(ExitCodes.USAGE);
        }
    }

    private static boolean has(StackTraceElement[] st, String cls, String method) {
        for (StackTraceElement e : st) {
            if (e.getClassName().startsWith(cls) && (method == null || e.getMethodName().equals(method))) {
                return true;
            }
        }
        return false;
    }

    /** The watchdog's report: a stuck step (exit 2) or a time limit passed in variant code (exit 3, INCOMPLETE). */
    static void tripped(Watchdog.Trip t) {
        boolean limit = t.kind() == Watchdog.Kind.TIME_LIMIT;
        int code = limit ? ExitCodes.INCOMPLETE : ExitCodes.USAGE;
        ErrorReport.print(limit ? ErrorReport.Kind.TIME_LIMIT : ErrorReport.Kind.VARIANT_FILE, code, Watchdog.describe(t), List.of(),
                t.frame(), null, limit ? "time limit " + Durations.format(t.budget()) : null);
        Session.exiting = true;
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(code);
    }
}
