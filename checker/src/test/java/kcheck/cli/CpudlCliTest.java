package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The cpudl command lines of issue 3. */
class CpudlCliTest {

    @Test
    void beforeHeapOrderExitsOneWithATwoStepTimelineOfHeapAndIndexArrays() {
        Cli c = Cli.run("check", "cpudl", "--variant", "before", "--property", "heap-order", "--quiet");
        assertThat(c.exit).isEqualTo(1);
        assertThat(c.out).contains("heap-order    VIOLATED    shortest trace 2 steps")
                .contains("cpudl_set(cpu=0, dl=2^63)").contains("cpudl_set(cpu=1, dl=2^63+1)")
                .contains("heap = op 1: [0:2^63]").contains("idx = op 1: [0 - - -]")
                .contains("heap = op 2: [0:2^63 1:2^63+1]").contains("idx = op 2: [0 1 - -]")
                .contains("VIOLATION of heap-order at step 2");
    }

    @Test
    void afterHoldsExhaustivelyForFourCpusAtDepthFour() {
        Cli c = Cli.run("check", "cpudl", "--variant", "after", "--cpus", "4", "--param", "depth=4", "--quiet");
        assertThat(c.exit).isZero();
        assertThat(c.out).doesNotContain("VIOLATED").doesNotContain("NOT EXHAUSTIVE")
                .contains("writes (maximum over all reachable states)").contains("cpudl_set").contains("cpudl_clear");
    }

    @Test
    void rfcV2ExitsOneWithSmallKeys() {
        Cli c = Cli.run("check", "cpudl", "--variant", "rfc-v2", "--param", "keys=small", "--property", "heap-order", "--quiet");
        assertThat(c.exit).isEqualTo(1);
        assertThat(c.out).contains("VIOLATION of heap-order");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "--cpus, 0, 'parameter ''cpus'' must be in 1..4096, got 0'",
        "--cpus, 4097, 'parameter ''cpus'' must be in 1..4096, got 4097'",
        "--property, no-such, 'unknown property ''no-such'''",
        "--param, depth=13, 'parameter ''depth'' must be in 1..12, got 13'",
        "--param, depth=0, 'parameter ''depth'' must be in 1..12, got 0'",
        "--param, keys=big, 'parameter ''keys'' must be one of edge|small|wrap'"})
    void badInputExitsTwoWithOneLine(String option, String value, String fragment) {
        Cli c = Cli.run("check", "cpudl", option, value, "--quiet");
        assertThat(c.exit).isEqualTo(2);
        assertThat(c.err.strip().lines().count()).as(c.err).isEqualTo(1);
        assertThat(c.err).startsWith("kcheck: cpudl: ").contains(fragment).doesNotContain("Exception");
    }
}
