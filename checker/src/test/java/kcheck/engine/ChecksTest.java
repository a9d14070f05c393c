package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;

import org.junit.jupiter.api.Test;

import kcheck.model.Metric;

/**
 * What a run has found so far, recorded by many workers and merged from many partitions: the
 * shallowest violation of each property (on a tie, the first recorded, or across partitions the
 * smaller id), each metric's maximum with its shallowest witness, and the count of properties
 * still open that lets a search stop early. Driven directly, state ids and depths made up. (PIT
 * found these rules checked only through whole searches, where ties are rare.)
 */
class ChecksTest {

    /** Two invariants ("sum-is-not-3", "c0-is-not-1") and deadlock freedom on two counters. */
    private static Checks safety() {
        return new Checks(new Counters(2, 3).sumIsNever(3).counter0IsNever(1).deadlockFree());
    }

    private static Checks withMetric(long bound) {
        return new Checks(new Counters(2, 3).sumMetric(bound));
    }

    @Test
    void aShallowerInvariantViolationReplacesADeeperOneButAnEquallyDeepOneDoesNot() {
        Checks c = safety();
        c.recordInvariant(0, 50, 5, "deep");
        c.recordInvariant(0, 30, 3, "shallow");
        c.recordInvariant(0, 20, 3, "as shallow, later");
        c.recordInvariant(0, 10, 4, "deeper again");
        assertThat(c.invariantViolations[0]).isEqualTo(new Violation(30, -1, 3, "shallow"));
        assertThat(c.invariantViolations[1]).isNull();
    }

    @Test
    void aShallowerStepViolationReplacesADeeperOneButAnEquallyDeepOneDoesNot() {
        Checks c = new Checks(new Counters(2, 3).neverStepsTo(2));
        c.recordStep(0, 50, 1, 5, "deep");
        c.recordStep(0, 30, 0, 3, "shallow");
        c.recordStep(0, 20, 1, 3, "as shallow, later");
        assertThat(c.stepViolations[0]).isEqualTo(new Violation(30, 0, 3, "shallow"));
        assertThat(c.done()).isTrue();
    }

    @Test
    void aShallowerDeadlockReplacesADeeperOneButAnEquallyDeepOneDoesNot() {
        Checks c = safety();
        c.recordDeadlock(50, 5, "deep");
        c.recordDeadlock(30, 3, "shallow");
        c.recordDeadlock(20, 3, "as shallow, later");
        assertThat(c.deadlockViolation).isEqualTo(new Violation(30, -1, 3, "shallow"));
    }

    @Test
    void aDeadlockIsNotRecordedWhenDeadlockFreedomWasNotAsked() {
        Checks c = new Checks(new Counters(2, 3).sumIsNever(3));
        c.recordDeadlock(1, 1, "stuck");
        assertThat(c.deadlockViolation).isNull();
        assertThat(c.done()).isFalse();
    }

    @Test
    void theSearchMayStopOnlyOnceEverySafetyPropertyIsViolatedEachCountedOnce() {
        Checks c = safety();
        assertThat(c.done()).isFalse();
        c.recordDeadlock(9, 4, "stuck");
        c.recordDeadlock(8, 2, "stuck sooner");
        c.recordInvariant(0, 7, 3, "sum 3");
        c.recordInvariant(0, 6, 2, "sum 3 sooner");
        assertThat(c.done()).as("c0-is-not-1 is still open").isFalse();
        c.recordInvariant(1, 5, 1, "c0 1");
        assertThat(c.done()).isTrue();
    }

    @Test
    void aSearchWithAMetricOrAProgressPropertyNeverStopsEarly() {
        Checks m = new Checks(new Counters(2, 3).sumIsNever(3).sumMetric(Long.MAX_VALUE));
        m.recordInvariant(0, 1, 1, "sum 3");
        assertThat(m.done()).isFalse();
        Checks p = new Checks(new Counters(2, 3).sumIsNever(3).progressOutside0());
        p.recordInvariant(0, 1, 1, "sum 3");
        assertThat(p.done()).isFalse();
    }

    @Test
    void onlyAProgressPropertyNeedsTheWholeStateGraph() {
        assertThat(safety().needsFullGraph()).isFalse();
        assertThat(withMetric(5).needsFullGraph()).isFalse();
        assertThat(new Checks(new Counters(2, 3).progressOutside0()).needsFullGraph()).isTrue();
    }

