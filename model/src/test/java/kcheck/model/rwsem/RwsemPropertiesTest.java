package kcheck.model.rwsem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.model.Invariant;
import kcheck.model.Progress;
import kcheck.model.StepProperty;

/** The rwsem-owner properties read on real and hand-built states of small models. */
class RwsemPropertiesTest {

    @Test
    void nullOwnerNoWriterFailsExactlyWhileAWriterHoldsTheLockWithANullOwner() {
        RwsemRig rig = new RwsemRig("before", Set.of("null-owner-no-writer"), "readers", "0", "writers", "1");
        Invariant p = (Invariant) rig.property("null-owner-no-writer");
        int violated = 0;
        int nullFree = 0;
        int ownedHeld = 0;
        for (long[] s : rig.reachable()) {
            boolean nullOwner = rig.l.dom.ownerIsNull(rig.l.ownerValue(s));
            boolean writer = rig.l.writersHolding(s) > 0;
            assertThat(p.holds(s)).isEqualTo(!(nullOwner && writer));
            violated += nullOwner && writer ? 1 : 0;
            nullFree += nullOwner && !writer ? 1 : 0;
            ownedHeld += !nullOwner && writer ? 1 : 0;
        }
        assertThat(List.of(violated, nullFree, ownedHeld)).allMatch(c -> c > 0);
    }

    /** A state of v5.4 with 0 readers and 2 writers where writer task 0 is the first waiter and its wait timed out. */
    private static long[] starvedWriterZero(RwsemRig rig) {
        long[] s = rig.initial();
        rig.l.qpos[0].set(s, 1);
        rig.l.timedOut[0].set(s, 1);
        return s;
    }

    @Test
    void aTimedOutFirstWaiterThatIsTaskZeroIsStarvedUntilItLeavesTheFront() {
        RwsemRig rig = new RwsemRig("v5.4", Set.of("no-writer-starvation"), "readers", "0", "writers", "2");
        Progress p = (Progress) rig.property("no-writer-starvation");
        long[] s = starvedWriterZero(rig);
        assertThat(p.isProgress(s, 1, 0, s)).as("writer 0 stays starved").isFalse();
        long[] served = s.clone();
        rig.l.qpos[0].set(served, 0);
        assertThat(p.isProgress(s, 1, 0, served)).isTrue();
        long[] notYet = s.clone();
        rig.l.timedOut[0].set(notYet, 0);
        assertThat(p.isProgress(notYet, 1, 0, notYet)).as("not timed out: nobody starves").isTrue();
        assertThat(p.isProgress(s, 1, rig.l.envBase + RwsemSteps.PREEMPT, s)).as("a preemption is progress").isTrue();
    }

    @Test
    void readerStreamStarvationNeedsAReaderBiasInCount() {
        RwsemRig rig = new RwsemRig("v5.4", Set.of("reader-stream-starvation"), "readers", "1", "writers", "1");
        Progress p = (Progress) rig.property("reader-stream-starvation");
        long[] s = rig.initial();
        rig.l.qpos[1].set(s, 1);
        rig.l.timedOut[1].set(s, 1);
        rig.l.pc[1].set(s, rig.nodeOf(1, Op.SCHEDULE));
        /* a reader's fast-path bias in count, no reader holding yet */
        rig.setCount(s, c -> c == RwsemBits.RWSEM_READER_BIAS + RwsemBits.RWSEM_FLAG_WAITERS);
        assertThat(rig.l.readersHolding(s)).isZero();
        assertThat(p.isProgress(s, 0, 0, s)).as("count holds a READER_BIAS").isFalse();
        long[] noBias = s.clone();
        rig.setCount(noBias, c -> c == RwsemBits.RWSEM_FLAG_WAITERS);
        assertThat(p.isProgress(noBias, 0, 0, noBias)).isTrue();
    }

    @Test
    void starvationFairnessGivesEachTaskItsOwnStepClassAndEnvironmentStepsNone() {
        RwsemRig rig = new RwsemRig("v5.4", Set.of("no-writer-starvation"), "readers", "1", "writers", "1");
        Progress p = (Progress) rig.property("no-writer-starvation");
        int env = rig.l.envBase;
        assertThat(p.stepClass(1, 0)).isEqualTo(1);
        assertThat(p.stepClass(1, env - 1)).isEqualTo(1);
        assertThat(p.stepClass(1, env + RwsemSteps.RUN_AGAIN)).isEqualTo(1);
        assertThat(p.stepClass(1, env + RwsemSteps.PREEMPT)).isEqualTo(63);
        assertThat(p.stepClass(1, env + RwsemSteps.SET_NEED_RESCHED)).isEqualTo(63);
        assertThat(p.stepClass(0, env + RwsemSteps.TIMEOUT)).isEqualTo(63);
    }

