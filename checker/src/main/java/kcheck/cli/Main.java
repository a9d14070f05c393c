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

    /**
     * The subcommands by name, in the order help lists them. Picocli reflects over a command's
     * options when it is registered, so {@link #run} registers only the one a command line names
     * (start-up of a small check), none for {@code kcheck --version}, and every one for help, a bare
     * {@code kcheck}, any other option first or an unknown name (so picocli's suggestions still see
     * them all).
     */
    private static final java.util.LinkedHashMap<String, java.util.function.Supplier<Object>> SUBCOMMANDS = new java.util.LinkedHashMap<>();

    static {
        SUBCOMMANDS.put("list", ListCommand::new);
        SUBCOMMANDS.put("check", CheckCommand::new);
        SUBCOMMANDS.put("verify", VerifyCommand::new);
        SUBCOMMANDS.put("replay", ReplayCommand::new);
        SUBCOMMANDS.put("render", RenderCommand::new);
        SUBCOMMANDS.put("bench", BenchCommand::new);
        SUBCOMMANDS.put("variant", VariantCommand::new);
        SUBCOMMANDS.put("simulate", SimulateCommand::new);
        SUBCOMMANDS.put("worker", WorkerCommand::new);
        SUBCOMMANDS.put("conform", kcheck.conform.ConformCommand::new);
        SUBCOMMANDS.put("litmus", LitmusCommand::new);
        SUBCOMMANDS.put("help", CommandLine.HelpCommand::new);
    }

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
        StartupClock.start();
        Interrupts.install();
        ExitGuard.install();
        int code;
        try {
            code = run(args);
        } catch (Throwable t) {
            code = ExitCodes.USAGE;
        }
        StartupClock.finish();
        ExitGuard.exit(code);
    }

    /** Runs the command line and returns the exit code (for tests and the launcher); never throws. */
    public static int run(String... args) {
        try {
            Session.start(args);
            Watchdog.handler(ExitGuard::tripped);
            return commandLine(registered(args)).execute(args);
        } catch (Throwable t) {
            return failed(t);
        }
    }

    /** What {@code args} needs registered: "" (none) for a bare --version, the subcommand it names, or null (every one). */
    private static String registered(String[] args) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            return "";
        }
        return args.length > 0 && SUBCOMMANDS.containsKey(args[0]) && !args[0].equals("help") ? args[0] : null;
    }

    /** The command line with every subcommand, as {@link #run} executes it (and the build documents it). */
    public static CommandLine commandLine() {
        return commandLine(null);
    }

    /** The command line with only subcommand {@code only} registered, none if it is empty ({@code kcheck --version}), or every one if it is null. */
    static CommandLine commandLine(String only) {
        /* picocli registers a converter for each java.time and java.sql type by reflection (about 40 ms
           at start-up); no option of kcheck has such a type (durations are strings: 250ms, 5m) */
        if (System.getProperty("picocli.converters.excludes") == null) {
            System.setProperty("picocli.converters.excludes", "java.time.*,java.sql.*");
        }
        CommandLine cl = new CommandLine(new Main());
        SUBCOMMANDS.forEach((name, make) -> {
            if (only == null || only.equals(name)) {
                cl.addSubcommand(name, make.get());
            }
        });
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
