package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A metric without a bound is a figure, not a verdict: no output prints HOLDS for it (text, mail,
 * JSON, CSV, verify's table, markdown, JUnit XML); a metric with a bound has the bound's verdict,
 * named as such. A metric's witness is shown and written only for a metric named with
 * {@code --property}: when everything holds and no metric is named, no trace file is written.
 */
class MetricsAreFiguresTest {
    /** rq-lock at 2 CPUs: five properties that hold and the metrics bypass and overtake. */
    static final String[] RQ_LOCK = {"check", "rq-lock", "--cpus", "2"};
    /** rq-lock's metrics are opt-in (their counters multiply the states of its infinite starvation-free runs): named with a safety property. */
    private static final String[] METRICS = {"--property", "mutual-exclusion", "--property", "bypass", "--property", "overtake"};

    private static String[] withMetrics(String... more) {
        String[] a = java.util.Arrays.copyOf(METRICS, METRICS.length + more.length);
        System.arraycopy(more, 0, a, METRICS.length, more.length);
        return with(a);
    }

    private static String[] with(String... more) {
        String[] a = java.util.Arrays.copyOf(RQ_LOCK, RQ_LOCK.length + more.length);
        System.arraycopy(more, 0, a, RQ_LOCK.length, more.length);
        return a;
    }

    @Test
    void checkPrintsAMetricAsAFigureAndWritesNoTraceWhenEverythingHolds(@TempDir Path dir) {
        Path t = dir.resolve("t.json");
        /* a metric checked by default, not named: lb-redo's (rq-lock's metrics are opt-in) */
        Cli c = Cli.run("check", "lb-redo", "--variant", "after", "--trace-out", t.toString());
        assertThat(c.exit).as(c.err).isZero();
        assertThat(c.out).containsPattern("(?m)^  terminates +HOLDS +exhaustive")
                .containsPattern("(?m)^  redos +metric +maximum [0-9]+$").containsPattern("(?m)^  stat-passes +metric +maximum [0-9]+$")
                .doesNotContainPattern("(?m)^  (redos|stat-passes) +HOLDS").doesNotContain("witness of").doesNotContain("written to");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void aNamedMetricsWitnessIsShownAndWrittenAsAWitness(@TempDir Path dir) throws Exception {
        Path t = dir.resolve("t.json");
        Cli c = Cli.run(with("--property", "bypass", "--trace-out", t.toString()));
        assertThat(c.exit).as(c.err).isZero();
        assertThat(c.out).contains("witness of the maximum bypass (CPU 0 = ")
                .contains("witness of the maximum bypass written to " + t.toAbsolutePath());
        assertThat(new ObjectMapper().readTree(t.toFile()).get("verdict").asText()).isEqualTo("WITNESS");
    }

    @Test
    void jsonCsvAndMailGiveAMetricNoVerdict(@TempDir Path dir) throws Exception {
        Cli json = Cli.run(withMetrics("--json"));
        assertThat(json.exit).isZero();
        for (JsonNode r : new ObjectMapper().readTree(json.out).get("results")) {
            if (r.get("kind").asText().equals("metric")) {
                assertThat(r.get("verdict").isNull()).as(r.get("property") + " has no verdict").isTrue();
                assertThat(r.get("metrics").size()).isEqualTo(2);
            } else {
                assertThat(r.get("verdict").asText()).isEqualTo("HOLDS");
            }
        }
        Path csv = dir.resolve("m.csv");
        assertThat(Cli.run(withMetrics("--metrics-csv", csv.toString())).exit).isZero();
        assertThat(Files.readAllLines(csv).subList(1, 5)).allSatisfy(line -> assertThat(line.split(",", -1)[8])
                .as("verdict column of %s", line).isEmpty());
        Cli mail = Cli.run(withMetrics("--format", "mail"));
        assertThat(mail.out).containsPattern("(?m)^  bypass +metric +maximum").doesNotContainPattern("(?m)^  bypass +HOLDS");
    }

    @Test
    void aMetricWithABoundHasTheBoundsVerdict() {
        Cli c = Cli.run("check", "rwsem-owner", "--variant", "after", "--param", "readers=1", "--property", "no-spin-on-readers-k2");
        assertThat(c.exit).as(c.err).isZero();
        assertThat(c.out).containsPattern("(?m)^  no-spin-on-readers-k2 +HOLDS +maximum 1 \u2264 bound 2$");
    }

    @Test
    void verifysTablesShowAMetricsMaximumAgainstMeasured(@TempDir Path dir) throws Exception {
        Path baseline = VerifyCommandTest.oneEntryBaseline(dir, "after", "overtake", "HOLDS");
        Path md = dir.resolve("k.md");
        Path xml = dir.resolve("k.xml");
        Cli c = Cli.run("verify", "--baseline", baseline.toString(), "--markdown", md.toString(), "--junit-xml", xml.toString(),
                "--quiet");
        assertThat(c.exit).as(c.out + c.err).isZero();
        assertThat(c.out).containsPattern("(?m)^rq-lock +overtake +after +.* max 0 +measured +[0-9,]+ ").doesNotContain("HOLDS");
        assertThat(Files.readString(md)).contains("| max 0 | measured |").doesNotContain("HOLDS");
        assertThat(Files.readString(xml)).contains("<system-out>maximum 0 (").doesNotContain("HOLDS");
    }
}
