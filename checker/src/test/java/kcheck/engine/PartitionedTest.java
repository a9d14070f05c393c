package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The partitioned search, batches carried in memory, against figures known by hand (the cluster
 * module runs it over Pekko on every baseline group against the one-machine search).
 */
class PartitionedTest {

    @Test
    void threePartitionsCountWhatOneMachineCounts() {
        InMemoryDriver d = new InMemoryDriver(3);
        RunResult r = Partitioned.check(new Counters(4, 9).deadlockFree(), Options.defaults(), d);
        assertThat(r.stats().states()).isEqualTo(10_000);
        assertThat(r.stats().depth()).isEqualTo(36);
        assertThat(r.stats().transitions()).isEqualTo(4L * 9 * 1000);
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(d.batches).as("successors travel between partitions").isPositive();
    }

    @Test
    void aCounterexampleIsRebuiltAcrossPartitionsAndIsShortest() {
        RunResult r = Partitioned.check(new Counters(4, 9).sumIsNever(13).neverStepsTo(7), Options.defaults(),
                new InMemoryDriver(3));
        RawTrace t = r.property("sum-is-not-13").trace();
        assertThat(t.length()).isEqualTo(13);
        for (int i = 0; i < t.length(); i++) {
            assertThat(t.states().get(i + 1)[t.actors()[i]]).isEqualTo(t.states().get(i)[t.actors()[i]] + 1);
        }
        assertThat(r.property("never-7").trace().length()).isEqualTo(7);
    }

    @Test
    void metricsAreMergedWithShortestWitnesses() {
        RunResult r = Partitioned.check(new Counters(3, 5).sumMetric(Long.MAX_VALUE), Options.defaults(), new InMemoryDriver(4));
        assertThat(r.property("sum").metric().max()).containsExactly(15);
        assertThat(r.property("sum").metric().witnesses()[0].length()).isEqualTo(15);
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0} partitions")
    @org.junit.jupiter.params.provider.ValueSource(ints = {2, 3, 4, 5})
    void aViolationAtASingleStateSurvivesTheMergeOfPartitionsThatDidNotSeeIt(int n) {
        /* [9, 9, 9, 9] is the one state whose counters sum to 36: one partition owns it */
        RunResult r = Partitioned.check(new Counters(4, 9).sumIsNever(36), Options.defaults(), new InMemoryDriver(n));
        assertThat(r.property("sum-is-not-36").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.property("sum-is-not-36").trace().length()).isEqualTo(36);
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0} partitions")
    @org.junit.jupiter.params.provider.ValueSource(ints = {2, 3, 4, 5})
    void theShallowestViolationOfAllPartitionsIsTheOneReported(int n) {
        /* counter 0 reaches 2 at depth 2 in one state only, and deeper in many: each partition keeps its shallowest */
        RunResult r = Partitioned.check(new Counters(4, 9).counter0IsNever(2), Options.defaults(), new InMemoryDriver(n));
        assertThat(r.property("c0-is-not-2").trace().length()).isEqualTo(2);
    }

    @Test
    void aViolationReceivedFromAnotherPartitionIsRankedByItsTrueDepth() {
        /* counter 0 = v is reached first at depth v and again at every depth after: whichever partition
           saw it first, locally or in a batch from another partition, the trace reported is of length v */
        for (int n = 2; n <= 5; n++) {
            for (int v = 1; v <= 8; v++) {
                RunResult r = Partitioned.check(new Counters(4, 9).counter0IsNever(v).deadlockFree(), Options.defaults(),
                        new InMemoryDriver(n));
                assertThat(r.property("c0-is-not-" + v).trace().length()).as("%d partitions, c0 = %d", n, v).isEqualTo(v);
            }
        }
    }

    @Test
    void partitionsLeaveNoFilesBehind() throws Exception {
        long before = ourPartitionDirs();
        Partitioned.check(new Counters(3, 5).deadlockFree(), Options.defaults(), new InMemoryDriver(3));
        assertThat(ourPartitionDirs()).as("kcheck-partition-<pid>-* directories in java.io.tmpdir").isEqualTo(before);
    }

    private static long ourPartitionDirs() throws Exception {
        String prefix = "kcheck-partition-" + ProcessHandle.current().pid() + "-";
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).count();
        }
    }
}
