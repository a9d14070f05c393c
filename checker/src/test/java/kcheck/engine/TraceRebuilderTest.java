package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Traces are rebuilt from (parent, successor ordinal) links by re-executing steps. Under a
 * symmetry reduction the stored states are sorted counters; the trace must be the concrete run
 * (each step increments the counter of its actor), not the canonical states.
 */
class TraceRebuilderTest {

    private static Counters symmetric(int k, int max) {
        Counters c = new Counters(k, max);
        c.symmetric = true;
        return c;
    }

    @Test
    void anInvariantTraceUnderSymmetryIsAConcreteRun() {
        RunResult r = Engine.check(symmetric(3, 4).sumIsNever(7), Options.defaults().withWorkers(1));
        RawTrace t = r.property("sum-is-not-7").trace();
        assertThat(t.length()).isEqualTo(7);
        DfsTest.assertConsecutive(t);
    }

    @Test
    void aStepPropertyTraceUnderSymmetryEndsWithAStepThatViolates() {
        RunResult r = Engine.check(symmetric(3, 5).neverStepsTo(4), Options.defaults().withWorkers(1));
        RawTrace t = r.property("never-4").trace();
        assertThat(t.length()).isEqualTo(4);
        DfsTest.assertConsecutive(t);
        int a = t.actors()[3];
        assertThat(t.states().get(4)[a]).isEqualTo(4);
    }

    @Test
    void ofTwoConcreteStepsToTheStoredStateTheTraceEndsWithTheOneThatViolates() {
        /* each increment has a fast (0) and a slow (3) action to the same state; only the slow one to
           3 violates. The stored step names the slow one by its ordinal from the canonical state, but
           the rebuilder replays from the concrete state and matches canonical forms, where both
           actions match: the last step must be chosen by the property, and the others need not be */
        Counters c = symmetric(2, 3);
        c.slowPath = true;
        c.neverSlowStepsTo(3);
        RawTrace t = Engine.check(c, Options.defaults().withWorkers(1)).property("never-slow-3").trace();
        assertThat(t.length()).isEqualTo(3);
        DfsTest.assertConsecutive(t);
        int last = t.length() - 1;
        assertThat(t.actions()[last]).as("the last step's action").isEqualTo(3);
        assertThat(t.states().get(t.length())[t.actors()[last]]).isEqualTo(3);
    }

    @Test
    void aMetricWitnessUnderSymmetryIsAConcreteRun() {
        RunResult r = Engine.check(symmetric(3, 3).sumMetric(Long.MAX_VALUE), Options.defaults().withWorkers(1));
        RawTrace w = r.property("sum").metric().witnesses()[0];
        assertThat(w.length()).isEqualTo(9);
        DfsTest.assertConsecutive(w);
    }

    @Test
    void aTraceFromANonCanonicalInitialStateFollowsTheStoredSteps() {
        /* (2,0,0) is stored as (0,0,2); its successor ordinals are those of (0,0,2), so the rebuilder
           must re-execute them from the canonical form: ordinal 2 of (0,0,2) raises the 2 to 3, which
           from (2,0,0) is actor 0's step, the only one that violates */
        Counters c = symmetric(3, 4);
        c.moreInitial.add(new long[] {2, 0, 0});
        c.with(new kcheck.model.Invariant("no-3", "no counter reaches 3") {
            @Override
            public boolean holds(long[] s) {
                return s[0] != 3 && s[1] != 3 && s[2] != 3;
            }
        });
        RawTrace t = Engine.check(c, Options.defaults().withWorkers(1)).property("no-3").trace();
        assertThat(t.length()).isEqualTo(1);
        assertThat(t.states().get(0)).containsExactly(2, 0, 0);
        assertThat(t.states().get(1)).containsExactly(3, 0, 0);
        DfsTest.assertConsecutive(t);
    }
}