    @Test
    void anotherTaskTakingTheLockWhileTheHandoffBitIsSetForAWaiterViolatesHandoff() {
        RwsemRig rig = new RwsemRig("v5.4", Set.of("handoff"), "readers", "1", "writers", "1");
        StepProperty p = (StepProperty) rig.property("handoff");
        long[] from = rig.initial();
        rig.setCount(from, c -> c == (RwsemBits.RWSEM_FLAG_HANDOFF | RwsemBits.RWSEM_FLAG_WAITERS));
        rig.l.handoffFor.set(from, 1 + 1);
        long[] to = from.clone();
        rig.l.pc[0].set(to, rig.nodeWith(0, TaskProgram.HOLDS));
        assertThat(rig.l.heldBy(to, 0)).isTrue();
        assertThat(p.holds(from, 0, 0, to)).as("the reader takes the lock handed to the writer").isFalse();
        long[] writerTakes = from.clone();
        rig.l.pc[1].set(writerTakes, rig.nodeWith(1, TaskProgram.HOLDS));
        assertThat(p.holds(from, 1, 0, writerTakes)).as("the waiter the bit is for takes it").isTrue();
        long[] noBit = from.clone();
        rig.l.handoffFor.set(noBit, 0);
        assertThat(p.holds(noBit, 0, 0, to)).isTrue();
    }

    /** v5.4, two writers, writer 1 an RT task (it cannot be stopped by the owner): task 0 is writer 0. */
    private static RwsemRig preemptedOwnerRig() {
        return new RwsemRig("v5.4", Set.of("no-spin-on-preempted-owner"), "readers", "0", "writers", "2", "rt", "w1");
    }

    @Test
    void anRtWritersStepWhileTheHolderIsPreemptedIsNoProgress() {
        RwsemRig rig = preemptedOwnerRig();
        Progress p = (Progress) rig.property("no-spin-on-preempted-owner");
        long[] s = rig.initial();
        rig.l.pc[0].set(s, rig.nodeWith(0, TaskProgram.HOLDS));
        rig.l.preempted[0].set(s, 1);
        assertThat(p.isProgress(s, 1, 0, s)).as("holder preempted").isFalse();
        assertThat(p.isProgress(s, 1, rig.l.envBase + RwsemSteps.PREEMPT, s)).as("an environment step").isTrue();
        long[] takes = s.clone();
        rig.l.pc[1].set(takes, rig.nodeWith(1, TaskProgram.HOLDS));
        assertThat(p.isProgress(s, 1, 0, takes)).as("a step that takes the lock").isTrue();
        long[] running = s.clone();
        rig.l.preempted[0].set(running, 0);
        assertThat(p.isProgress(running, 1, 0, running)).as("holder on its CPU").isTrue();
    }

    @Test
    void aStepOfATaskTheSchedulerCanStopIsProgressUnlessNeedReschedIsSetWithPreemptionOff() {
        RwsemRig rig = new RwsemRig("v5.4", Set.of("no-spin-on-preempted-owner"), "readers", "0", "writers", "2");
        Progress p = (Progress) rig.property("no-spin-on-preempted-owner");
        long[] s = rig.initial();
        rig.l.pc[0].set(s, rig.nodeWith(0, TaskProgram.HOLDS));
        rig.l.preempted[0].set(s, 1);
        rig.l.pc[1].set(s, rig.nodeWith(1, TaskProgram.PREEMPT_OFF));
        assertThat(p.isProgress(s, 1, 0, s)).as("need_resched clear: the tick stops it").isTrue();
        rig.l.resched[1].set(s, 1);
        assertThat(p.isProgress(s, 1, 0, s)).as("need_resched set, preemption off").isFalse();
        long[] on = s.clone();
        rig.l.pc[1].set(on, rig.l.prog[1].root);
        assertThat(rig.l.prog[1].has(rig.l.prog[1].root, TaskProgram.PREEMPT_OFF)).isFalse();
        assertThat(p.isProgress(on, 1, 0, on)).as("preemption enabled").isTrue();
    }

