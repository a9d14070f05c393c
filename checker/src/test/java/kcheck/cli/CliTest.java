package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class CliTest {

    private static void usageError(Cli c, String fragment) {
        assertThat(c.exit).isEqualTo(2);
        assertThat(c.err.strip().lines().count()).as("one line on stderr: " + c.err).isEqualTo(1);
        assertThat(c.err).startsWith("kcheck: ").contains(fragment).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void violatedPropertyExitsOneAndPrintsTheTimeline() {
        Cli c = Cli.run("check", "rq-lock", "--variant", "before", "--cpus", "2", "--property", "fifo-entry", "--quiet");
        assertThat(c.exit).isEqualTo(1);
        assertThat(c.out).contains("fifo-entry").contains("VIOLATED").contains("| CPU 0").contains("| CPU 1")
                .contains("spin_trylock(rq[1]) = 1").contains("VIOLATION of fifo-entry");
    }

    @Test
    void holdingPropertiesExitZero() {
        Cli c = Cli.run("check", "rq-lock", "--variant", "after", "--cpus", "3", "--quiet");
        assertThat(c.exit).isZero();
        assertThat(c.out).contains("HOLDS").doesNotContain("VIOLATED");
    }

    @Test
    void limitHitExitsThreeAndNeverSaysHolds() {
        Cli c = Cli.run("check", "rq-lock", "--variant", "after", "--cpus", "4", "--property", "mutual-exclusion",
                "--max-states", "1000", "--quiet");
        assertThat(c.exit).isEqualTo(3);
        assertThat(c.out).contains("INCOMPLETE").contains("NOT EXHAUSTIVE").doesNotContain("HOLDS");
    }

    @Test
    void jsonPrintsOneDocumentOnStdout() throws Exception {
        Cli c = Cli.run("check", "rq-lock", "--variant", "before", "--cpus", "2", "--property", "fifo-entry",
                "--property", "mutual-exclusion", "--json");
        assertThat(c.exit).isEqualTo(1);
        JsonNode root = new ObjectMapper().readTree(c.out);
        assertThat(root.get("results")).hasSize(2);
        JsonNode fifo = null;
        JsonNode me = null;
        for (JsonNode r : root.get("results")) {
            if (r.get("property").asText().equals("fifo-entry")) {
                fifo = r;
            } else {
                me = r;
            }
        }
        for (String f : new String[] {"model", "variant", "params", "property", "verdict", "states", "transitions", "depth",
            "seconds", "metrics", "trace"}) {
            assertThat(fifo.has(f)).as(f).isTrue();
        }
        assertThat(fifo.get("verdict").asText()).isEqualTo("VIOLATED");
        assertThat(fifo.get("trace").get("steps").size()).isEqualTo(10);
        assertThat(me.get("verdict").asText()).isEqualTo("HOLDS");
    }

    @Test
    void traceOutWritesJsonAndRefusesToOverwriteWithoutForce(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("t.json");
        Cli first = Cli.run("check", "rq-lock", "--variant", "before", "--cpus", "2", "--property", "fifo-entry",
                "--trace-out", f.toString(), "--quiet");
        assertThat(first.exit).isEqualTo(1);
        assertThat(Files.readString(f)).contains("\"format\" : 1").contains("fifo-entry");
        String saved = Files.readString(f);
        Cli again = Cli.run("check", "rq-lock", "--variant", "before", "--cpus", "2", "--property", "fifo-entry",
                "--trace-out", f.toString(), "--quiet");
        usageError(again, "--force");
        assertThat(Files.readString(f)).isEqualTo(saved);
        Cli forced = Cli.run("check", "rq-lock", "--variant", "before", "--cpus", "2", "--property", "fifo-entry",
                "--trace-out", f.toString(), "--force", "--quiet");
        assertThat(forced.exit).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "1", "65"})
    void cpuCountsOutOfRangeAreUsageErrors(String cpus) {
        usageError(Cli.run("check", "rq-lock", "--cpus", cpus), "cpus");
    }

    @Test
    void unknownModelVariantPropertyOrOptionAreUsageErrors() {
        usageError(Cli.run("check", "no-such-model"), "unknown model 'no-such-model'");
        usageError(Cli.run("check", "rq-lock", "--variant", "nope"), "unknown variant 'nope'");
        usageError(Cli.run("check", "rq-lock", "--property", "nope"), "unknown property 'nope'");
        usageError(Cli.run("check", "rq-lock", "--frobnicate"), "--frobnicate");
        usageError(Cli.run("check", "rq-lock", "--param", "colour=blue"), "unknown parameter 'colour'");
        usageError(Cli.run("check", "rq-lock", "--param", "lock=mcs"), "lock");
        usageError(Cli.run("frob"), "frob");
    }

    @Test
    void badDurationAndUnwritableTraceOutAreUsageErrors() {
        usageError(Cli.run("check", "rq-lock", "--time-limit", "soon"), "bad duration 'soon'");
        usageError(Cli.run("check", "rq-lock", "--time-limit", "-5s"), "duration");
        usageError(Cli.run("check", "rq-lock", "--trace-out", "/no/such/dir/t.json"), "does not exist");
        usageError(Cli.run("check", "rq-lock", "--trace-out", "/proc/t.json"), "trace-out");
    }

    @Test
    void listNamesEveryModelVariantAndProperty() throws Exception {
        Cli c = Cli.run("list");
        assertThat(c.exit).isZero();
        assertThat(c.out).contains("rq-lock").contains("fifo-entry").contains("before").contains("after");
        JsonNode j = new ObjectMapper().readTree(Cli.run("list", "--json").out);
        assertThat(j.get("kcheck").asText()).isEqualTo(kcheck.report.BuildInfo.version());
        assertThat(j.get("models").isArray()).isTrue();
        for (kcheck.model.ModelFactory f : kcheck.model.Models.all()) {
            for (String limit : f.limits()) {
                assertThat(c.out).as("kcheck list prints the limits of " + f.name()).contains(limit);
            }
        }
    }

    @Test
    void listPrintsEveryModelsEnvironmentContractWithItsCallSites() throws Exception {
        Cli c = Cli.run("list");
        JsonNode models = new ObjectMapper().readTree(Cli.run("list", "--json").out).get("models");
        for (kcheck.model.ModelFactory f : kcheck.model.Models.all()) {
            assertThat(f.environment()).as("the environment contract of " + f.name()).isNotEmpty();
            JsonNode env = null;
            for (JsonNode m : models) {
                if (m.get("name").asText().equals(f.name())) {
                    env = m.get("environment");
                }
            }
            assertThat(env).as(f.name() + " in kcheck list --json").isNotNull();
            assertThat(env.size()).isEqualTo(f.environment().size());
            for (kcheck.model.EnvironmentInput e : f.environment()) {
                assertThat(c.out).as("kcheck list prints %s of %s", e.input(), f.name()).contains(e.input()).contains(e.callSites())
                        .contains(e.how());
            }
        }
    }

    @Test
    void randomWalkPrintsItsSeedAndRepeatsWithIt() {
        Cli c = Cli.run("check", "rq-lock", "--variant", "before", "--cpus", "3", "--property", "fifo-entry",
                "--strategy", "random", "--seed", "99", "--quiet");
        assertThat(c.exit).isEqualTo(1);
        assertThat(c.out).contains("seed: 99").contains("minimised:");
    }
}
