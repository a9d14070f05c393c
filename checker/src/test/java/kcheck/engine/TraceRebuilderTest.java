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
    void aMetricWitnessUnderSymmetryIsAConcreteRun() {
        RunResult r = Engine.check(symmetric(3, 3).sumMetric(Long.MAX_VALUE), Options.defaults().withWorkers(1));
        RawTrace w = r.property("sum").metric().witnesses()[0];
        assertThat(w.length()).isEqualTo(9);
        DfsTest.assertConsecutive(w);
    }
}
