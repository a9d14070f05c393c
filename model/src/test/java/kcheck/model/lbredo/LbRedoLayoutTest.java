package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.LBF_DST_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_SOME_PINNED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.model.ModelLimitException;

/**
 * The lb-redo state layout on hand-built states: what {@link LbRedoLayout#initial},
 * {@link LbRedoLayout#load}, {@link LbRedoLayout#store} and {@link LbRedoLayout#storeRqs} write and
 * read, field by field, and the limits {@code store} refuses.
 */
class LbRedoLayoutTest {
    /** Every property that makes a monitor exist. */
    private static final Set<String> MONITORED = Set.of("terminates", "all-pinned-sound", "stat-passes", "spurious-redos",
            "stat-work");

    private static LbRedoLayout layout(LbDomain d) {
        return new LbRedoLayout(d, LbRedoMonitors.of(MONITORED), "test");
    }

    /** Flat: 4 CPUs in groups {0,1} {2,3}, two free tasks on CPUs 2 and 3. */
    private static LbDomain flat() {
        return LbDomain.scenario(4, 2, LbDomain.RACE, 2, 1);
    }

    /**
     * Two levels: an MC domain {0,1} (one group per CPU) under a package domain {0,1} {2,3}; CPUs
     * 1, 2 and 3 carry two free tasks each (tasks 0,1 / 2,3 / 4,5); CPU 1 also receives.
     */
    private static LbDomain cluster() {
        return LbDomain.of(new LbDomain.Spec(4, 2, LbDomain.RACE, 2, 1, LbDomain.CLUSTER, LbDomain.MASKS_OWN,
                LbEnv.CPU_NEWLY_IDLE, LbEnv.SYSCTL_SCHED_NR_MIGRATE, LbEnv.SCHED_NR_MIGRATE_BREAK));
    }

    private static long[] initial(LbRedoLayout l) {
        long[] s = new long[l.width];
        l.initial(s, new int[l.d.remote.length]);
        return s;
    }

    /** Loads {@code s} and sets the call up as a valid cut at level 0 from which {@code store} accepts it. */
    private static LoadBalanceCall loaded(LbRedoLayout l, long[] s, Sched k) {
        LoadBalanceCall lb = new LoadBalanceCall();
        l.load(s, k, lb);
        lb.env.dstCpu = LbDomain.DST_CPU;
        lb.env.dstGrpmask = l.d.localSpans[0];
        lb.env.idle = LbEnv.CPU_NEWLY_IDLE;
        return lb;
    }

    @Test
    void initialIgnoresWhatTheArrayHeldBefore() {
        LbRedoLayout l = layout(cluster());
        long[] dirty = new long[l.width];
        Arrays.fill(dirty, -1L);
        l.initial(dirty, new int[l.d.remote.length]);
        assertThat(dirty).isEqualTo(initial(l));
    }

    @Test
    void aBusyBalancingCpuStartsWithItsOwnRunningTask() {
        LbDomain busy = LbDomain.of(new LbDomain.Spec(4, 2, LbDomain.RACE, 2, 1, LbDomain.FLAT, LbDomain.MASKS_OWN,
                LbEnv.CPU_NOT_IDLE, LbEnv.SYSCTL_SCHED_NR_MIGRATE, LbEnv.SCHED_NR_MIGRATE_BREAK));
        LbRedoLayout l = layout(busy);
        long[] s = initial(l);
        assertThat(l.load[0].get(s)).isEqualTo(1);
        assertThat(l.load[1].get(s)).isEqualTo(1);
        Sched k = l.newSched();
        l.load(s, k, new LoadBalanceCall());
        assertThat(k.cpuRq(0).nrRunning).isEqualTo(1);
    }

    @Test
    void loadRestoresRunqueuesReceivedTasksRunningTasksAndPassMonitors() {
        LbRedoLayout l = layout(cluster());
        long[] s = initial(l);
        l.foreign[1].set(s, 1);
        l.load[0].set(s, 2);
        l.examined.set(s, 1);
        l.allAffine.set(s, 0);
        Sched k = l.newSched();
        l.load(s, k, new LoadBalanceCall());
        assertThat(k.cpuRq(1).length()).isEqualTo(2);
        assertThat(k.cpuRq(1).nrRunning).isEqualTo(3);
        assertThat(k.cpuRq(2).nrRunning).isEqualTo(2);
        assertThat(k.cpuRq(0).nrRunning).isEqualTo(2);
        assertThat(k.cpuRq(1).curr).isEqualTo(l.d.taskBase[1]);
        assertThat(k.cpuRq(2).curr).isEqualTo(l.d.taskBase[2]);
        assertThat(k.cpuRq(3).curr).isEqualTo(l.d.taskBase[3]);
        assertThat(k.examined()).isTrue();
        assertThat(k.allAffine()).isFalse();
    }

