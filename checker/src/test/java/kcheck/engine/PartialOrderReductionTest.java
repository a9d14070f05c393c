package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Partial-order reduction on counters whose steps touch only their own counter, except counter
 * 0 whose steps are visible (a property reads it): counted by hand.
 */
class PartialOrderReductionTest {

    private static Options bfs() {
        return Options.defaults().withWorkers(1);
    }

    private static Counters independent(int k, int max) {
        Counters c = new Counters(k, max);
        c.footprints = true;
        return c;
    }

    /**
     * 3 counters to 4: from (0,0,0) the invisible actors 1 and 2 run alone, one after the other
     * (the first enabled invisible actor is the ample set), 8 states after the initial one; then
     * only actor 0 is left and its 4 steps are taken: 13 states instead of 125.
     */
    @Test
    void invisibleIndependentStepsAreTakenByOneActorAtATime() {
        RunResult r = Engine.check(independent(3, 4).deadlockFree(), bfs());
        assertThat(r.stats().states()).isEqualTo(13);
        assertThat(r.stats().ampleStates()).as("states expanded with an ample set").isEqualTo(8);
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(r.stats().depth()).isEqualTo(12);
    }

    @Test
    void withoutReductionsOrWithoutPartialOrderEveryInterleavingIsStored() {
        assertThat(Engine.check(independent(3, 4).deadlockFree(), bfs().withReductions(false)).stats().states()).isEqualTo(125);
        RunResult noPor = Engine.check(independent(3, 4).deadlockFree(), bfs().withPartialOrder(false));
        assertThat(noPor.stats().states()).isEqualTo(125);
        assertThat(noPor.stats().ampleStates()).isZero();
    }

    /**
     * In the reduced graph counter 0 first reaches 3 after 11 steps (actors 1 and 2 run first);
     * the violation is searched again without the reduction, so the trace is a shortest one.
     */
    @Test
    void aViolationFoundWithTheReductionIsReportedWithAShortestTrace() {
        RunResult r = Engine.check(independent(3, 4).counter0IsNever(3), bfs());
        PropertyResult p = r.property("c0-is-not-3");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().length()).isEqualTo(3);
        assertThat(r.stats().shortestTraces()).isTrue();
        assertThat(p.trace().states().get(3)[0]).isEqualTo(3);
    }

    @Test
    void twoWorkersReduceToTheSameCountAndVerdicts() {
        RunResult one = Engine.check(independent(4, 3).deadlockFree().counter0IsNever(9), bfs());
        RunResult two = Engine.check(independent(4, 3).deadlockFree().counter0IsNever(9), bfs().withWorkers(2));
        assertThat(two.stats().states()).isEqualTo(one.stats().states()).isEqualTo(1 + 3 * 3 + 3);
        assertThat(two.property("c0-is-not-9").verdict()).isEqualTo(Verdict.HOLDS);
    }

    /** A progress property turns partial-order reduction off (its cycles need every interleaving). */
    @Test
    void progressPropertiesAreCheckedOnTheFullGraph() {
        Counters c = independent(3, 2).progressOutside0();
        RunResult r = Engine.check(c, bfs());
        assertThat(r.stats().states()).isEqualTo(27);
        assertThat(r.stats().ampleStates()).isZero();
    }
}