    @Test
    void aMetricKeepsItsLargestValueWithTheShallowestFirstWitness() {
        Checks c = withMetric(Long.MAX_VALUE);
        c.recordMax(0, 0, 5, 10, 3);
        c.recordMax(0, 0, 5, 11, 3);
        assertThat(c.witness[0][0]).as("an equally deep witness comes later").isEqualTo(10);
        c.recordMax(0, 0, 5, 12, 2);
        c.recordMax(0, 0, 5, 13, 4);
        c.recordMax(0, 0, 4, 14, 1);
        assertThat(c.max[0][0]).isEqualTo(5);
        assertThat(c.witness[0][0]).isEqualTo(12);
        assertThat(c.witnessDepth[0][0]).isEqualTo(2);
        c.recordMax(0, 0, 6, 15, 9);
        assertThat(c.max[0][0]).isEqualTo(6);
        assertThat(c.witness[0][0]).isEqualTo(15);
        assertThat(c.metricViolations[0]).isNull();
    }

    @Test
    void aMetricViolatesOnlyAboveItsBoundAndKeepsItsShallowestViolation() {
        Checks c = withMetric(5);
        c.recordMax(0, 0, 5, 10, 3);
        assertThat(c.metricViolations[0]).as("5 is within bound 5").isNull();
        c.recordMax(0, 0, 6, 11, 8);
        c.recordMax(0, 0, 6, 12, 7);
        assertThat(c.metricViolations[0].stateId()).isEqualTo(12);
        assertThat(c.metricViolations[0].message()).isEqualTo("sum of sum reaches 6 > bound 5");
        c.recordMax(0, 0, 7, 13, 9);
        assertThat(c.metricViolations[0].stateId()).as("the deeper, larger excess does not replace it").isEqualTo(12);
        c.recordMax(0, 0, 8, 14, 7);
        assertThat(c.metricViolations[0].stateId()).as("nor does an equally deep one").isEqualTo(12);
        assertThat(c.max[0][0]).isEqualTo(8);
    }

    @Test
    void aMetricWhoseValuesAreAllNegativeReportsItsTrueMaximum() {
        Checks c = new Checks(new Counters(2, 3).with(new Metric("debt", "always below zero") {
            @Override
            public long value(long[] s, int comp) {
                return -5 - s[0];
            }
        }));
        c.onState(0, new long[] {2, 0}, 2);
        c.onState(1, new long[] {1, 0}, 1);
        assertThat(c.max[0][0]).isEqualTo(-6);
        assertThat(c.witness[0][0]).isEqualTo(1);
    }

    @Test
    void onStateRecordsEachViolatedInvariantOnceAndEachMetricComponent() {
        Checks c = new Checks(new Counters(2, 3).sumIsNever(3).perCounterMetric());
        c.onState(4, new long[] {1, 2}, 3);
        c.onState(5, new long[] {2, 1}, 3);
        assertThat(c.invariantViolations[0].stateId()).isEqualTo(4);
        assertThat(c.max[0]).containsExactly(2, 2);
        assertThat(c.witness[0]).containsExactly(5, 4);
    }

    @Test
    void mergingKeepsTheShallowerViolationAndOnATieTheSmallerStateId() {
        Checks a = safety();
        Checks b = safety();
        a.recordInvariant(0, 5, 3, "a: sum 3");
        b.recordInvariant(0, 9, 2, "b: sum 3, shallower, larger id");
        a.recordInvariant(1, 7, 4, "a: c0 1");
        b.recordInvariant(1, 6, 4, "b: c0 1, as deep, smaller id");
        b.recordDeadlock(3, 6, "b: stuck");
        a.merge(b);
        assertThat(a.invariantViolations[0].message()).isEqualTo("b: sum 3, shallower, larger id");
        assertThat(a.invariantViolations[1].message()).isEqualTo("b: c0 1, as deep, smaller id");
        assertThat(a.deadlockViolation.message()).isEqualTo("b: stuck");
        Checks c = safety();
        c.recordInvariant(0, 1, 5, "c: sum 3, deeper, smaller id");
        c.recordInvariant(1, 8, 4, "c: c0 1, as deep, larger id");
        a.merge(c);
        assertThat(a.invariantViolations[0].message()).isEqualTo("b: sum 3, shallower, larger id");
        assertThat(a.invariantViolations[1].message()).isEqualTo("b: c0 1, as deep, smaller id");
    }

    @Test
    void mergingRecountsWhatIsStillOpen() {
        Checks a = safety();
        Checks b = safety();
        a.recordInvariant(0, 5, 3, "a: sum 3");
        b.recordInvariant(1, 9, 2, "b: c0 1");
        a.merge(b);
        assertThat(a.done()).as("deadlock freedom is still open").isFalse();
        Checks c = safety();
        c.recordDeadlock(4, 4, "c: stuck");
        a.merge(c);
        assertThat(a.done()).isTrue();
        Checks d = safety();
        d.merge(safety());
        assertThat(d.done()).isFalse();
        d.recordInvariant(0, 1, 1, "d: sum 3");
        d.recordInvariant(1, 1, 1, "d: c0 1");
        assertThat(d.done()).as("two of three after merging nothing").isFalse();
        d.recordDeadlock(1, 1, "d: stuck");
        assertThat(d.done()).isTrue();
    }