    @Test
    void loadLeavesACpuWithoutTasksIdle() {
        long all = 0xfL;
        LbDomain d = LbDomain.custom(4, new int[] {0, 0, 1, 1}, all, new long[][] {null, null, {all, all}, null}, 0);
        LbRedoLayout l = layout(d);
        Sched k = l.newSched();
        l.load(initial(l), k, new LoadBalanceCall());
        assertThat(k.cpuRq(2).curr).isEqualTo(0);
        assertThat(k.cpuRq(3).curr).isEqualTo(-1);
        assertThat(k.cpuRq(3).nrRunning).isZero();
    }

    @Test
    void storeWritesEveryFieldOfTheCallOverTheStateItStepsFrom() {
        LbRedoLayout l = layout(cluster());
        long[] s = initial(l);
        l.needBreak.set(s, 1);
        l.somePinned.set(s, 1);
        l.redoCnt.set(s, 1);
        l.redoMax.set(s, 1);
        l.ldMoved.set(s, 2);
        l.work.set(s, 3);
        Sched k = l.newSched();
        LoadBalanceCall lb = loaded(l, s, k);
        LbEnv env = lb.env;
        env.flags = 0;
        int m = l.m;
        env.redoCnt = m + 1;
        env.redoMax = 3;
        lb.ldMoved = 1;
        int statWork = (m + 2) * l.n;
        k.setMonitors(0, statWork, false, false);
        long[] out = new long[l.width];
        l.store(s, out, LoadBalance.MORE_BALANCE, k, lb);
        assertThat(l.pc.get(out)).isEqualTo(LoadBalance.MORE_BALANCE);
        assertThat(l.needBreak.get(out)).isZero();
        assertThat(l.somePinned.get(out)).isZero();
        assertThat(l.redoCnt.get(out)).isEqualTo(m + 1);
        assertThat(l.redoMax.get(out)).isEqualTo(3);
        assertThat(l.ldMoved.get(out)).isEqualTo(1);
        assertThat(l.work.get(out)).as("the most statistics updates of a call: (m + 2) passes of n CPUs").isEqualTo(statWork);
    }

    @Test
    void storeKeepsSomePinnedWithTwoLevelsAndDropsItWithOne() {
        for (LbDomain d : new LbDomain[] {cluster(), flat()}) {
            LbRedoLayout l = layout(d);
            long[] s = initial(l);
            Sched k = l.newSched();
            LoadBalanceCall lb = loaded(l, s, k);
            lb.env.flags = LBF_SOME_PINNED;
            long[] out = new long[l.width];
            l.store(s, out, LoadBalance.AFTER_DETACH, k, lb);
            assertThat(l.somePinned.get(out)).isEqualTo(d.levels() > 1 ? 1 : 0);
        }
    }

    @Test
    void newDstCpuRoundTripsEveryCpuOfTheBalancingGroupAndNone() {
        LbRedoLayout l = layout(flat());
        long[] s = initial(l);
        for (int cpu : new int[] {0, 1, -1}) {
            l.setNewDstCpu(s, cpu);
            assertThat(l.newDstCpu(s)).isEqualTo(cpu);
        }
    }

    @Test
    void storeAcceptsTheBalancingCpuItselfAsNewDstCpu() {
        LbRedoLayout l = layout(flat());
        long[] s = initial(l);
        Sched k = l.newSched();
        LoadBalanceCall lb = loaded(l, s, k);
        lb.env.flags = LBF_DST_PINNED;
        lb.env.newDstCpu = 0;
        long[] out = new long[l.width];
        l.store(s, out, LoadBalance.AFTER_DETACH, k, lb);
        assertThat(l.newDstCpu(out)).isEqualTo(0);
    }

    @Test
    void storeRefusesANewDstCpuOutsideTheBalancingGroup() {
        LbRedoLayout l = layout(flat());
        long[] s = initial(l);
        Sched k = l.newSched();
        LoadBalanceCall lb = loaded(l, s, k);
        lb.env.flags = LBF_DST_PINNED;
        lb.env.newDstCpu = 2;
        assertThatThrownBy(() -> l.store(s, new long[l.width], LoadBalance.AFTER_DETACH, k, lb))
                .isInstanceOf(ModelLimitException.class).hasMessageContaining("env.new_dst_cpu must be a CPU of");
    }

    @Test
    void storeRefusesCpu64AsDstOrNewDstOnA64CpuMachine() {
        long[][] rqs = new long[64][];
        rqs[63] = new long[] {-1L, -1L};
        LbRedoLayout l = layout(LbDomain.custom(64, LbDomain.contiguousGroups(64, 2), -1L, rqs, 0));
        long[] s = initial(l);
        Sched k = l.newSched();
        LoadBalanceCall dst = loaded(l, s, k);
        dst.env.dstCpu = 64;
        assertThatThrownBy(() -> l.store(s, new long[l.width], LoadBalance.AFTER_DETACH, k, dst))
                .isInstanceOf(ModelLimitException.class).hasMessageContaining("env.dst_cpu must stay");
        LoadBalanceCall newDst = loaded(l, s, k);
        newDst.env.flags = LBF_DST_PINNED;
        newDst.env.newDstCpu = 64;
        assertThatThrownBy(() -> l.store(s, new long[l.width], LoadBalance.AFTER_DETACH, k, newDst))
                .isInstanceOf(ModelLimitException.class).hasMessageContaining("env.new_dst_cpu must be");
    }

