package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** Seeded random walks: what they find is minimised; what they do not find is never HOLDS. */
class RandomWalkTest {

    private static Options walk(long seed) {
        return Options.defaults().withWorkers(1).withStrategy(Strategy.RANDOM).withSeed(seed);
    }

    @Test
    void aDeadlockIsMinimisedToTheShortestWayIntoTheStuckState() {
        Counters c = new Counters(3, 3).deadlockFree();
        c.deadlockAt = 2;
        PropertyResult p = Engine.check(c, walk(3)).property("deadlock-free");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        RawTrace t = p.trace();
        long[] last = t.states().get(t.length());
        assertThat(last).containsExactly(2, 3, 3);
        assertThat(t.length()).as("2 + 3 + 3 increments, nothing more").isEqualTo(8);
        assertThat(t.before()).isGreaterThanOrEqualTo(t.length());
        DfsTest.assertConsecutive(t);
    }

    @Test
    void aStepPropertyIsMinimisedToItsViolatingStep() {
        PropertyResult p = Engine.check(new Counters(3, 5).neverStepsTo(4), walk(11)).property("never-4");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        RawTrace t = p.trace();
        assertThat(t.length()).isEqualTo(4);
        assertThat(t.violationStep()).isEqualTo(4);
        assertThat(p.message()).isNotBlank();
        DfsTest.assertConsecutive(t);
    }

    @Test
    void metricsAreMaximisedWithAWitnessAndABoundIsAViolation() {
        PropertyResult m = Engine.check(new Counters(2, 3).perCounterMetric(), walk(5)).property("value");
        assertThat(m.verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(m.metric().max()).containsExactly(3, 3);
        assertThat(m.metric().witnesses()[1].states().get(m.metric().witnesses()[1].length())[1]).isEqualTo(3);
        PropertyResult b = Engine.check(new Counters(2, 3).sumMetric(4), walk(5)).property("sum");
        assertThat(b.verdict()).isEqualTo(Verdict.VIOLATED);
    }

    @Test
    void withoutALimitItStopsAfterAThousandWalksAndSaysSo() {
        RunResult r = Engine.check(new Counters(2, 2).deadlockFree(), walk(1));
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(r.stats().limit()).isEqualTo("1000 walks");
        assertThat(r.property("deadlock-free").message()).contains("1000 walks").contains("never proves HOLDS");
        assertThat(r.stats().transitions()).as("1000 walks of 4 steps").isEqualTo(4000);
        assertThat(r.stats().states()).isEqualTo(9);
        assertThat(r.stats().depth()).isEqualTo(4);
    }

    @Test
    void stateAndTimeLimitsEndTheWalks() {
        RunResult s = Engine.check(new Counters(5, 20).deadlockFree(), walk(1).withMaxStates(30));
        assertThat(s.stats().limit()).isEqualTo("state limit 30");
        RunResult t = Engine.check(new Counters(5, 20).deadlockFree(), walk(1).withTimeLimit(Duration.ofMillis(100)));
        assertThat(t.stats().limit()).isEqualTo("time limit 100ms");
    }

    @Test
    void aWalkStopsAtItsDepth() {
        RunResult r = Engine.check(new Counters(2, 50).deadlockFree(), walk(1).withWalkDepth(7).withMaxStates(20));
        assertThat(r.stats().depth()).isEqualTo(7);
    }

    @Test
    void anInitialStateThatBreaksAnInvariantIsReportedWithoutASingleStep() {
        PropertyResult p = Engine.check(new Counters(2, 3).sumIsNever(0), walk(2)).property("sum-is-not-0");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().length()).isZero();
    }

    @Test
    void aMetricReachingExactlyItsBoundIsNoViolation() {
        PropertyResult p = Engine.check(new Counters(2, 3).sumMetric(6), walk(5)).property("sum");
        assertThat(p.metric().max()).containsExactly(6);
        assertThat(p.verdict()).isEqualTo(Verdict.INCOMPLETE);
    }

    @Test
    void aMetricOfNegativeValuesHasItsTrueMaximumItsWitnessesAndItsComponentNames() {
        Counters c = new Counters(2, 2).with(new kcheck.model.Metric("neg", "minus one minus each counter") {
            @Override
            public int components() {
                return 2;
            }

            @Override
            public String componentName(int k) {
                return "n" + k;
            }

            @Override
            public long value(long[] s, int k) {
                return -1 - s[k];
            }
        });
        PropertyResult p = Engine.check(c, walk(5)).property("neg");
        assertThat(p.metric().components()).containsExactly("n0", "n1");
        assertThat(p.metric().max()).containsExactly(-1, -1);
        assertThat(p.metric().witnesses()[0].length()).as("the initial state is the witness").isZero();
    }

    /** 0 -(actor 2, action 1)-> 1 -(actor 0, action 0)-> 2; the metric is the node. */
    private static HandGraph twoStepsWithActorsAndActions() {
        return new HandGraph(HandGraph.plain(3), new int[][] {{0, 1, 2, 1}, {1, 2, 0}}, null, false);
    }

    @Test
    void aMetricWitnessNamesTheActorAndActionOfEachStep() {
        HandGraph g = twoStepsWithActorsAndActions();
        g.with(new kcheck.model.Metric("node", "the node") {
            @Override
            public long value(long[] s, int k) {
                return g.node(s);
            }
        });
        PropertyResult p = Engine.check(g, walk(1)).property("node");
        RawTrace w = p.metric().witnesses()[0];
        assertThat(p.metric().max()).containsExactly(2);
        assertThat(w.actors()).containsExactly(2, 0);
        assertThat(w.actions()).containsExactly(1, 0);
    }

    @Test
    void aStepPropertyBrokenByActorZerosStepEndsTheMinimisedTraceWithThatStep() {
        HandGraph g = twoStepsWithActorsAndActions();
        g.with(new kcheck.model.StepProperty("not-into-2", "no step goes to node 2") {
            @Override
            public boolean holds(long[] from, int actor, int action, long[] to) {
                return g.node(to) != 2;
            }
        });
        PropertyResult p = Engine.check(g, walk(1)).property("not-into-2");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        RawTrace t = p.trace();
        assertThat(t.actors()).containsExactly(2, 0);
        assertThat(t.actions()).containsExactly(1, 0);
        assertThat(t.violationStep()).isEqualTo(2);
        assertThat(g.node(t.states().get(2))).isEqualTo(2);
    }

    @Test
    void aDeadlockReachedAfterDetoursIsMinimisedToItsTwoSteps() {
        /* 0 -> 3, 4 or 5, each straight back to 0, or 0 -> 1 -> 2, where nothing is enabled */
        HandGraph g = new HandGraph(HandGraph.plain(6),
                new int[][] {{0, 3, 0}, {0, 4, 0}, {0, 5, 0}, {0, 1, 1}, {1, 2, 1}, {3, 0, 0}, {4, 0, 0}, {5, 0, 0}}, null, false);
        g.with(kcheck.model.Deadlock.standard());
        PropertyResult p = Engine.check(g, walk(1)).property(kcheck.model.Deadlock.standard().id());
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().before()).as("the walk took detours").isGreaterThan(2);
        assertThat(g.nodes(p.trace())).containsExactly(0, 1, 2);
    }
}