    @Test
    void aFreeLockWithTheHandoffBitWaitsForItsFirstWaiterWhichMayBeTaskZero() {
        RwsemRig rig = preemptedOwnerRig();
        Progress p = (Progress) rig.property("no-spin-on-preempted-owner");
        long[] s = rig.initial();
        rig.setCount(s, c -> c == (RwsemBits.RWSEM_FLAG_HANDOFF | RwsemBits.RWSEM_FLAG_WAITERS));
        rig.l.qpos[0].set(s, 1);
        rig.l.preempted[0].set(s, 1);
        assertThat(p.isProgress(s, 1, 0, s)).as("handoff waiter 0 preempted").isFalse();
        long[] noBit = s.clone();
        rig.setCount(noBit, c -> c == RwsemBits.RWSEM_FLAG_WAITERS);
        assertThat(p.isProgress(noBit, 1, 0, noBit)).as("no handoff bit: the lock is free for anyone").isTrue();
        long[] running = s.clone();
        rig.l.preempted[0].set(running, 0);
        assertThat(p.isProgress(running, 1, 0, running)).as("the waiter is on its CPU").isTrue();
        long[] self = rig.initial();
        rig.setCount(self, c -> c == (RwsemBits.RWSEM_FLAG_HANDOFF | RwsemBits.RWSEM_FLAG_WAITERS));
        rig.l.qpos[1].set(self, 1);
        rig.l.preempted[1].set(self, 1);
        assertThat(p.isProgress(self, 1, 0, self)).as("the waiter is the actor itself").isTrue();
    }

    @Test
    void theSpinnersStepsOnSettledReadersAreNoProgressButEnvironmentStepsAre() {
        RwsemRig rig = new RwsemRig("after", Set.of("no-spin-on-readers"), "readers", "1", "writers", "1");
        Progress p = (Progress) rig.property("no-spin-on-readers");
        long[] s = rig.initial();
        int settled = -1;
        for (int n = 0; n < rig.l.prog[0].size && settled < 0; n++) {
            if (rig.l.prog[0].has(n, TaskProgram.HOLDS) && !rig.l.prog[0].has(n, TaskProgram.OWNER_STORE_PENDING)) {
                settled = n;
            }
        }
        rig.l.pc[0].set(s, settled);
        rig.l.pc[1].set(s, rig.nodeWith(1, TaskProgram.OSQ));
        assertThat(p.isProgress(s, 1, 0, s)).as("the osq holder's step on a reader-held lock").isFalse();
        assertThat(p.isProgress(s, 1, rig.l.envBase + RwsemSteps.PREEMPT, s)).as("an environment step").isTrue();
    }

