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
@Command(name = "kcheck", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = {"Verification suite for Linux kernel scheduling and locking patches: proves that a patch fixes what it "
            + "claims (exhaustively, within stated bounds), shows the counterexample the unpatched code allows, and gates CI "
            + "on those verdicts.", "", "Verdicts: HOLDS (exhaustive, nothing found), VIOLATED (with a trace), INCOMPLETE (a "
            + "limit was hit first; never reported as HOLDS)."},
        subcommands = {ListCommand.class, CheckCommand.class, VerifyCommand.class, ReplayCommand.class, RenderCommand.class,
            BenchCommand.class, VariantCommand.class, SimulateCommand.class, WorkerCommand.class,
            kcheck.conform.ConformCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Exit codes: 0 every checked property holds (verify: every verdict as the baseline); 1 a property is "
            + "violated (verify: a verdict differs); 2 usage or input error (one line on stderr); 3 a limit was hit (or the "
            + "run was interrupted) before the search was exhaustive.", "", "Examples:",
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

    /** The command line with every subcommand, as {@link #run} executes it (and the build documents it). */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        versions(cl);
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            String cmd = ex.getCommandLine().getCommandSpec().qualifiedName(" ");
            err.println("kcheck: " + oneLine(ex.getMessage()) + " (see '" + cmd + " --help')");
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
