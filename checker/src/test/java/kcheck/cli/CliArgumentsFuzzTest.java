package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * The command line with fuzzed arguments: every run ends with an exit code of the contract and,
 * for exit 2, one line on stderr; never a stack trace and never an internal error. Runs for
 * real, bounded (check and bench get --max-states 500 and --time-limit 3s unless the input sets one), and nothing that writes
 * files or runs unbounded work is executed (those inputs are skipped). {@code mvn verify}
 * replays the committed inputs (CliArgumentsFuzzTestInputs/); {@code mvn verify -Pfuzz} fuzzes.
 * An input with {@code --strategy random} and no {@code --seed} runs on the CLI's fresh seed, as a
 * user's would: what is asserted (an exit code of the contract, one line for exit 2) does not
 * depend on the walk's choices.
 */
class CliArgumentsFuzzTest {
    private static final String TRACE = Path.of("..").toAbsolutePath().normalize()
            .resolve("traces/corpus/rq-lock-before-fifo-entry.json").toString();
    private static final String[] TOKENS = {"list", "check", "replay", "render", "bench", "rq-lock", "cpudl", "lb-redo",
        "rwsem-owner", "--variant", "before", "after", "--property", "fifo-entry", "heap-order", "--cpus", "2", "3", "0", "-1",
        "99999999999", "--param", "cpus=3", "rounds=2", "lock=tas", "keys=edge", "x=", "=", "--strategy", "bfs", "dfs", "random",
        "--store", "exact", "fingerprint", "--max-states", "--time-limit", "1s", "250ms", "1e300h", "NaNs", "--memory", "64m", "1k",
        "--workers", "1", "256", "--seed", "-5", "--walk-depth", "--no-reduction", "--json", "--quiet", "--full-states",
        "--format", "text", "html", "dot", "--step-timeout", "0s", "--help", "--version", TRACE, "", " ", "--"};
    /** Options that write files or run unbounded work: inputs using them are not run. */
    private static final Set<String> SKIPPED = Set.of("--trace-out", "-o", "--output", "--output-dir", "--corpus", "--junit-xml",
            "--markdown", "--trace-dir", "--jmh", "--jmh-include", "--force", "verify", "variant", "--prove", "--variant-file");

    @FuzzTest(maxDuration = "60s")
    void argumentsAreRunOrRefusedWithOneLine(FuzzedDataProvider data) {
        List<String> args = new ArrayList<>();
        int n = data.consumeInt(0, 10);
        for (int i = 0; i < n; i++) {
            args.add(data.consumeBoolean() ? data.pickValue(TOKENS) : data.consumeString(24));
        }
        for (String a : args) {
            for (String s : SKIPPED) {
                if (a.equals(s) || a.startsWith(s + "=")) {
                    return;
                }
            }
        }
        int cmd = args.indexOf("check") >= 0 ? args.indexOf("check") : args.indexOf("bench");
        if (cmd >= 0) {
            boolean states = args.stream().anyMatch(a -> a.startsWith("--max-states"));
            boolean time = args.stream().anyMatch(a -> a.startsWith("--time-limit"));
            if (states && time) {
                return; /* both bounds chosen by the input: possibly unbounded */
            }
            args.addAll(cmd + 1, states ? List.of("--time-limit", "3s") : time ? List.of("--max-states", "500")
                    : List.of("--max-states", "500", "--time-limit", "3s"));
        }
        Cli c = Cli.run(args.toArray(String[]::new));
        /* Jazzer's agent logs the classes it instruments on stderr while they load */
        String err = String.join("\n", c.err.lines().filter(l -> !l.startsWith("INFO: ")).toList());
        assertThat(c.exit).as(args + ": " + err).isBetween(0, 3);
        assertThat(err).as(args.toString()).doesNotContain("\tat ").doesNotContain("Exception in thread").doesNotContain("internal error");
        if (c.exit == 2) {
            assertThat(err).as(args.toString()).startsWith("kcheck: ");
            assertThat(err.strip().lines().count()).as(args + ": " + err).isEqualTo(1);
        }
    }
}
