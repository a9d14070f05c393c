package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class SimulateCliTest {

    private static void usageError(Cli c, String fragment) {
        assertThat(c.exit).as(c.err).isEqualTo(2);
        assertThat(c.err.strip().lines().count()).as("one line on stderr: " + c.err).isEqualTo(1);
        assertThat(c.err).startsWith("kcheck: ").contains(fragment).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void printsThePerCpuTableWithIntervalsAndTheComparisonWithThePost() {
        Cli c = Cli.run("simulate", "rq-lock", "--cpus", "4", "--runs", "40", "--seed", "3", "--quiet");
        assertThat(c.exit).as(c.err).isZero();
        assertThat(c.out).contains("simulate rq-lock, variant before, workload uniform (cpus=4 rounds=4 lock=ticket preempt=y core-sched=none calls=1)")
                .contains("40 runs, seed 3").contains("wait (us)").contains("mean [95% CI]").contains("p99 [95% CI]")
                .contains("runs for +-5%").contains("variant after").contains("before vs after")
                .contains("wait p99 on CPUs 2-3, 4 CPUs").contains("over 800%");
    }

    /**
     * The first run draws a fresh seed on purpose (not the build's kcheck.seed): what is tested is
     * that a run without --seed prints the seed that repeats it. Both runs use that one seed, so the
     * assertions hold whatever it is.
     */
    @Test
    void aTimeLimitStopsTheSimulationWhoseFiguresAreThoseOfTheRunsCompleted() {
        Cli c = Cli.run("simulate", "rq-lock", "--cpus", "4", "--variant", "before", "--runs", "1000000", "--seed", "3", "--workers", "1",
                "--time-limit", "2s", "--quiet");
        assertThat(c.exit).as(c.err).isEqualTo(3);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("INCOMPLETE, stopped by time limit 2s: before cpus=4: (\\d+) of 1000000 runs")
                .matcher(c.out);
        assertThat(m.find()).as(c.out).isTrue();
        String n = m.group(1);
        Cli same = Cli.run("simulate", "rq-lock", "--cpus", "4", "--variant", "before", "--runs", n, "--seed", "3", "--workers", "1", "--quiet");
        assertThat(same.exit).isZero();
        assertThat(strip(c.out)).isEqualTo(strip(same.out) + c.out.substring(c.out.indexOf("INCOMPLETE, stopped by")));
    }

    @Test
    void theSeedIsPrintedAndRepeatsTheNumbers() {
        Cli a = Cli.run("simulate", "lb-redo", "--cpus", "6", "--runs", "30", "--variant", "before");
        assertThat(a.exit).isZero();
        String seed = a.err.replaceAll("(?s).*seed (\\d+) \\(repeat with --seed \\1\\).*", "$1");
        assertThat(seed).matches("\\d+");
        Cli b = Cli.run("simulate", "lb-redo", "--cpus", "6", "--runs", "30", "--variant", "before", "--seed", seed, "--workers", "1",
                "--quiet");
        assertThat(strip(b.out)).isEqualTo(strip(a.out).replace("2 workers", "1 worker"));
    }

    /** The output without wall-clock figures. */
    private static String strip(String out) {
        return out.replaceAll("[0-9.]+ s wall \\([0-9,]+ runs/s\\)", "T");
    }

    @Test
    void jsonCsvAndSvgCarryTheSameFigures(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("w.csv");
        Path svg = dir.resolve("w.svg");
        Cli c = Cli.run("simulate", "rq-lock", "--cpus", "3", "--runs", "20", "--seed", "1", "--json", "--csv", csv.toString(),
                "--svg", svg.toString());
        assertThat(c.exit).as(c.err).isZero();
        JsonNode root = new ObjectMapper().readTree(c.out);
        assertThat(root.get("seed").asLong()).isEqualTo(1);
        assertThat(root.get("simulations")).hasSize(2);
        JsonNode cpu2 = root.get("simulations").get(0).get("measures").get(0).get("components").get(2);
        assertThat(cpu2.get("cpu").asInt()).isEqualTo(2);
        assertThat(cpu2.get("p99").get("ci95")).hasSize(2);
        assertThat(root.get("comparisons").get(0).get("post").asText()).contains("800%");
        assertThat(root.get("costs").get(0).get("source").asText()).contains("perfbook");
        String p99 = String.format(java.util.Locale.ROOT, "%.6g", cpu2.get("p99").get("value").asDouble());
        assertThat(Files.readAllLines(csv)).hasSize(1 + 2 * 3).anyMatch(l -> l.contains(",before,3,wait,ns,CPU 2,") && l.contains(p99));
        String plot = Files.readString(svg);
        assertThat(plot).startsWith("<svg").contains("before mean").contains("after p99").contains("CPU id").endsWith("</svg>\n");
        Cli again = Cli.run("simulate", "rq-lock", "--cpus", "3", "--runs", "5", "--svg", svg.toString(), "--quiet");
        usageError(again, "exists: pass --force");
    }

    @Test
    void badInputIsOneLineAndExitTwo() {
        usageError(Cli.run("simulate", "nope"), "unknown model 'nope'");
        usageError(Cli.run("simulate", "rq-lock", "--cpus", "9", "--runs", "1"), "rq-lock simulates 2..8 CPUs");
        usageError(Cli.run("simulate", "rq-lock", "--workload", "x"), "unknown workload 'x' (known: uniform, rt-overload)");
        usageError(Cli.run("simulate", "rq-lock", "--variant", "middle"), "unknown variant 'middle'");
        usageError(Cli.run("simulate", "rq-lock", "--set-cost", "think=abc"), "must be a number");
        usageError(Cli.run("simulate", "rq-lock", "--runs", "0"), "--runs must be in");
        usageError(Cli.run("simulate", "rwsem-owner", "--cpus", "8"), "at most 3 readers and 3 writers");
        usageError(Cli.run("simulate", "rq-lock", "--param", "lock=spin"), "lock");
    }

    @Test
    void showCostsListsEveryDefaultWithItsSource() {
        Cli c = Cli.run("simulate", "rwsem-owner", "--show-costs");
        assertThat(c.exit).isZero();
        assertThat(c.out).contains("line-remote").contains("95.9").contains("Off-Socket CAS cache miss").contains("intel_idle")
                .contains("randrw").contains("randwrite");
    }
}
