package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Depth-first search: exhaustive like BFS, its traces are discovery paths. */
class DfsTest {

    private static Options dfs() {
        return Options.defaults().withWorkers(1).withStrategy(Strategy.DFS);
    }

    @Test
    void findsADeadlockAndEndsTheTraceInTheStuckState() {
        Counters c = new Counters(2, 3).deadlockFree();
        c.deadlockAt = 2;
        PropertyResult p = Engine.check(c, dfs()).property("deadlock-free");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        RawTrace t = p.trace();
        assertThat(t.states().get(t.length())).containsExactly(2, 3);
        assertConsecutive(t);
    }

    @Test
    void aStepPropertyTraceEndsWithTheViolatingStep() {
        PropertyResult p = Engine.check(new Counters(2, 4).neverStepsTo(3), dfs()).property("never-3");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        RawTrace t = p.trace();
        assertThat(t.violationStep()).isEqualTo(t.length());
        int a = t.actors()[t.length() - 1];
        assertThat(t.states().get(t.length())[a]).isEqualTo(3);
        assertConsecutive(t);
    }

    @Test
    void everyStoreCountsTheSameStatesAndAFullSearchHolds() {
        RunResult exact = Engine.check(new Counters(3, 3).deadlockFree().sumIsNever(99), dfs());
        RunResult fp = Engine.check(new Counters(3, 3).deadlockFree().sumIsNever(99), dfs().withStore(StoreMode.FINGERPRINT));
        assertThat(exact.stats().states()).isEqualTo(fp.stats().states()).isEqualTo(64);
        assertThat(exact.stats().complete()).isTrue();
        assertThat(exact.property("sum-is-not-99").verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(exact.stats().transitions()).isEqualTo(3 * 3 * 16);
        assertThat(exact.stats().depth()).isEqualTo(9);
    }

    @Test
    void stopsOnceEveryPropertyIsViolatedAndSaysItIsNotComplete() {
        RunResult r = Engine.check(new Counters(3, 9).sumIsNever(1), dfs());
        assertThat(r.property("sum-is-not-1").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.stats().states()).isLessThan(1000);
        assertThat(r.stats().complete()).isFalse();
    }

    @Test
    void findsANonProgressLasso() {
        Counters c = new Counters(2, 2).progressOutside0();
        c.wrap = true;
        PropertyResult p = Engine.check(c, dfs()).property("progress");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        RawTrace t = p.trace();
        assertThat(t.loopStart()).isGreaterThanOrEqualTo(0);
        assertThat(t.states().get(t.length())).containsExactly(t.states().get(t.loopStart()));
    }

    @Test
    void stateLimitGivesIncomplete() {
        RunResult r = Engine.check(new Counters(4, 9).deadlockFree(), dfs().withMaxStates(50));
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(r.stats().limit()).isEqualTo("state limit 50");
    }

    static void assertConsecutive(RawTrace t) {
        for (int i = 0; i < t.length(); i++) {
            long[] a = t.states().get(i);
            long[] b = t.states().get(i + 1);
            int actor = t.actors()[i];
            for (int j = 0; j < a.length; j++) {
                assertThat(b[j]).as("step %d, counter %d", i + 1, j).isEqualTo(j == actor ? a[j] + 1 : a[j]);
            }
        }
    }

    @Test
    void theDepthFirstSearchKeepsFullStatesUnlessAskedForFingerprintsWithoutProgressProperties() {
        Options dfs = Options.defaults().withWorkers(1).withStrategy(Strategy.DFS);
        assertThat(Engine.check(new Counters(2, 2).deadlockFree(), dfs).stats().store()).isEqualTo(StoreMode.EXACT);
        assertThat(Engine.check(new Counters(2, 2).deadlockFree(), dfs.withStore(StoreMode.FINGERPRINT)).stats().store())
                .isEqualTo(StoreMode.FINGERPRINT);
        assertThat(Engine.check(new Counters(2, 2).progressOutside0(), dfs.withStore(StoreMode.FINGERPRINT)).stats().store())
                .as("progress needs the full graph").isEqualTo(StoreMode.EXACT);
    }

    @Test
    void anInitialStateWithIdZeroIsExplored() {
        HandGraph g = new HandGraph(HandGraph.ids(0, 5, 9), new int[][] {{0, 1, 0}, {1, 2, 0}}, null, false);
        RunResult r = Engine.check(g, Options.defaults().withWorkers(1).withStrategy(Strategy.DFS));
        assertThat(r.stats().states()).isEqualTo(3);
    }

    @Test
    void anInitialStateIsStoredInItsCanonicalForm() {
        /* node 0 (initial) is a twin of node 1: 0 -> 2, 1 -> 2, 2 -> 1; two states, as in BFS */
        HandGraph g = new HandGraph(HandGraph.plain(3), new int[][] {{0, 2, 0}, {1, 2, 0}, {2, 1, 0}}, null, false,
                new int[] {1, 1, 2});
        RunResult bfs = Engine.check(g, Options.defaults().withWorkers(1));
        RunResult dfs = Engine.check(g, Options.defaults().withWorkers(1).withStrategy(Strategy.DFS));
        assertThat(bfs.stats().states()).isEqualTo(2);
        assertThat(dfs.stats().states()).isEqualTo(2);
    }
}
