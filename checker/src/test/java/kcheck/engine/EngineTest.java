package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

// real threads (searches with 2 workers): a time limit, so a deadlock fails the build instead of hanging it
@org.junit.jupiter.api.Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
class EngineTest {

    private static Options bfs() {
        return Options.defaults().withWorkers(1);
    }

    private static long binomial(int n, int k) {
        long r = 1;
        for (int i = 1; i <= k; i++) {
            r = r * (n - k + i) / i;
        }
        return r;
    }

    @Test
    void bfsCountsEveryCombinationOfIndependentCounters() {
        RunResult r = Engine.check(new Counters(3, 4).deadlockFree(), bfs());
        assertThat(r.stats().states()).isEqualTo(125);
        assertThat(r.stats().transitions()).isEqualTo(3 * 4 * 25);
        assertThat(r.stats().depth()).isEqualTo(12);
        assertThat(r.stats().complete()).isTrue();
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void everyStrategyStoreAndWorkerCountFindsTheSameStates() {
        for (Options o : List.of(bfs(), bfs().withWorkers(2), bfs().withStore(StoreMode.FINGERPRINT),
                bfs().withStore(StoreMode.FINGERPRINT).withWorkers(2), bfs().withStrategy(Strategy.DFS))) {
            RunResult r = Engine.check(new Counters(4, 5).deadlockFree(), o);
            assertThat(r.stats().states()).as(o.toString()).isEqualTo(1296);
            assertThat(r.stats().complete()).isTrue();
        }
    }

    @Test
    void largeProductSpacesCountExactlyAcrossTableGrowth() {
        RunResult seq = Engine.check(new Counters(5, 15).deadlockFree(), bfs());
        RunResult par = Engine.check(new Counters(5, 15).deadlockFree(), bfs().withWorkers(2));
        assertThat(seq.stats().states()).isEqualTo(16L * 16 * 16 * 16 * 16);
        assertThat(par.stats().states()).isEqualTo(seq.stats().states());
        assertThat(par.stats().depth()).isEqualTo(seq.stats().depth()).isEqualTo(75);
    }

    @Test
    void bfsReturnsAShortestCounterexample() {
        RunResult r = Engine.check(new Counters(3, 4).sumIsNever(6), bfs());
        PropertyResult p = r.property("sum-is-not-6");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().length()).isEqualTo(6);
        long[] last = p.trace().states().get(6);
        assertThat(last[0] + last[1] + last[2]).isEqualTo(6);
        RunResult dfs = Engine.check(new Counters(3, 4).sumIsNever(6), bfs().withStrategy(Strategy.DFS));
        assertThat(dfs.property("sum-is-not-6").trace().length()).isGreaterThanOrEqualTo(6);
    }

    @Test
    void parallelBfsFindsCounterexamplesOfTheSameShortestLength() {
        RunResult r = Engine.check(new Counters(4, 6).sumIsNever(9), bfs().withWorkers(2));
        assertThat(r.property("sum-is-not-9").trace().length()).isEqualTo(9);
    }

    @Test
    void tracesAreConsecutiveStepsOfTheModel() {
        RunResult r = Engine.check(new Counters(3, 4).sumIsNever(5), bfs());
        RawTrace t = r.property("sum-is-not-5").trace();
        for (int i = 0; i < t.length(); i++) {
            long[] a = t.states().get(i);
            long[] b = t.states().get(i + 1);
            int actor = t.actors()[i];
            assertThat(b[actor]).isEqualTo(a[actor] + 1);
        }
    }

