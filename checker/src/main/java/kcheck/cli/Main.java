package kcheck.cli;

import kcheck.model.ModelInputException;
import kcheck.model.ModelLimitException;
import kcheck.trace.TraceFormatException;
import kcheck.variantfile.VariantFileException;
import kcheck.variantfile.Watchdog;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code kcheck} command line. Exit codes, one meaning each: 0 every checked property holds
 * (exhaustively, within the bounds; verify: every verdict as the baseline), 1 a property is
 * violated, with a trace (verify: a verdict differs), 2 usage or input error, including an error in
 * a variant file's code, and kcheck's own internal errors (one line on stderr, never a stack
 * trace, never a verdict), 3 a limit was hit, or a signal stopped the run, before every property was
 * decided (INCOMPLETE) and no violation was found (a violation found is exit 1 however the run ended).
 */
@Command(name = "kcheck", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = {"Verification suite for Linux kernel scheduling and locking patches: proves that a patch fixes what it "
            + "claims (exhaustively, within stated bounds), shows the counterexample the unpatched code allows, and gates CI "
            + "on those verdicts.", "", "Verdicts: HOLDS (exhaustive, nothing found), VIOLATED (with a trace), INCOMPLETE (a "
            + "limit was hit first; never reported as HOLDS)."},
        subcommands = {ListCommand.class, CheckCommand.class, VerifyCommand.class, ReplayCommand.class, RenderCommand.class,
            BenchCommand.class, VariantCommand.class, SimulateCommand.class, WorkerCommand.class,
            kcheck.conform.ConformCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Exit codes, one meaning each: 0 every checked property holds, exhaustively within the bounds (verify: "
            + "every verdict as the baseline; replay --prove: the regression proof); 1 a property is violated, with a trace "
            + "(verify: a verdict differs; replay: the trace reproduces), however the run ended; 2 usage or input error, an error "
            + "in a variant file's code, a stale trace, or an internal error of kcheck (one line on stderr, never a verdict); 3 a "
            + "limit was hit (or the run was interrupted) before every property was decided, or a replay's refusal was not "
            + "proven.", "", "Examples:",
            "  kcheck list",
            "  kcheck check rq-lock --variant before --cpus 2 --property fifo-entry",
            "  kcheck check rq-lock --variant before --cpus 2 --property fifo-entry --format mail",
            "  kcheck verify --quick",
            "  kcheck help check"})
public final class Main implements Runnable {

    /** {@code --version}: the version and git revision the jar was built from, and the JVM. */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {kcheck.report.BuildInfo.label(), "Java " + System.getProperty("java.version") + " ("
                    + System.getProperty("java.vm.name") + ")"};
        }
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this), "missing command: list, check, verify, replay, render, bench, simulate, variant or help");
    }

    public static void main(String[] args) {
        Interrupts.install();
        ExitGuard.install();
        int code;
        try {
            code = run(args);
        } catch (Throwable t) {
            code = ExitCodes.USAGE;
        }
        ExitGuard.exit(code);
    }

    /** Runs the command line and returns the exit code (for tests and the launcher); never throws. */
    public static int run(String... args) {
        try {
            Session.start(args);
            Watchdog.handler(ExitGuard::tripped);
            CommandLine cl = commandLine();
            return cl.execute(args);
        } catch (Throwable t) {
            return failed(t);
        }
    }

    /** The command line with every subcommand, as {@link #run} executes it (and the build documents it). */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        versions(cl);
        cl.setParameterExceptionHandler((ex, args) -> {
            String cmd = ex.getCommandLine().getCommandSpec().qualifiedName(" ");
            return ErrorReport.print(ErrorReport.Kind.USAGE, ExitCodes.USAGE, oneLine(ex.getMessage()) + " (see '" + cmd + " --help')");
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> failed(ex));
        return cl;
    }

    /** The exit code for anything a command threw: input errors are exit 2 with one line, the rest internal errors. */
    static int failed(Throwable ex) {
        if (outOfMemory(ex)) {
            return ErrorReport.memory();
        }
        if (ex instanceof VariantFileException v) {
            return ErrorReport.print(ErrorReport.Kind.VARIANT_FILE, ExitCodes.USAGE, v.getMessage(), v.details(), v.frame(), null, null);
        }
        if (ex instanceof UsageException || ex instanceof CommandLine.ParameterException) {
            return ErrorReport.print(ErrorReport.Kind.USAGE, ExitCodes.USAGE, oneLine(ex.getMessage()));
        }
        if (ex instanceof ModelInputException || ex instanceof TraceFormatException) {
            return ErrorReport.print(ErrorReport.Kind.INPUT, ExitCodes.USAGE, oneLine(ex.getMessage()));
        }
        if (ex instanceof ModelLimitException) {
            return ErrorReport.internal(ex, "a built-in variant reached a limit of its model");
        }
        return ErrorReport.internal(ex, null);
    }

    private static boolean outOfMemory(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof OutOfMemoryError) {
                return true;
            }
        }
        return false;
    }

    /** Every subcommand answers {@code --version} like the top-level command. */
    private static void versions(CommandLine cl) {
        cl.getCommandSpec().versionProvider(new Version());
        cl.getSubcommands().values().forEach(Main::versions);
    }

    static String oneLine(String s) {
        if (s == null) {
            return "error";
        }
        int i = s.indexOf('\n');
        return (i < 0 ? s : s.substring(0, i)).trim();
    }
}
