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
}