    @Test
    void mergingCountsViolatedStepPropertiesAsDecided() {
        Checks a = new Checks(new Counters(2, 3).neverStepsTo(2).sumIsNever(3));
        Checks b = new Checks(new Counters(2, 3).neverStepsTo(2).sumIsNever(3));
        b.recordStep(0, 4, 0, 2, "b: stepped to 2");
        a.merge(b);
        assertThat(a.stepViolations[0].message()).isEqualTo("b: stepped to 2");
        assertThat(a.done()).as("sum-is-not-3 is still open").isFalse();
        a.recordInvariant(0, 5, 3, "a: sum 3");
        assertThat(a.done()).isTrue();
        Checks c = new Checks(new Counters(2, 3).neverStepsTo(2).sumIsNever(3));
        Checks d = new Checks(new Counters(2, 3).neverStepsTo(2).sumIsNever(3));
        d.recordInvariant(0, 5, 3, "d: sum 3");
        c.merge(d);
        assertThat(c.done()).as("never-2 is still open").isFalse();
    }

    @Test
    void mergingMetricsKeepsTheLargerMaximumThenTheShallowerThenTheSmallerWitness() {
        Checks a = withMetric(Long.MAX_VALUE);
        a.recordMax(0, 0, 5, 20, 4);
        a.merge(withMetric(Long.MAX_VALUE));
        assertThat(a.max[0][0]).as("a partition that saw no state changes nothing").isEqualTo(5);
        assertThat(a.witness[0][0]).isEqualTo(20);
        a.merge(metric(4, 1, 1));
        assertThat(a.witness[0][0]).as("smaller maximum").isEqualTo(20);
        a.merge(metric(5, 30, 5));
        assertThat(a.witness[0][0]).as("deeper witness").isEqualTo(20);
        a.merge(metric(5, 21, 4));
        assertThat(a.witness[0][0]).as("as deep, larger id").isEqualTo(20);
        a.merge(metric(5, 19, 4));
        assertThat(a.witness[0][0]).as("as deep, smaller id").isEqualTo(19);
        a.merge(metric(5, 40, 3));
        assertThat(a.witness[0][0]).as("shallower").isEqualTo(40);
        assertThat(a.witnessDepth[0][0]).isEqualTo(3);
        a.merge(metric(6, 50, 9));
        assertThat(a.max[0][0]).isEqualTo(6);
        assertThat(a.witness[0][0]).as("larger maximum, however deep").isEqualTo(50);
        assertThat(a.witnessDepth[0][0]).isEqualTo(9);
    }

    @Test
    void aCheckpointRestoresEveryFindingAndTheOpenCount() throws Exception {
        Checks a = new Checks(new Counters(2, 3).sumIsNever(3).counter0IsNever(1).neverStepsTo(2).deadlockFree()
                .sumMetric(4));
        a.recordInvariant(1, 7, 2, "c0 1");
        a.recordStep(0, 8, 1, 3, "stepped to 2");
        a.recordDeadlock(9, 4, "stuck");
        a.recordMax(0, 0, 6, 10, 6);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        a.write(new DataOutputStream(bytes));
        Checks b = new Checks(new Counters(2, 3).sumIsNever(3).counter0IsNever(1).neverStepsTo(2).deadlockFree()
                .sumMetric(4));
        b.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(b.invariantViolations).containsExactly(null, new Violation(7, -1, 2, "c0 1"));
        assertThat(b.stepViolations).containsExactly(new Violation(8, 1, 3, "stepped to 2"));
        assertThat(b.deadlockViolation).isEqualTo(new Violation(9, -1, 4, "stuck"));
        assertThat(b.metricViolations[0].stateId()).isEqualTo(10);
        assertThat(b.max[0][0]).isEqualTo(6);
        b.recordInvariant(0, 11, 5, "sum 3");
        assertThat(b.done()).as("metrics keep the search going").isFalse();

        Checks c = safety();
        c.recordInvariant(0, 1, 1, "sum 3");
        c.recordDeadlock(2, 2, "stuck");
        bytes.reset();
        c.write(new DataOutputStream(bytes));
        Checks d = safety();
        d.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(d.done()).isFalse();
        d.recordInvariant(1, 3, 3, "c0 1");
        assertThat(d.done()).as("the one property left open was the last").isTrue();
    }

    @Test
    void aVeryLongMessageIsCutToTwentyThousandCharactersInACheckpoint() throws Exception {
        Checks a = safety();
        a.recordInvariant(0, 1, 1, "x".repeat(30_000));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        a.write(new DataOutputStream(bytes));
        Checks b = safety();
        b.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(b.invariantViolations[0].message()).hasSize(20_000);
    }

    private static Checks metric(long v, long id, int depth) {
        Checks c = withMetric(Long.MAX_VALUE);
        c.recordMax(0, 0, v, id, depth);
        return c;
    }
}
