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
