package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One SIGINT or SIGTERM stops a real kcheck process within seconds, in whatever it is doing (a
 * search, the cycle analysis after it, a catalogue, a simulation), and the process prints what it
 * found so far: exit 1 if it found a violation (or a verdict that differs), else 3. The bound on
 * the time to exit is generous (the contract is 5 s); it guards against a run that goes on.
 */
class StopOnSignalTest {
    private static final long EXIT_BOUND_SECONDS = 15;

    /**
     * kcheck as its own JVM, stdout and stderr to files (not a terminal, as in CI). Started through
     * {@code env --default-signal=INT}: a JVM started by a process that ignores SIGINT (a background
     * job) would ignore it too, and could not be stopped by it.
     */
    private static final class Child {
        final Process process;
        final Path out;
        final Path err;

        Child(Path dir, String... args) throws Exception {
            out = dir.resolve("out");
            err = dir.resolve("err");
            List<String> cmd = new ArrayList<>(List.of("env", "--default-signal=INT",
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g", "-cp", ChildJvm.classPath(),
                    Main.class.getName()));
            cmd.addAll(List.of(args));
            process = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        }

        String out() throws Exception {
            return Files.readString(out, StandardCharsets.UTF_8);
        }

        String err() throws Exception {
            return Files.readString(err, StandardCharsets.UTF_8);
        }

        /** Waits (at most two minutes) until {@code text} is on stdout or stderr, the process still running. */
        void await(String text) throws Exception {
            for (int i = 0; i < 1200 && !(out() + err()).contains(text); i++) {
                assertThat(process.isAlive()).as("still running before '%s' shows; stdout: %s stderr: %s", text, out(), err()).isTrue();
                Thread.sleep(100);
            }
            assertThat(out() + err()).as("'%s' shows within two minutes", text).contains(text);
        }

        /** Sends {@code signal}; the exit code, once the process has ended within the bound. */
        int stop(String signal) throws Exception {
            try {
                assertThat(process.isAlive()).as("still running when %s is sent; stdout: %s", signal, out()).isTrue();
                new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor(10, TimeUnit.SECONDS);
                assertThat(process.waitFor(EXIT_BOUND_SECONDS, TimeUnit.SECONDS)).as("ended within %d s of SIG%s; stderr: %s",
                        EXIT_BOUND_SECONDS, signal, err()).isTrue();
                return process.exitValue();
            } finally {
                process.destroyForcibly();
            }
        }
    }

    @Test
    void sigtermDuringTheCycleAnalysisEndsTheRunWithTheUndecidedProgressPropertiesIncomplete(@TempDir Path dir) throws Exception {
        /* 2,648,011 states (wake-ups as steps); the analyses of its two progress properties come after the search (about
           4 s on one worker) and take about a second each on one worker: the signal lands in the first */
        Child c = new Child(dir, "check", "rwsem-owner", "--variant", "v6.12", "--param", "readers=1", "--param", "wakeups=wake-q",
                "--workers", "1", "--progress-interval", "0.1");
        c.await("kcheck: cycle analysis of ");
        int exit = c.stop("TERM");
        String out = c.out();
        assertThat(exit).as("a violation was found before the signal: %s", out).isEqualTo(1);
        assertThat(out).containsPattern("no-spin-on-readers-k2 +VIOLATED")
                .containsPattern("exclusion +HOLDS +exhaustive")
                .containsPattern("no-spin-on-preempted-owner +INCOMPLETE +exhaustive search of 2648011 states, but the cycle "
                        + "analysis after it stopped \\(interrupted \\(SIGTERM\\)\\) before deciding this property")
                .doesNotContainPattern("no-spin-on-readers +VIOLATED");
        assertThat(c.err()).contains("kcheck: interrupted (SIGTERM): the analysis after the search was stopped");
    }

    @Test
    void sigintWithJsonPrintsOneDocumentWithTheViolationFoundSoFarAndExitsOne(@TempDir Path dir) throws Exception {
        /* fifo-entry is violated at once; mutual-exclusion takes minutes to prove */
        Child c = new Child(dir, "check", "rq-lock", "--variant", "before", "--cpus", "5", "--property", "fifo-entry", "--property",
                "mutual-exclusion", "--workers", "1", "--progress-interval", "1", "--json");
        c.await("kcheck: progress at");
        int exit = c.stop("INT");
        JsonNode doc = new ObjectMapper().readTree(c.out());
        assertThat(exit).as(c.out()).isEqualTo(1);
        assertThat(doc.get("outcome").asText()).isEqualTo("VIOLATED");
        assertThat(doc.get("exitCode").asInt()).isEqualTo(1);
        JsonNode fifo = result(doc, "fifo-entry");
        JsonNode mutex = result(doc, "mutual-exclusion");
        assertThat(fifo.get("verdict").asText()).isEqualTo("VIOLATED");
        assertThat(fifo.get("trace").get("steps").size()).isPositive();
        assertThat(mutex.get("verdict").asText()).isEqualTo("INCOMPLETE");
        assertThat(mutex.get("message").asText()).contains("interrupted (SIGINT)");
    }

    private static JsonNode result(JsonNode doc, String property) {
        for (JsonNode r : doc.get("results")) {
            if (r.get("property").asText().equals(property)) {
                return r;
            }
        }
        throw new AssertionError("no result for " + property + " in " + doc);
    }

    @Test
    void sigtermStopsASimulationWhichPrintsTheRunsCompletedAndExitsThree(@TempDir Path dir) throws Exception {
        Child c = new Child(dir, "simulate", "rq-lock", "--cpus", "8", "--runs", "1000000", "--seed", "5", "--variant", "before");
        c.await("kcheck simulate: seed 5");
        Thread.sleep(500);
        int exit = c.stop("TERM");
        assertThat(exit).as(c.out() + c.err()).isEqualTo(3);
        assertThat(c.out()).containsPattern("INCOMPLETE, stopped by interrupted \\(SIGTERM\\): before cpus=8: (\\d+ of 1000000 runs|no run "
                + "completed)");
    }

    @Test
    void aVerdictThatDiffersFoundBeforeSigintStillFailsTheCatalogueWithExitOne(@TempDir Path dir) throws Exception {
        /* first a search that ends at once with a verdict the baseline does not expect, then one that takes minutes */
        Path baseline = dir.resolve("baseline.json");
        Files.writeString(baseline, """
                {"format": 1, "entries": [
                  {"model": "rq-lock", "variant": "before", "params": {"cpus": "2"}, "property": "fifo-entry", "expected": "HOLDS"},
                  {"model": "rq-lock", "variant": "before", "params": {"cpus": "5"}, "property": "mutual-exclusion", "expected": "HOLDS"}
                ]}
                """);
        Child c = new Child(dir, "verify", "--baseline", baseline.toString(), "--workers", "1");
        c.await("<-- DIFFERS");
        int exit = c.stop("INT");
        assertThat(exit).as(c.out()).isEqualTo(1);
        assertThat(c.out()).contains("kcheck verify: interrupted (SIGINT) after 1 of 2 entries: not every verdict was computed")
                .contains("1 verdict(s) differ from the baseline:")
                .containsPattern("mutual-exclusion .* INCOMPLETE +HOLDS .*\\(interrupted\\)");
    }
}
