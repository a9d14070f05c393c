package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/**
 * What start-up leaves out must not change what a user sees: a command line that names one
 * subcommand registers only that one, and its help, options and answers are those of the full
 * command line; the start-up bench's breakdown is the arithmetic it claims.
 */
class StartupTest {

    @Test
    void aCommandLineNamingOneSubcommandHasExactlyItsUsageAndOptionsAsTheFullOne() {
        CommandLine full = Main.commandLine();
        for (String name : List.of("list", "check", "verify", "replay", "render", "bench", "variant", "simulate", "worker", "conform", "litmus")) {
            CommandLine alone = Main.commandLine(name);
            assertThat(alone.getSubcommands()).containsOnlyKeys(name);
            CommandLine a = alone.getSubcommands().get(name);
            CommandLine f = full.getSubcommands().get(name);
            assertThat(a.getUsageMessage(CommandLine.Help.Ansi.OFF)).as(name).isEqualTo(f.getUsageMessage(CommandLine.Help.Ansi.OFF));
            assertThat(a.getCommandSpec().qualifiedName()).isEqualTo("kcheck " + name);
        }
        assertThat(full.getSubcommands().keySet()).containsExactly("list", "check", "verify", "replay", "render", "bench",
                "variant", "simulate", "worker", "conform", "litmus", "help");
    }

    @Test
    void helpATypoAndAnOptionFirstStillSeeEverySubcommand() {
        Cli help = Cli.run("help");
        assertThat(help.exit).isZero();
        assertThat(help.out).contains("check", "verify", "conform", "simulate");

        Cli typo = Cli.run("chek", "rq-lock");
        assertThat(typo.exit).isEqualTo(ExitCodes.USAGE);
        assertThat(typo.err).contains("check");

        Cli version = Cli.run("--version");
        assertThat(version.exit).isZero();
        assertThat(version.out).startsWith("kcheck ");
        assertThat(Main.commandLine("").getSubcommands()).as("kcheck --version registers none").isEmpty();
        assertThat(Cli.run("-V").out).isEqualTo(version.out);
    }

    @Test
    void theSubcommandsOwnHelpAndVersionWorkWhenItIsTheOnlyOneRegistered() {
        Cli help = Cli.run("check", "--help");
        assertThat(help.exit).isZero();
        assertThat(help.out).startsWith("Usage: kcheck check");
        Cli version = Cli.run("list", "--version");
        assertThat(version.exit).isZero();
        assertThat(version.out).startsWith("kcheck ");
    }

    @Test
    void theBreakdownIsTheJvmBeforeMainThenTheGapsBetweenTheMarksAsMedians() {
        List<StartupBench.Run> runs = List.of(
                new StartupBench.Run(500, 0, Map.of("parsed", 150.0, "model", 200.0, "searched", 290.0, "exit", 300.0)),
                new StartupBench.Run(520, 0, Map.of("parsed", 160.0, "model", 230.0, "searched", 300.0, "exit", 310.0)),
                new StartupBench.Run(900, 0, Map.of("parsed", 170.0, "model", 240.0, "searched", 600.0, "exit", 610.0)));
        double[] p = StartupBench.phases(runs);
        assertThat(p[0]).as("JVM start: wall less exit").isCloseTo(210, within(1e-9));
        assertThat(p[1]).as("command line").isCloseTo(160, within(1e-9));
        assertThat(p[2]).as("model set-up").isCloseTo(70, within(1e-9));
        assertThat(p[3]).as("search").isCloseTo(90, within(1e-9));
        assertThat(p[4]).as("report, exit").isCloseTo(10, within(1e-9));

        double[] version = StartupBench.phases(List.of(new StartupBench.Run(400, 0, Map.of("exit", 220.0))));
        assertThat(version[0]).isCloseTo(180, within(1e-9));
        assertThat(version[1]).isNaN();
        assertThat(version[4]).as("all of main, in the last phase").isCloseTo(220, within(1e-9));

        assertThat(StartupBench.phases(List.of(new StartupBench.Run(400, 0, Map.of())))).containsOnly(Double.NaN);
        assertThat(StartupBench.median(new double[] {3, 1, 2, 10})).isEqualTo(2.5);
    }

    @Test
    void benchStartupRefusesWhatItCannotMeasureWithOneLine() {
        Cli models = Cli.run("bench", "--startup", "rq-lock");
        assertThat(models.exit).isEqualTo(ExitCodes.USAGE);
        assertThat(models.err).contains("--startup measures fixed short commands").doesNotContain("Exception");

        Cli missing = Cli.run("bench", "--startup", "--launcher", "/nonexistent/kcheck");
        assertThat(missing.exit).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.err).contains("no such file: /nonexistent/kcheck");

        Cli stray = Cli.run("bench", "--against", "/bin/true");
        assertThat(stray.exit).isEqualTo(ExitCodes.USAGE);
        assertThat(stray.err).contains("--against and --launcher go with --startup");
    }
}