    @Test
    void theSpinCountMetricsReportSaturationAtTheCounterCapOnly() {
        RwsemRig rig = new RwsemRig("after", Set.of("no-spin-on-readers-k2", "wasted-spins", "missed-spins"), "readers", "1",
                "writers", "2");
        for (String id : new String[] {"no-spin-on-readers-k2", "wasted-spins"}) {
            kcheck.model.Metric m = (kcheck.model.Metric) rig.property(id);
            assertThat(m.saturation()).as(id).isEqualTo(RwsemLayout.SPIN_CAP);
        }
        assertThat(((kcheck.model.Metric) rig.property("missed-spins")).saturation()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void readersGrantedTogetherWithTheHandoffWaiterKeepHandoffButNotAfterItAlreadyHeldTheLock() {
        RwsemRig rig = new RwsemRig("v5.4", Set.of("handoff"), "readers", "2", "writers", "1");
        StepProperty p = (StepProperty) rig.property("handoff");
        long[] from = rig.initial();
        rig.setCount(from, c -> c == (RwsemBits.RWSEM_FLAG_HANDOFF | RwsemBits.RWSEM_FLAG_WAITERS));
        rig.l.handoffFor.set(from, 0 + 1);
        int holds = rig.nodeWith(0, TaskProgram.HOLDS);
        long[] both = from.clone();
        rig.l.pc[0].set(both, holds);
        rig.l.pc[1].set(both, holds);
        assertThat(p.holds(from, 2, 0, both)).as("reader 0, the waiter, is granted together with reader 1").isTrue();
        long[] already = from.clone();
        rig.l.pc[0].set(already, holds);
        assertThat(p.holds(already, 2, 0, both)).as("reader 1 joins a lock reader 0 already held").isFalse();
    }

    /**
     * {@code spin-on-running-writer} read on every writer step of the before-variant's graph (v4.7:
     * a NULL owner stops the spinner). The test names the steps by the state, not by the step
     * number the property decodes: the node a writer leaves is its pc before the step, the value
     * an owner load returns is {@code owner} before it.
     */
    @Test
    void aWriterLeavingCanSpinFalseAfterSeeingANullOwnerOfARunningWriterViolatesAndNoOtherStepDoes() {
        RwsemRig rig = new RwsemRig("before", Set.of("spin-on-running-writer"), "readers", "0", "writers", "2", "rounds", "0",
                "preempt", "writers");
        StepProperty p = (StepProperty) rig.property("spin-on-running-writer");
        RwsemLayout l = rig.l;
        int[] seen = new int[5];
        for (long[] from : rig.reachable()) {
            rig.model.successors(from, (actor, action, to) -> {
                if (action >= l.envBase) {
                    long[] obs = from.clone();
                    for (int t = 0; t < l.n; t++) {
                        l.obsNull[t].set(obs, 1);
                    }
                    assertThat(p.holds(obs, actor, action, to)).as("an environment step").isTrue();
                    return;
                }
                TaskProgram tp = l.prog[actor];
                int left = l.pc[actor].getInt(from);
                int next = l.pc[actor].getInt(to);
                boolean returnsFalse = l.isWriter(actor) && tp.has(left, TaskProgram.IN_CAN_SPIN) && !tp.has(next, TaskProgram.IN_CAN_SPIN)
                        && tp.op[next] != Op.OSQ_LOCK;
                boolean loadsNullOfRunningWriter = tp.op[left] == Op.OWNER_READ && l.dom.ownerIsNull(l.ownerValue(from))
                        && l.runningWriterWithoutOwner(from, actor);
                long[] clean = from.clone();
                l.obsNull[actor].set(clean, 0);
                long[] saw = from.clone();
                l.obsNull[actor].set(saw, 1);
                if (!returnsFalse) {
                    assertThat(p.holds(saw, actor, action, to)).as("a step that does not end can_spin with false").isTrue();
                    seen[0]++;
                } else if (loadsNullOfRunningWriter) {
                    assertThat(p.holds(clean, actor, action, to)).as("returns false on the NULL it loads").isFalse();
                    seen[1]++;
                } else {
                    assertThat(p.holds(clean, actor, action, to)).as("returns false without a NULL seen").isTrue();
                    assertThat(p.holds(saw, actor, action, to)).as("returns false after a NULL seen earlier").isFalse();
                    seen[tp.op[left] == Op.OWNER_READ ? 2 : 3]++;
                }
            });
        }
        assertThat(seen[0]).as("steps that stay in can_spin, leave to the osq, or run elsewhere").isPositive();
        assertThat(seen[1]).as("no built-in writer returns false on the owner load itself: a NULL is seen, then tested")
                .isZero();
        assertThat(seen[2] + seen[3]).as("steps that return false without loading a NULL there").isPositive();
    }

    /**
     * No built-in program ends {@code rwsem_can_spin_on_owner} on the owner load itself (a NULL
     * is loaded, then tested), so the property's other disjunct, the load's own outcome, is read
     * only here: on v4.8's load that returns false on a stale reader-owned value while a writer
     * runs in its set_owner gap, the same step with the outcome NULL must violate.
     */
    @Test
    void aNullLoadedByTheStepThatEndsCanSpinIsReadFromTheStepsOutcome() {
        RwsemRig rig = new RwsemRig("after", Set.of("spin-on-running-writer"), "readers", "1", "writers", "2", "rounds", "0",
                "preempt", "writers");
        StepProperty p = (StepProperty) rig.property("spin-on-running-writer");
        RwsemLayout l = rig.l;
        int[] found = new int[1];
        for (long[] from : rig.reachable()) {
            rig.model.successors(from, (actor, action, to) -> {
                if (action >= l.envBase || !l.isWriter(actor)) {
                    return;
                }
                TaskProgram tp = l.prog[actor];
                int left = l.pc[actor].getInt(from);
                int next = l.pc[actor].getInt(to);
                if (tp.op[left] != Op.OWNER_READ || !tp.has(left, TaskProgram.IN_CAN_SPIN)
                        || tp.has(next, TaskProgram.IN_CAN_SPIN) || tp.op[next] == Op.OSQ_LOCK
                        || l.obsNull[actor].getInt(from) == 1 || !l.runningWriterWithoutOwner(from, actor)) {
                    return;
                }
                assertThat(l.dom.ownerIsNull(l.ownerValue(from))).isFalse();
                assertThat(p.holds(from, actor, action, to)).as("returns false on the value it loaded, not NULL").isTrue();
                int loadsNull = left * l.slots + l.dom.ownerIndex(0);
                assertThat(p.holds(from, actor, loadsNull, to)).as("the same step had it loaded NULL").isFalse();
                found[0]++;
            });
        }
        assertThat(found[0]).as("loads that return false while a writer runs in its gap").isPositive();
    }
}
