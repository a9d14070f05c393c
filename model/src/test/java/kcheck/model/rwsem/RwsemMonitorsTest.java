package kcheck.model.rwsem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;

/** How a step updates the rwsem-owner monitor variables ({@link RwsemMonitors#taskStep}), on hand-built states. */
class RwsemMonitorsTest {

    @Test
    void theHandoffMonitorRemembersTheFirstWaiterWhenTheBitIsSetAndForgetsItWhenCleared() {
        RwsemRig rig = new RwsemRig("v5.4", Set.of("handoff"), "readers", "1", "writers", "1");
        RwsemLayout l = rig.l;
        long[] s = rig.initial();
        l.qpos[1].set(s, 1);
        rig.setCount(s, c -> c == RwsemBits.RWSEM_FLAG_WAITERS);
        long[] nx = s.clone();
        rig.setCount(nx, c -> c == (RwsemBits.RWSEM_FLAG_WAITERS | RwsemBits.RWSEM_FLAG_HANDOFF));
        rig.monitors.taskStep(s, nx, 0, l.prog[0].root, 0, l.prog[0].root);
        assertThat(l.handoffFor.get(nx)).as("set for task 1").isEqualTo(2);

        long[] still = nx.clone();
        l.qpos[1].set(still, 0);
        l.qpos[0].set(still, 1);
        rig.monitors.taskStep(nx, still, 0, l.prog[0].root, 0, l.prog[0].root);
        assertThat(l.handoffFor.get(still)).as("task 1 left the list without the lock (a fatal signal), the bit stays set:"
                + " nobody's until a first waiter claims it").isZero();

        long[] cleared = still.clone();
        rig.setCount(cleared, c -> c == RwsemBits.RWSEM_FLAG_WAITERS);
        rig.monitors.taskStep(still, cleared, 0, l.prog[0].root, 0, l.prog[0].root);
        assertThat(l.handoffFor.get(cleared)).isZero();
    }

    @Test
    void theSpinCountersRestartWhenReadersTakeAFreeLock() {
        RwsemRig rig = new RwsemRig("after", Set.of("wasted-spins"), "readers", "1", "writers", "1");
        RwsemLayout l = rig.l;
        long[] s = rig.initial();
        long[] nx = s.clone();
        l.k2.set(nx, 2);
        l.wastedAll.set(nx, 3);
        long[] idle = nx.clone();
        rig.monitors.taskStep(s, idle, 0, l.prog[0].root, 0, l.prog[0].root);
        assertThat(l.k2.get(idle)).as("no reader took it").isEqualTo(2);
        assertThat(l.wastedAll.get(idle)).isEqualTo(3);
        l.pc[0].set(nx, rig.nodeWith(0, TaskProgram.HOLDS));
        rig.monitors.taskStep(s, nx, 0, l.prog[0].root, 0, l.pc[0].getInt(nx));
        assertThat(l.k2.get(nx)).isZero();
        assertThat(l.wastedAll.get(nx)).isZero();
    }

    @Test
    void aSpinnerTakingTheOsqRestartsTheSpinCounters() {
        RwsemRig rig = new RwsemRig("after", Set.of("wasted-spins"), "readers", "1", "writers", "1");
        RwsemLayout l = rig.l;
        int osqLock = rig.nodeOf(1, Op.OSQ_LOCK);
        long[] s = rig.initial();
        l.pc[1].set(s, osqLock);
        long[] nx = s.clone();
        l.k2.set(nx, 2);
        l.wastedAll.set(nx, 2);
        long[] failed = nx.clone();
        rig.monitors.taskStep(s, failed, 1, osqLock, 0, osqLock);
        assertThat(l.k2.get(failed)).isEqualTo(2);
        assertThat(l.wastedAll.get(failed)).isEqualTo(2);
        rig.monitors.taskStep(s, nx, 1, osqLock, 1, osqLock);
        assertThat(l.k2.get(nx)).isZero();
        assertThat(l.wastedAll.get(nx)).isZero();
    }

    @Test
    void missedSpinsAreCountedWhenCanSpinReturnsAndForgottenWhenTheWriteLockIsReleased() {
        RwsemRig rig = new RwsemRig("after", Set.of("missed-spins"), "readers", "0", "writers", "3");
        RwsemLayout l = rig.l;
        int w = 0;
        int in = -1;
        for (int p = 0; p < l.prog[w].size && in < 0; p++) {
            if (l.prog[w].has(p, TaskProgram.IN_CAN_SPIN) && l.prog[w].op[p] != Op.OWNER_READ) {
                in = p;
            }
        }
        int out = rig.nodeWith(w, TaskProgram.HOLDS);
        assertThat(in).isNotNegative();
        assertThat(l.prog[w].has(out, TaskProgram.IN_CAN_SPIN)).isFalse();
        assertThat(l.prog[w].op[out]).isNotEqualTo(Op.OSQ_LOCK);

        long[] s = rig.initial();
        l.pc[w].set(s, in);
        l.missRo[w].set(s, 1);
        long[] nx = s.clone();
        l.pc[w].set(nx, out);
        rig.monitors.taskStep(s, nx, w, in, 0, out);
        assertThat(l.missedRo.get(nx)).as("one decline on a stale READER_OWNED").isEqualTo(1);
        assertThat(l.missedNull.get(nx)).isZero();
        assertThat(l.missRo[w].get(nx)).as("the observation ends with the call").isZero();

        long[] again = nx.clone();
        l.pc[w].set(again, in);
        l.missNull[w].set(again, 1);
        long[] nx2 = again.clone();
        l.pc[w].set(nx2, out);
        rig.monitors.taskStep(again, nx2, w, in, 0, out);
        assertThat(l.missedNull.get(nx2)).isEqualTo(1);
        assertThat(l.missNull[w].get(nx2)).isZero();

        /* writer 1 held the lock and releases it: the per-hold counts restart */
        long[] held = nx2.clone();
        l.pc[w].set(held, l.prog[w].root);
        l.pc[1].set(held, rig.nodeWith(1, TaskProgram.HOLDS));
        l.missNull[2].set(held, 1);
        l.missRo[2].set(held, 1);
        long[] released = held.clone();
        l.pc[1].set(released, l.prog[1].root);
        long[] free = nx2.clone();
        l.pc[w].set(free, l.prog[w].root);
        long[] noWriter = free.clone();
        rig.monitors.taskStep(free, noWriter, 1, l.prog[1].root, 0, l.prog[1].root);
        assertThat(l.missedNull.get(noWriter)).as("no write lock was released").isEqualTo(1);
        rig.monitors.taskStep(held, released, 1, rig.nodeWith(1, TaskProgram.HOLDS), 0, l.prog[1].root);
        assertThat(l.missedNull.get(released)).isZero();
        assertThat(l.missedRo.get(released)).isZero();
        assertThat(l.missNull[2].get(released)).isZero();
        assertThat(l.missRo[2].get(released)).isZero();
    }
}
