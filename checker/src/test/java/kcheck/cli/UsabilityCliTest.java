package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import kcheck.engine.ProgressListener;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.ParamSpec;
import kcheck.model.Params;
import kcheck.model.Property;
import kcheck.model.PropertyInfo;
import kcheck.model.VariantInfo;

/** What a newcomer meets first: help, versions, mail-ready output, widths, defaults, progress, file names. */
class UsabilityCliTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "check --help|Usage: kcheck check|--time-limit",
        "check rq-lock --help|Usage: kcheck check|--format",
        "check -h|Usage: kcheck check|--width",
        "help check|Usage: kcheck check|--metrics-csv",
        "help verify|Usage: kcheck verify|--trace-dir",
        "verify --help|Usage: kcheck verify|--html",
        "replay --help|Usage: kcheck replay|corpus:NAME",
        "render --help|Usage: kcheck render|--format",
        "bench --help|Usage: kcheck bench|--workers",
        "list --help|Usage: kcheck list|--json",
        "variant --help|Usage: kcheck variant|new",
        "variant new --help|Usage: kcheck variant new|--output-dir",
        "simulate --help|Usage: kcheck simulate|--runs",
        "--help|Usage: kcheck|Exit codes"})
    void everySubcommandHasHelpDespiteRequiredParameters(String args, String usage, String option) {
        Cli c = Cli.run(args.split(" "));
        assertThat(c.exit).as(c.err).isZero();
        assertThat(c.out).startsWith(usage).contains(option);
        assertThat(c.err).isEmpty();
    }

    @Test
    void everyRegisteredSubcommandAnswersHelp() {
        java.util.List<String> names = new java.util.ArrayList<>();
        collect(Main.commandLine(), "", names);
        assertThat(names).contains("conform", "worker", "variant new");
        for (String name : names) {
            Cli c = Cli.run((name + " --help").split(" "));
            assertThat(c.exit).as(name + ": " + c.err).isZero();
            assertThat(c.out).as(name).startsWith("Usage: kcheck " + name);
        }
    }

    private static void collect(picocli.CommandLine cl, String prefix, java.util.List<String> out) {
        cl.getSubcommands().forEach((n, sub) -> {
            if (sub.getCommandSpec().name().equals(n) && !n.equals("help")) {
                out.add(prefix + n);
                collect(sub, prefix + n + " ", out);
            }
        });
    }

    @Test
    void versionNamesTheBuild() {
        Cli c = Cli.run("--version");
        assertThat(c.exit).isZero();
        assertThat(c.out).startsWith("kcheck ").contains("Java ");
        assertThat(Cli.run("check", "--version").out).isEqualTo(c.out);
    }

    @Test
    void mailFormatFitsSeventyTwoColumnsWithVerdictsStepsAndTheReproduceCommand() {
        Cli c = Cli.run("check", "rq-lock", "--variant", "before", "--cpus", "2", "--property", "fifo-entry", "--format", "mail",
                "--quiet");
        assertThat(c.exit).isEqualTo(1);
        assertThat(c.out.lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(72));
        assertThat(c.out).startsWith("kcheck: rq-lock, variant before (cpus=2 rounds=1 lock=ticket preempt=y\n  core-sched=none calls=1)\n")
                .contains("verdicts:\n  fifo-entry  VIOLATED   shortest trace, 10 steps\n")
                .contains("   6  CPU 1  spin_trylock(rq[0]) = 0 [")
                .contains("=>10  CPU 0  spin_trylock(rq[1]) = 1")
                .contains("kernel code:\n")
                .contains("reproduce (kcheck ")
                .contains("  kcheck check rq-lock --variant before --param cpus=2")
                .containsPattern("sha256 of the variant's source \\(before\\):\n  [0-9a-f]{64}\n");
        assertThat(c.out).as("no timeline columns in a mail").doesNotContain("| CPU 1");
    }

    @Test
    void widthWrapsTheTimeline() {
        Cli c = Cli.run("check", "rq-lock", "--variant", "before", "--cpus", "2", "--property", "fifo-entry", "--width", "60",
                "--quiet");
        String timeline = c.out.substring(c.out.indexOf("trace: "));
        assertThat(timeline.lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(60));
        assertThat(timeline).contains("| CPU 0").contains("| CPU 1");
        assertThat(Cli.run("check", "rq-lock", "--width", "10").err).contains("--width must be at least 40");
    }

    @Test
    void headerWithBoundsAndReductionsComesBeforeTheSearch() {
        Cli c = Cli.run("check", "rq-lock", "--variant", "before", "--cpus", "2", "--property", "fifo-entry");
        assertThat(c.out).startsWith("model rq-lock, variant before (cpus=2 rounds=1 lock=ticket preempt=y core-sched=none calls=1)\nsearch: bfs, exact store, ");
        assertThat(c.out.indexOf("properties: fifo-entry")).isLessThan(c.out.indexOf("distinct states"));
        assertThat(c.out.indexOf("reductions: ticket-shift")).isLessThan(c.out.indexOf("distinct states"));
    }

    @Test
    void traceOutWritesTheFirstTraceUnderTheNameAskedSoRenderCanReadIt(@TempDir Path dir) {
        Path t = dir.resolve("t.json");
        Cli c = Cli.run("check", "rq-lock", "--variant", "before", "--cpus", "2", "--property", "fifo-entry", "--property",
                "overtake", "--trace-out", t.toString(), "--quiet");
        assertThat(c.exit).isEqualTo(1);
        assertThat(c.out).contains("trace of fifo-entry written to " + t).contains("witness of the maximum overtake written to "
                + dir.resolve("t-overtake.json"));
        Cli render = Cli.run("render", t.toString());
        assertThat(render.exit).isZero();
        assertThat(render.out).contains("property: fifo-entry (step): VIOLATED");
    }

    @Test
    void metricsCsvHasOneRowPerComponentAndIsNeverOverwrittenUnasked(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("m.csv");
        Cli c = Cli.run("check", "rq-lock", "--variant", "before", "--cpus", "2", "--property", "overtake", "--metrics-csv",
                csv.toString(), "--quiet");
        assertThat(c.exit).isZero();
        assertThat(Files.readAllLines(csv)).containsExactly(MetricsCsv.HEADER,
                "rq-lock,before,cpus=2 rounds=1 lock=ticket preempt=y core-sched=none calls=1,overtake,CPU 0,0,false,,,true,0",
                "rq-lock,before,cpus=2 rounds=1 lock=ticket preempt=y core-sched=none calls=1,overtake,CPU 1,1,false,,,true,10");
        Cli again = Cli.run("check", "rq-lock", "--variant", "before", "--cpus", "2", "--property", "overtake", "--metrics-csv",
                csv.toString(), "--quiet");
        assertThat(again.exit).isEqualTo(2);
        assertThat(again.err).contains("exists: pass --force");
    }

    @Test
    void corpusTracesAreUsableFromAnyDirectory() {
        Cli render = Cli.run("render", "corpus:rq-lock-before-fifo-entry", "--width", "80");
        assertThat(render.exit).as(render.err).isZero();
        assertThat(render.out).contains("property: fifo-entry");
        Cli replay = Cli.run("replay", "corpus:rq-lock-before-fifo-entry", "--variant", "after", "--prove");
        assertThat(replay.exit).isZero();
        assertThat(replay.out).contains("REFUSED").contains("Regression proof");
        Cli none = Cli.run("render", "corpus:no-such-trace");
        assertThat(none.exit).isEqualTo(2);
        assertThat(none.err).contains("no such trace in kcheck's corpus");
    }

    @Test
    void renderMailFitsSeventyTwoColumns() {
        Cli c = Cli.run("render", "corpus:rq-lock-before-fifo-entry", "--format", "mail");
        assertThat(c.exit).isZero();
        assertThat(c.out.lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(72));
        assertThat(c.out).contains("reproduce").contains("--property fifo-entry");
    }

    /** A model with one ordinary and one opt-in property (the defaults must leave the opt-in one out). */
    private static ModelFactory twoProperties() {
        return new ModelFactory() {
            @Override
            public String name() {
                return "stub";
            }

            @Override
            public String title() {
                return "stub";
            }

            @Override
            public List<VariantInfo> variants() {
                return List.of(VariantInfo.of("after", "a"));
            }

            @Override
            public List<ParamSpec> params() {
                return List.of();
            }

            @Override
            public List<PropertyInfo> properties() {
                return List.of(new PropertyInfo("expected", Property.Kind.INVARIANT, "holds on a correct fix"),
                        new PropertyInfo("false-claim", Property.Kind.INVARIANT, "a documented false claim", true));
            }

            @Override
            public Model create(String variant, Params params, Set<String> properties) {
                throw new UnsupportedOperationException();
            }
        };
    }

    @Test
    void theDefaultSelectionLeavesOutOptInPropertiesAndAllNamesEveryOne() {
        ModelFactory f = twoProperties();
        assertThat(Instances.selection(f, List.of())).containsExactly("expected");
        assertThat(Instances.selection(f, null)).containsExactly("expected");
        assertThat(Instances.selection(f, List.of("false-claim"))).containsExactly("false-claim");
        assertThat(Instances.selection(f, List.of("all"))).containsExactly("expected", "false-claim");
    }

    @Test
    void withoutATerminalProgressIsAPlainLineEveryTenSeconds() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ProgressPrinter p = new ProgressPrinter(new PrintStream(buf, true, StandardCharsets.UTF_8), false, 10);
        for (int s = 1; s <= 35; s++) {
            p.progress(new ProgressListener.Progress(1000L * s, 3000L * s, 50, s, s, 1L << 20));
        }
        List<String> lines = buf.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("kcheck: progress at 10 s: 10,000 distinct states (1,000/s), 30,000 transitions, "
                + "queue 50, depth 10, store 1.0 MiB");
        assertThat(lines.get(2)).startsWith("kcheck: progress at 30 s: 30,000 distinct states");
        assertThat(buf.toString(StandardCharsets.UTF_8)).doesNotContain("\r");
        p.progress(new ProgressListener.Progress(5, 5, 0, 1, 1, 1024));
        p.progress(new ProgressListener.Progress(50, 50, 0, 2, 10, 1024));
        assertThat(buf.toString(StandardCharsets.UTF_8).lines().toList()).as("the next search starts its clock at 0 again")
                .hasSize(4).last().asString().startsWith("kcheck: progress at 10 s: 50 distinct states");
    }

    @Test
    void aLongStepOfTheDiskSearchIsAnnouncedOnceTheSearchHasRunAMinute() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ProgressPrinter p = new ProgressPrinter(new PrintStream(buf, true, StandardCharsets.UTF_8), false, 10);
        p.progress(new ProgressListener.Progress(1000, 3000, 50, 3, 5, 1L << 20));
        p.phase("depth 4: checking the level's 1,000 new states against 1 key run(s) on disk");
        assertThat(buf.toString(StandardCharsets.UTF_8)).as("in the first minute: no step is long").isEmpty();
        p.progress(new ProgressListener.Progress(9000, 30000, 50, 28, 61, 1L << 20));
        p.phase("depth 29: checking the level's 444,116,992 new states against 4 key run(s) on disk");
        assertThat(buf.toString(StandardCharsets.UTF_8).lines().toList()).last().asString()
                .isEqualTo("kcheck: depth 29: checking the level's 444,116,992 new states against 4 key run(s) on disk");
    }

    @Test
    void aStopRequestEndsTheSearchIncompleteAndKeepsTheViolationsFound() {
        try {
            Interrupts.set("interrupted (SIGINT)");
            Cli c = Cli.run("check", "rq-lock", "--variant", "before", "--cpus", "3", "--property", "fifo-entry", "--property",
                    "mutual-exclusion");
            assertThat(c.exit).isEqualTo(3);
            assertThat(c.out).contains("NOT EXHAUSTIVE: stopped by interrupted (SIGINT)").contains("mutual-exclusion")
                    .contains("INCOMPLETE");
            assertThat(c.err).contains("interrupted (SIGINT): the search was not exhaustive");
        } finally {
            Interrupts.set(null);
        }
    }
}
