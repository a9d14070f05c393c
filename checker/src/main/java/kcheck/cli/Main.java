package kcheck.cli;

import java.io.PrintWriter;

import kcheck.model.ModelInputException;
import kcheck.trace.TraceFormatException;
import kcheck.variantfile.VariantFileException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code kcheck} command line. Exit codes: 0 all checked properties hold (verify: all as the
 * baseline), 1 a property is violated (verify: a verdict differs), 2 usage or input error (one
 * line on stderr, never a stack trace), 3 a limit was hit before the search was exhaustive.
 */
@Command(name = "kcheck", mixinStandardHelpOptions = true, version = "kcheck 0.1.0",
        description = "Verification suite for Linux kernel scheduling and locking patches.",
        subcommands = {ListCommand.class, CheckCommand.class, VerifyCommand.class, ReplayCommand.class, RenderCommand.class,
            BenchCommand.class, VariantCommand.class, kcheck.conform.ConformCommand.class})
public final class Main implements Runnable {

    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this), "missing command: list, check, verify, replay, render, bench or variant");
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code (for tests and the launcher). */
    public static int run(String... args) {
        CommandLine cl = commandLine();
        try {
            return cl.execute(args);
        } catch (OutOfMemoryError e) {
            System.err.println("kcheck: out of memory: raise the heap (KCHECK_JAVA_OPTS=-Xmx...) or lower --memory / --max-states");
            return ExitCodes.INCOMPLETE;
        }
    }

    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            String cmd = ex.getCommandLine().getCommandName();
            err.println("kcheck: " + oneLine(ex.getMessage()) + " (see 'kcheck " + (cmd.equals("kcheck") ? "" : cmd + " ") + "--help')");
            err.flush();
            return ExitCodes.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            if (ex instanceof VariantFileException v) {
                err.println("kcheck: " + oneLine(v.getMessage()));
                v.details().forEach(err::println);
                err.flush();
                return ExitCodes.USAGE;
            }
            if (ex instanceof UsageException || ex instanceof ModelInputException || ex instanceof TraceFormatException) {
                err.println("kcheck: " + oneLine(ex.getMessage()));
                err.flush();
                return ExitCodes.USAGE;
            }
            throw ex;
        });
        return cl;
    }

    static String oneLine(String s) {
        if (s == null) {
            return "error";
        }
        int i = s.indexOf('\n');
        return (i < 0 ? s : s.substring(0, i)).trim();
    }
}