    @Test
    void stepPropertyViolationEndsWithTheViolatingStep() {
        RunResult r = Engine.check(new Counters(2, 4).neverStepsTo(3), bfs());
        PropertyResult p = r.property("never-3");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().length()).isEqualTo(3);
        assertThat(p.trace().violationStep()).isEqualTo(3);
    }

    @Test
    void symmetryReductionStoresOneStatePerMultisetAndKeepsVerdicts() {
        Counters c = new Counters(3, 4).sumIsNever(7).deadlockFree();
        c.symmetric = true;
        RunResult r = Engine.check(c, bfs());
        assertThat(r.stats().states()).isEqualTo(binomial(4 + 3, 3));
        assertThat(r.property("sum-is-not-7").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.property("sum-is-not-7").trace().length()).isEqualTo(7);
        Counters off = new Counters(3, 4).sumIsNever(7).deadlockFree();
        off.symmetric = true;
        RunResult unreduced = Engine.check(off, bfs().withReductions(false));
        assertThat(unreduced.stats().states()).isEqualTo(125);
    }

    @Test
    void deadlockIsReportedWithAPathToTheStuckState() {
        Counters c = new Counters(2, 3).deadlockFree();
        c.deadlockAt = 2;
        RunResult r = Engine.check(c, bfs());
        PropertyResult p = r.property("deadlock-free");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        long[] stuck = p.trace().states().get(p.trace().length());
        assertThat(stuck).containsExactly(2, 3);
    }

    @Test
    void metricReportsTheMaximumWithAShortestWitness() {
        RunResult r = Engine.check(new Counters(3, 4).sumMetric(Long.MAX_VALUE), bfs());
        PropertyResult p = r.property("sum");
        assertThat(p.verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(p.metric().max()).containsExactly(12);
        assertThat(p.metric().witnesses()[0].length()).isEqualTo(12);
    }

    @Test
    void metricAboveItsBoundIsAViolation() {
        RunResult r = Engine.check(new Counters(3, 4).sumMetric(5), bfs());
        assertThat(r.property("sum").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.property("sum").trace().length()).isEqualTo(6);
    }

    @Test
    void stateLimitGivesIncompleteNeverHolds() {
        RunResult r = Engine.check(new Counters(4, 9).deadlockFree(), bfs().withMaxStates(100));
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(r.stats().complete()).isFalse();
        assertThat(r.stats().limit()).contains("state limit");
        assertThat(r.stats().states()).isLessThanOrEqualTo(100);
    }

    @Test
    void timeLimitGivesIncomplete() {
        RunResult r = Engine.check(new Counters(8, 9).deadlockFree(), bfs().withTimeLimit(Duration.ofMillis(50)));
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(r.stats().limit()).contains("time limit");
    }

    @Test
    void memoryBudgetGivesIncompleteInsteadOfOutOfMemory() {
        RunResult r = Engine.check(new Counters(8, 9).deadlockFree(), bfs().withMemoryBytes(2L << 20));
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(r.stats().limit()).contains("memory");
    }

    @Test
    void cycleWithoutProgressIsALasso() {
        Counters c = new Counters(2, 2).progressOutside0();
        c.wrap = true;
        RunResult r = Engine.check(c, bfs());
        PropertyResult p = r.property("progress");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        RawTrace t = p.trace();
        assertThat(t.loopStart()).isEqualTo(0);
        assertThat(t.length() - t.loopStart()).isEqualTo(3);
        assertThat(t.states().get(t.length())).containsExactly(t.states().get(t.loopStart()));
    }

    @Test
    void selfLoopWithoutProgressIsALasso() {
        Counters c = new Counters(2, 1).progressOutside0();
        c.idleLoop = true;
        RunResult r = Engine.check(c, bfs());
        assertThat(r.property("progress").verdict()).isEqualTo(Verdict.VIOLATED);
        RawTrace t = r.property("progress").trace();
        assertThat(t.loopStart()).as("the initial state already loops").isEqualTo(0);
        assertThat(t.length()).isEqualTo(1);
    }

    @Test
    void acyclicGraphHasNoProgressViolation() {
        RunResult r = Engine.check(new Counters(2, 3).progressOutside0(), bfs());
        assertThat(r.property("progress").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void progressNeedsAnExhaustiveSearch() {
        Counters c = new Counters(3, 9).progressOutside0();
        RunResult r = Engine.check(c, bfs().withMaxStates(50));
        assertThat(r.property("progress").verdict()).isEqualTo(Verdict.INCOMPLETE);
    }

    @Test
    void randomWalkFindsAndMinimisesButNeverProvesHolds() {
        RunResult bad = Engine.check(new Counters(3, 4).sumIsNever(4), bfs().withStrategy(Strategy.RANDOM).withSeed(7));
        PropertyResult p = bad.property("sum-is-not-4");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().length()).isEqualTo(4);
        RunResult good = Engine.check(new Counters(3, 4).sumIsNever(99), bfs().withStrategy(Strategy.RANDOM).withSeed(7));
        assertThat(good.property("sum-is-not-99").verdict()).isEqualTo(Verdict.INCOMPLETE);
    }

    @Test
    void randomWalkIsRepeatableFromItsSeed() {
        Options o = bfs().withStrategy(Strategy.RANDOM).withSeed(12345);
        RunResult a = Engine.check(new Counters(3, 4).sumIsNever(99), o);
        RunResult b = Engine.check(new Counters(3, 4).sumIsNever(99), o);
        assertThat(a.stats().states()).isEqualTo(b.stats().states());
        assertThat(a.stats().transitions()).isEqualTo(b.stats().transitions());
    }

    @Test
    void fingerprintModeReportsItsOmissionProbability() {
        RunResult r = Engine.check(new Counters(4, 5).deadlockFree(), bfs().withStore(StoreMode.FINGERPRINT));
        assertThat(r.stats().omission()).isGreaterThan(0).isLessThan(1e-9);
        assertThat(r.stats().bytesPerState()).isLessThanOrEqualTo(16.0 * 64 * 256 / 1296 + 16);
    }
}
