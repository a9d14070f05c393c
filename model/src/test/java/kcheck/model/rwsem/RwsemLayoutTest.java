package kcheck.model.rwsem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;

/** Which fields the rwsem-owner state has, and what the layout reads off a state. */
class RwsemLayoutTest {

    @Test
    void aWaitListPlaceHoldsTheMovedToAWakeListMarkUnderTheBitsEncoding() {
        RwsemLayout l = new RwsemRig("v5.4", Set.of("exclusion"), "readers", "1", "writers", "2").l;
        for (int t = 0; t < l.n; t++) {
            assertThat(l.qpos[t].max()).isGreaterThanOrEqualTo(l.moved);
        }
    }

    @Test
    void perTaskFlagsTakeABitExactlyWhereTheirTaskUsesThem() {
        RwsemLayout l = new RwsemRig("after", Set.of("exclusion", "missed-spins"), "readers", "1", "writers", "1").l;
        assertThat(l.woken[0].max()).isZero();
        assertThat(l.woken[1].max()).isEqualTo(1);
        assertThat(l.resched[1].max()).as("writers read need_resched").isEqualTo(1);
        assertThat(l.missNull[1].max()).isEqualTo(1);
        assertThat(l.missRo[1].max()).isEqualTo(1);
        assertThat(l.missRo[0].max()).isZero();
        assertThat(l.timedOut[1].max()).as("v4.8 code reads no timeout and no starvation property is selected").isZero();
        assertThat(l.eagerTimeouts).isFalse();
    }

    @Test
    void timeoutsAreStateWhereTheCodeArmsThemAndEagerOnlyForTheStarvationProperties() {
        RwsemLayout code = new RwsemRig("v5.4", Set.of("exclusion"), "readers", "1", "writers", "1").l;
        assertThat(code.timeouts).isTrue();
        assertThat(code.eagerTimeouts).isFalse();
        assertThat(code.timedOut[1].max()).isEqualTo(1);
        assertThat(code.resched[0].max()).as("v5.4 readers read need_resched").isEqualTo(1);
        assertThat(code.rdNonspinnable[0].max()).as("v5.4 readers set RD_NONSPINNABLE").isEqualTo(1);
        assertThat(code.rdNonspinnable[1].max()).isZero();
        for (String p : new String[] {"no-writer-starvation", "sleeping-writer-woken", "reader-stream-starvation"}) {
            RwsemLayout l = new RwsemRig("after", Set.of(p), "readers", "1", "writers", "1").l;
            assertThat(l.eagerTimeouts).as(p).isTrue();
            assertThat(l.timedOut[1].max()).as(p).isEqualTo(1);
            assertThat(l.timedOut[0].max()).as(p).isZero();
        }
    }

    @Test
    void aQueuedReaderHoldsTheLockOnceGrantedAWriterOnlyPastItsAcquiringStep() {
        RwsemRig rig = new RwsemRig("after", Set.of("exclusion"), "readers", "1", "writers", "1");
        RwsemLayout l = rig.l;
        long[] s = rig.initial();
        int enq = -1;
        for (int p = 0; p < l.prog[1].size && enq < 0; p++) {
            if (l.prog[1].has(p, TaskProgram.ENQUEUED) && !l.prog[1].has(p, TaskProgram.HOLDS)) {
                enq = p;
            }
        }
        assertThat(enq).isNotNegative();
        l.pc[1].set(s, enq);
        assertThat(l.heldBy(s, 1)).as("a queued writer whose place is 0 does not hold").isFalse();
        int renq = -1;
        for (int p = 0; p < l.prog[0].size && renq < 0; p++) {
            if (l.prog[0].has(p, TaskProgram.ENQUEUED) && !l.prog[0].has(p, TaskProgram.HOLDS)) {
                renq = p;
            }
        }
        l.pc[0].set(s, renq);
        l.qpos[0].set(s, 1);
        assertThat(l.heldBy(s, 0)).isFalse();
        l.qpos[0].set(s, 0);
        assertThat(l.heldBy(s, 0)).as("granted").isTrue();
    }

