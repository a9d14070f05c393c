package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Inputs kcheck once took badly: each ends with one clear line on stderr and exit 2, or with the documented verdict. */
class BadInputCliTest {

    static void oneLine(Cli c, String... fragments) {
        assertThat(c.exit).as(c.err + c.out).isEqualTo(2);
        assertThat(c.err.strip().lines().count()).as("one line on stderr: " + c.err).isEqualTo(1);
        assertThat(c.err).startsWith("kcheck: ").doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("[Fatal Error]");
        for (String f : fragments) {
            assertThat(c.err).contains(f);
        }
    }

    @Test
    void aMemoryBudgetInTerabytesOrAboveTheHeapIsRefusedNamingTheHeap() {
        oneLine(Cli.run("check", "rq-lock", "--cpus", "2", "--memory", "1TB", "--quiet"), "--memory 1TB is more than this JVM's heap",
                "give at most");
        oneLine(Cli.run("check", "rq-lock", "--cpus", "2", "--memory", "999999999999g", "--quiet"), "more than this JVM's heap");
        oneLine(Cli.run("check", "rq-lock", "--cpus", "2", "--memory", "8 parsecs", "--quiet"), "a unit k, m, g or t");
    }

    @Test
    void aBaselineEntryOfTheWrongTypeIsNamedOnceWithItsType(@TempDir Path dir) throws Exception {
        Path b = dir.resolve("b.json");
        Files.writeString(b, "{\"format\": 1, \"entries\": [{\"model\": \"rq-lock\", \"variant\": \"before\", \"property\": "
                + "\"mutual-exclusion\", \"params\": 2, \"expected\": \"HOLDS\"}]}");
        Cli c = Cli.run("verify", "--baseline", b.toString(), "--quick", "--quiet");
        oneLine(c, "baseline " + b + " entry 1: \"params\" must be an object, got the number 2");
        assertThat(c.err.split("baseline ", -1)).as("the prefix once: " + c.err).hasSize(2);
        Files.writeString(b, Files.readString(b).replace("\"params\": 2", "\"params\": {}").replace("\"HOLDS\"", "1"));
        oneLine(Cli.run("verify", "--baseline", b.toString(), "--quick", "--quiet"), "entry 1: \"expected\" must be a string, got the number 1");
    }

    @Test
    void aMalformedJunitReportGivesKchecksLineOnlyNotTheParsersToo(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.xml");
        Files.writeString(bad, "<testsuites><bad");
        Cli c = Cli.run("verify", "--merge-junit-xml", bad.toString(), "--junit-xml", dir.resolve("all.xml").toString());
        oneLine(c, "cannot read JUnit XML " + bad + ": ", "(line 1, column 17)");
        assertThat(dir.resolve("all.xml")).doesNotExist();
    }

    @Test
    void anOutputOptionNamingADirectoryIsRefusedBeforeAnyWorkWithOrWithoutForce(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectory(dir.resolve("out"));
        for (boolean force : new boolean[] {false, true}) {
            oneLine(run(force, "render", "corpus:rq-lock-before-fifo-entry", "--format", "html", "-o", out.toString()),
                    "cannot write -o " + out + ": it is a directory; -o names the file to write, e.g. " + out.resolve(
                            "rq-lock-before-fifo-entry.html"));
            Cli v = run(force, "verify", "--quick", "--quiet", "--junit-xml", out.toString());
            oneLine(v, "cannot write --junit-xml " + out + ": it is a directory");
            assertThat(v.out).as("refused before the catalogue runs").doesNotContain("mutual-exclusion");
            oneLine(run(force, "check", "rq-lock", "--cpus", "2", "--quiet", "--metrics-csv", out.toString()), "cannot write --metrics-csv");
            oneLine(run(force, "simulate", "rq-lock", "--cpus", "2", "--runs", "2", "--quiet", "--svg", out.toString()),
                    "cannot write --svg " + out + ": it is a directory");
        }
        assertThat(out).isEmptyDirectory();
    }

    private static Cli run(boolean force, String... args) {
        String[] all = java.util.Arrays.copyOf(args, args.length + (force ? 1 : 0));
        if (force) {
            all[args.length] = "--force";
        }
        return Cli.run(all);
    }

    @Test
    void optionsTheStrategyWouldIgnoreAreRefused() {
        oneLine(Cli.run("check", "rq-lock", "--cpus", "2", "--seed", "5"), "--seed is used only with --strategy random");
        oneLine(Cli.run("check", "rq-lock", "--cpus", "2", "--strategy", "dfs", "--seed", "5"), "a dfs search explores every state");
        oneLine(Cli.run("bench", "cpudl", "--seed", "5"), "--seed is used only with --strategy random");
        oneLine(Cli.run("check", "rq-lock", "--cpus", "2", "--walk-depth", "5"), "--walk-depth is used only with --strategy random");
        oneLine(Cli.run("check", "rq-lock", "--cpus", "2", "--strategy", "dfs", "--workers", "2"),
                "--workers 2 is used only with --strategy bfs");
        oneLine(Cli.run("conform", "cpudl", "--kernel-tree", "/nonexistent", "--sequences", "0", "--seed", "1"),
                "--seed seeds the generated sequences, and --sequences 0 generates none");
        Cli random = Cli.run("check", "rq-lock", "--cpus", "2", "--strategy", "random", "--seed", "5", "--walk-depth", "50", "--quiet");
        assertThat(random.exit).as(random.err).isIn(0, 3);
    }

    @Test
    void cpudlParametersItsStepNumbersCannotHoldAreRefusedNamingTheMaximum() {
        oneLine(Cli.run("check", "cpudl", "--variant", "v6.12", "--cpus", "100"), "fits at most 21 CPUs, got 100; use 21 or fewer");
        oneLine(Cli.run("check", "cpudl", "--cpus", "4096", "--param", "capacity=any"), "fits at most 376 CPUs, got 4096");
        oneLine(Cli.run("check", "cpudl", "--param", "cpus=99999999999999999999"), "parameter 'cpus' must be in 1..4096, got 99999");
    }
}
