package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Breadth-first search: limits, early stop, several initial states, both stores and worker counts. */
class BfsTest {

    private static Options bfs() {
        return Options.defaults().withWorkers(1);
    }

    @Test
    void aDepthBoundEndsTheSearchIncompleteAtThatDepth() {
        RunResult r = Engine.check(new Counters(3, 4).deadlockFree(), bfs().withMaxDepth(3));
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(r.stats().limit()).isEqualTo("depth bound 3");
        assertThat(r.stats().depth()).isEqualTo(3);
        /* levels 0..3 of three counters: 1 + 3 + 6 + 10 */
        assertThat(r.stats().states()).isEqualTo(20);
    }

    @Test
    void theSearchStopsOnceEveryPropertyIsViolated() {
        RunResult r = Engine.check(new Counters(3, 9).sumIsNever(2).neverStepsTo(1), bfs());
        assertThat(r.property("sum-is-not-2").trace().length()).isEqualTo(2);
        assertThat(r.property("never-1").trace().length()).isEqualTo(1);
        assertThat(r.stats().complete()).isFalse();
        assertThat(r.stats().states()).isLessThan(100);
    }

    @Test
    void aMetricKeepsTheSearchGoingAfterEveryOtherPropertyIsViolated() {
        RunResult r = Engine.check(new Counters(3, 4).sumIsNever(2).perCounterMetric(), bfs());
        assertThat(r.stats().states()).isEqualTo(125);
        assertThat(r.property("value").metric().max()).containsExactly(4, 4, 4);
        RawTrace w = r.property("value").metric().witnesses()[2];
        assertThat(w.length()).as("a shortest witness: four steps of counter 2").isEqualTo(4);
        assertThat(w.states().get(4)).containsExactly(0, 0, 4);
    }

    @Test
    void tracesStartFromTheInitialStateTheyCameFrom() {
        Counters c = new Counters(2, 5).sumIsNever(8).deadlockFree();
        c.moreInitial.add(new long[] {4, 3});
        RunResult r = Engine.check(c, bfs());
        RawTrace t = r.property("sum-is-not-8").trace();
        assertThat(t.length()).isEqualTo(1);
        assertThat(t.states().get(0)).containsExactly(4, 3);
        assertThat(r.stats().states()).isEqualTo(36);
    }

    @Test
    void fingerprintFrontierGivesTheSameShortestTracesOnTwoWorkers() {
        for (Options o : List.of(bfs().withStore(StoreMode.FINGERPRINT), bfs().withStore(StoreMode.FINGERPRINT).withWorkers(2),
                bfs().withWorkers(2))) {
            RunResult r = Engine.check(new Counters(4, 6).sumIsNever(9).neverStepsTo(5).deadlockFree(), o);
            assertThat(r.property("sum-is-not-9").trace().length()).as(o.toString()).isEqualTo(9);
            assertThat(r.property("never-5").trace().length()).isEqualTo(5);
            assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.HOLDS);
            assertThat(r.stats().states()).isEqualTo(7 * 7 * 7 * 7);
            DfsTest.assertConsecutive(r.property("sum-is-not-9").trace());
        }
    }

    @Test
    void aFingerprintFrontierOutOfMemoryEndsIncomplete() {
        RunResult r = Engine.check(new Counters(6, 9).deadlockFree(),
                bfs().withStore(StoreMode.FINGERPRINT).withMemoryBytes(3L << 20));
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(r.stats().limit()).isEqualTo("memory budget");
    }

    @Test
    void aStateWhoseSuccessorsOutgrowTheBudgetEndsIncompleteSayingSo() {
        /* 4,000 successors of 32,000 bytes (128 MB) from the initial state, against a budget of 16 MiB */
        RunResult r = Engine.check(new Counters(4000, 1).deadlockFree(), bfs().withMemoryBytes(16L << 20));
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(r.stats().limit()).matches("memory budget: one state has over \\d+ successors of 32,000 bytes \\(\\d+\\.\\d MiB\\)");
        assertThat(r.stats().states()).as("the initial state was stored").isEqualTo(1);
    }

    @Test
    void aStateLimitOnTwoWorkersStopsAtTheLimit() {
        RunResult r = Engine.check(new Counters(4, 9).deadlockFree(), bfs().withWorkers(2).withMaxStates(500));
        assertThat(r.stats().limit()).isEqualTo("state limit 500");
        assertThat(r.stats().states()).isLessThanOrEqualTo(500);
    }
}