    @Test
    void theOsqAndWaitLockHoldersAreReadOffTheProgramNodes() {
        RwsemRig rig = new RwsemRig("after", Set.of("exclusion"), "readers", "1", "writers", "2");
        RwsemLayout l = rig.l;
        long[] s = rig.initial();
        assertThat(l.osqHolder(s)).isEqualTo(-1);
        assertThat(l.osqLocked(s)).isFalse();
        assertThat(l.waitLockHolder(s)).isEqualTo(-1);
        l.pc[2].set(s, rig.nodeWith(2, TaskProgram.OSQ));
        assertThat(l.osqHolder(s)).isEqualTo(2);
        assertThat(l.osqLocked(s)).isTrue();
        long[] entering = rig.initial();
        l.pc[2].set(entering, rig.nodeOf(2, Op.OSQ_LOCK));
        assertThat(l.osqHolder(entering)).isEqualTo(-1);
        assertThat(l.osqLocked(entering)).as("a task in osq_lock()").isTrue();
        long[] w = rig.initial();
        l.pc[2].set(w, rig.nodeWith(2, TaskProgram.WAIT_LOCK));
        assertThat(l.waitLockHolder(w)).isEqualTo(2);
    }

    @Test
    void anOsqHeldByTaskZeroBlocksOsqLock() {
        RwsemRig rig = new RwsemRig("after", Set.of("exclusion"), "readers", "0", "writers", "2");
        RwsemLayout l = rig.l;
        long[] s = rig.initial();
        l.pc[1].set(s, rig.nodeOf(1, Op.OSQ_LOCK));
        l.pc[0].set(s, rig.nodeWith(0, TaskProgram.OSQ));
        assertThat(l.osqHolder(s)).isZero();
        assertThat(l.enabled(s, 1)).isFalse();
    }

    @Test
    void ownerNamesOnlyTheWriterWhosePointerItHolds() {
        RwsemRig rig = new RwsemRig("after", Set.of("exclusion"), "readers", "1", "writers", "2");
        RwsemLayout l = rig.l;
        long[] s = rig.initial();
        int named = 0;
        for (int i = 0; i < l.dom.ownerSize(); i++) {
            l.owner.set(s, i);
            long o = l.dom.ownerValue(i);
            for (int t = 0; t < l.n; t++) {
                boolean expected = l.dom.ownerIsWriter(o) && l.dom.ownerTask(o) == t;
                assertThat(l.ownerNames(s, t)).isEqualTo(expected);
                named += expected ? 1 : 0;
            }
        }
        assertThat(named).isEqualTo(2);
    }

    @Test
    void aTaskIsEnabledUnlessPreemptedDoneOrBlocked() {
        RwsemRig rig = new RwsemRig("after", Set.of("exclusion"), "readers", "1", "writers", "2");
        RwsemLayout l = rig.l;
        long[] s = rig.initial();
        assertThat(l.enabled(s, 1)).isTrue();
        l.preempted[1].set(s, 1);
        assertThat(l.enabled(s, 1)).as("preempted").isFalse();

        long[] osq = rig.initial();
        l.pc[1].set(osq, rig.nodeOf(1, Op.OSQ_LOCK));
        assertThat(l.enabled(osq, 1)).as("osq free").isTrue();
        l.pc[2].set(osq, rig.nodeWith(2, TaskProgram.OSQ));
        assertThat(l.enabled(osq, 1)).as("osq held by writer 2").isFalse();
        l.resched[1].set(osq, 1);
        assertThat(l.enabled(osq, 1)).as("need_resched: osq_lock gives up").isTrue();

        long[] wl = rig.initial();
        l.pc[1].set(wl, rig.nodeOf(1, Op.SPIN_LOCK));
        assertThat(l.enabled(wl, 1)).isTrue();
        l.pc[2].set(wl, rig.nodeWith(2, TaskProgram.WAIT_LOCK));
        assertThat(l.enabled(wl, 1)).as("wait_lock held").isFalse();
        long[] wl0 = rig.initial();
        l.pc[1].set(wl0, rig.nodeOf(1, Op.SPIN_LOCK));
        l.pc[0].set(wl0, rig.nodeWith(0, TaskProgram.WAIT_LOCK));
        assertThat(l.enabled(wl0, 1)).as("wait_lock held by task 0").isFalse();

        long[] sleep = rig.initial();
        l.pc[1].set(sleep, rig.nodeOf(1, Op.SCHEDULE));
        assertThat(l.enabled(sleep, 1)).as("writer asleep").isFalse();
        l.woken[1].set(sleep, 1);
        assertThat(l.enabled(sleep, 1)).as("writer woken").isTrue();
        l.pc[0].set(sleep, rig.nodeOf(0, Op.SCHEDULE));
        l.qpos[0].set(sleep, 1);
        assertThat(l.enabled(sleep, 0)).as("reader still queued").isFalse();
        l.qpos[0].set(sleep, 0);
        assertThat(l.enabled(sleep, 0)).as("reader granted").isTrue();
    }
}