    @Test
    void storeKeepsLoopAtTheHorizonAndCountersAtZero() {
        LbRedoLayout l = layout(flat());
        long[] s = initial(l);
        Sched k = l.newSched();
        LoadBalanceCall lb = loaded(l, s, k);
        lb.env.loop = l.horizon;
        lb.env.loopBreak = 0;
        lb.env.loopMax = 0;
        long[] out = new long[l.width];
        l.store(s, out, LoadBalance.MORE_BALANCE, k, lb);
        assertThat(l.loop.get(out)).isEqualTo(l.horizon);
        assertThat(l.loopBreak.get(out)).isZero();
        assertThat(l.loopMax.get(out)).isZero();
        lb.env.loop = l.horizon + 1;
        assertThatThrownBy(() -> l.store(s, new long[l.width], LoadBalance.MORE_BALANCE, k, lb))
                .isInstanceOf(ModelLimitException.class).hasMessageContaining("keeps env.loop exact up to " + l.horizon);
    }

    @Test
    void storeRqsWritesListsReceivedTasksAndTheBalancingCpusLoad() {
        LbRedoLayout l = layout(cluster());
        long[] s = initial(l);
        Sched k = l.newSched();
        l.load(s, k, new LoadBalanceCall());
        // task 2 (CPU 2's head, own index 0) moves to CPU 1; task 4 (CPU 3's head) to CPU 0
        move(k, 2, 2, 1);
        move(k, 4, 3, 0);
        long[] out = s.clone();
        l.storeRqs(out, k, LoadBalance.AFTER_DETACH);
        assertThat(l.len[1].get(out)).isEqualTo(2);
        assertThat(l.foreign[1].get(out)).as("task 2 is CPU 2's, received by CPU 1").isEqualTo(1);
        assertThat(l.len[2].get(out)).isEqualTo(1);
        assertThat(l.entry[2][0].get(out)).isEqualTo(1);
        assertThat(l.entry[2][1].get(out)).as("an entry past the list is 0: one state per machine").isZero();
        assertThat(l.len[3].get(out)).isEqualTo(1);
        assertThat(l.load[0].get(out)).isEqualTo(1);
    }

    private static void move(Sched k, int p, int from, int to) {
        Rq src = k.cpuRq(from);
        Rq dst = k.cpuRq(to);
        k.rqLock(src);
        k.deactivateTask(src, p);
        k.rqUnlock(src);
        k.rqLock(dst);
        k.activateTask(dst, p);
        k.rqUnlock(dst);
    }

    @Test
    void aLimitHitSaysWhereTheCallWas() {
        LbRedoLayout l = layout(flat());
        long[] s = initial(l);
        Sched k = l.newSched();
        l.load(s, k, new LoadBalanceCall());
        move(k, 0, 2, 3);
        assertThatThrownBy(() -> l.storeRqs(s.clone(), k, -1)).isInstanceOf(ModelLimitException.class)
                .hasMessageContaining("moved one to CPU 3").hasMessageEndingWith(" (when load_balance returned)");
        assertThatThrownBy(() -> l.storeRqs(s.clone(), k, LoadBalance.ENTRY)).isInstanceOf(ModelLimitException.class)
                .hasMessageEndingWith(" (at " + LoadBalance.LABELS[LoadBalance.ENTRY] + ")");
    }

    @Test
    void fieldsAreNoWiderThanTheValuesTheyHold() {
        LbRedoLayout one = layout(flat());
        assertThat(one.level.max()).as("one level").isZero();
        assertThat(one.callIdle.max()).as("the call's idle type is the domain's at one level").isZero();
        assertThat(one.somePinned.max()).as("LBF_SOME_PINNED is not kept at one level").isZero();
        assertThat(one.groupImbalance.max()).as("no parent group at one level").isZero();
        assertThat(one.pat[2].max()).as("one pattern").isZero();
        assertThat(one.entry[2][0].max()).as("two tasks: index 0..1").isEqualTo(1);
        assertThat(one.redoCnt.max()).as("redo_cnt up to m + 1 = 3").isEqualTo(3);
        LbRedoLayout two = layout(cluster());
        assertThat(two.level.max()).isEqualTo(1);
        assertThat(two.somePinned.max()).isEqualTo(1);
        assertThat(two.groupImbalance.max()).isEqualTo(1);
    }

    @Test
    void packsTheFieldsFirstFitDecreasingIntoTwoWords() {
        // declaration order, or a bin that takes a field exactly filling it as full, needs a third word here
        for (int cpus : new int[] {8, 11}) {
            LbDomain d = LbDomain.of(new LbDomain.Spec(cpus, cpus == 8 ? 8 : 2, LbDomain.RACE, 3, 1, LbDomain.FLAT,
                    LbDomain.MASKS_OWN, LbEnv.CPU_NOT_IDLE, LbEnv.SYSCTL_SCHED_NR_MIGRATE, LbEnv.SCHED_NR_MIGRATE_BREAK));
            assertThat(layout(d).width).as("%d CPUs", cpus).isEqualTo(2);
        }
    }
}
