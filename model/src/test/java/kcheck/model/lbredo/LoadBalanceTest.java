package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.LBF_ALL_PINNED;
import static kcheck.model.lbredo.LoadBalance.AFTER_DETACH;
import static kcheck.model.lbredo.LoadBalance.MORE_BALANCE;
import static kcheck.model.lbredo.LoadBalance.NR_RUNNING;
import static kcheck.model.lbredo.LoadBalance.OUT;
import static kcheck.model.lbredo.LoadBalance.OUT_ALL_PINNED;
import static kcheck.model.lbredo.LoadBalance.OUT_BALANCED;
import static kcheck.model.lbredo.LoadBalance.REDO;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The reference {@code load_balance()} variants driven by hand on small machines: CPU 0 newly
 * idle in group {0,1}, CPUs 2 and 3 (and 4, 5 when present) in the other group(s).
 */
class LoadBalanceTest {
    private static final long ALL = 0xffL;

    /** A machine of {@code cpus} CPUs in groups of two; {@code rqs[c]} lists CPU c's task masks, head (running) first. */
    private static Sched machine(int cpus, long[]... rqs) {
        int[] groups = LbDomain.contiguousGroups(cpus, cpus / 2);
        int tasks = 0;
        for (long[] r : rqs) {
            tasks += r == null ? 0 : r.length;
        }
        Sched s = new Sched(cpus, groups, -1L, tasks);
        int p = 0;
        for (int c = 0; c < cpus; c++) {
            long[] r = c < rqs.length ? rqs[c] : null;
            if (r == null) {
                continue;
            }
            for (int i = 0; i < r.length; i++) {
                s.setTask(p, r[i], c, "t" + c + "." + i);
                s.enqueueTail(c, p);
                if (i == 0) {
                    s.setCurr(c, p);
                }
                p++;
            }
        }
        return s;
    }

    private static LoadBalanceCall call() {
        LoadBalanceCall lb = new LoadBalanceCall();
        lb.start(0);
        return lb;
    }

    /** Runs one piece of load_balance with the given busiest choice; returns where it stopped. */
    private static int step(LoadBalance impl, LoadBalanceCall lb, Sched s, int choice) {
        s.resetStep(choice);
        int ret = impl.loadBalance(lb, s);
        lb.at = ret;
        return ret;
    }

    /** Another CPU pulls the non-running task at the tail of CPU c's runqueue. */
    private static void pullTail(Sched s, int c) {
        Rq rq = s.cpuRq(c);
        int p = rq.listLastEntry();
        s.rqLock(rq);
        s.deactivateTask(rq, p);
        s.rqUnlock(rq);
    }

    private static long pinnedTo(int c) {
        return 1L << c;
    }

    @Test
    void v511DetachOnBusiestEmptiedBeforeLockExaminesNothingAndKeepsAllPinned() {
        Sched s = machine(4, null, null, new long[] {ALL, ALL}, new long[] {ALL, ALL});
        LoadBalance impl = new LoadBalanceV511();
        LoadBalanceCall lb = call();
        assertThat(step(impl, lb, s, 0)).isEqualTo(NR_RUNNING);
        assertThat(lb.busiest).isEqualTo(2);
        assertThat(step(impl, lb, s, 0)).isEqualTo(MORE_BALANCE);
        assertThat(lb.env.flags & LBF_ALL_PINNED).isNotZero();
        pullTail(s, 2);
        assertThat(step(impl, lb, s, 0)).isEqualTo(AFTER_DETACH);
        assertThat(s.examined()).isFalse();
        assertThat(lb.env.flags & LBF_ALL_PINNED).isNotZero();
        assertThat(step(impl, lb, s, 0)).isEqualTo(REDO);
        assertThat(lb.env.cpus).isEqualTo(0b1011L);
    }

    @Test
    void v513DetachOnBusiestEmptiedBeforeLockClearsAllPinnedAndTheCallReturns() {
        Sched s = machine(4, null, null, new long[] {ALL, ALL}, new long[] {ALL, ALL});
        LoadBalance impl = new LoadBalanceV513();
        LoadBalanceCall lb = call();
        step(impl, lb, s, 0);
        assertThat(lb.env.flags & LBF_ALL_PINNED).as("v5.13 sets the flag before the unlocked read").isNotZero();
        step(impl, lb, s, 0);
        pullTail(s, 2);
        assertThat(step(impl, lb, s, 0)).isEqualTo(AFTER_DETACH);
        assertThat(lb.env.flags & LBF_ALL_PINNED).isZero();
        assertThat(step(impl, lb, s, 0)).isEqualTo(OUT);
    }

    @Test
    void unlockedReadOfOneTaskEndsTheCallWithoutDetaching() {
        Sched s = machine(4, null, null, new long[] {ALL, ALL}, new long[] {ALL});
        LoadBalance impl = new LoadBalanceV511();
        LoadBalanceCall lb = call();
        step(impl, lb, s, 0);
        pullTail(s, 2);
        assertThat(step(impl, lb, s, 0)).isEqualTo(OUT);
    }

    @Test
    void canMigrateTaskRefusesTasksPinnedAwayFromDstAndLeavesAllPinnedSet() {
        Sched s = machine(4, null, null, new long[] {pinnedTo(2), pinnedTo(2)}, new long[] {ALL});
        LoadBalance impl = new LoadBalanceV511();
        LoadBalanceCall lb = call();
        step(impl, lb, s, 0);
        step(impl, lb, s, 0);
        assertThat(step(impl, lb, s, 0)).isEqualTo(AFTER_DETACH);
        assertThat(s.examined()).isTrue();
        assertThat(s.allAffine()).isTrue();
        assertThat(lb.env.flags & LBF_ALL_PINNED).isNotZero();
        assertThat(s.cpuRq(2).nrRunning).isEqualTo(2);
        /* CPU 3 has one task only: nothing left to pull outside the local group, but it is still in cpus */
        assertThat(step(impl, lb, s, 0)).isEqualTo(REDO);
        assertThat(step(impl, lb, s, 0)).isEqualTo(OUT_BALANCED);
    }

    @Test
    void allowedRunningTaskClearsAllPinnedButIsNotMoved() {
        Sched s = machine(4, null, null, new long[] {ALL, pinnedTo(2)}, new long[] {ALL});
        LoadBalance impl = new LoadBalanceV511();
        LoadBalanceCall lb = call();
        step(impl, lb, s, 0);
        step(impl, lb, s, 0);
        step(impl, lb, s, 0);
        assertThat(lb.env.flags & LBF_ALL_PINNED).isZero();
        assertThat(s.allAffine()).isFalse();
        assertThat(lb.ldMoved).isZero();
        assertThat(s.cpuRq(2).nrRunning).isEqualTo(2);
        assertThat(step(impl, lb, s, 0)).isEqualTo(OUT);
    }

    @Test
    void newlyIdleDetachStopsAfterTheFirstMovedTaskAndAttachesItToDst() {
        Sched s = machine(4, null, null, new long[] {ALL, ALL, ALL}, null);
        LoadBalance impl = new LoadBalanceV511();
        LoadBalanceCall lb = call();
        step(impl, lb, s, 0);
        step(impl, lb, s, 0);
        int tail = s.cpuRq(2).listLastEntry();
        step(impl, lb, s, 0);
        assertThat(lb.ldMoved).isEqualTo(1);
        assertThat(s.cpuRq(2).nrRunning).isEqualTo(2);
        assertThat(s.cpuRq(0).nrRunning).isEqualTo(1);
        assertThat(s.cpuRq(0).task(0)).isEqualTo(tail);
        assertThat(s.taskCpu(tail)).isZero();
        assertThat(step(impl, lb, s, 0)).isEqualTo(OUT);
    }

    @Test
    void detachTasksRotatesRefusedTasksFromTailToHead() {
        Sched s = machine(4, null, null, new long[] {ALL, pinnedTo(2), pinnedTo(2)}, null);
        int t1 = s.cpuRq(2).task(1);
        int t2 = s.cpuRq(2).task(2);
        LoadBalance impl = new LoadBalanceV511();
        LoadBalanceCall lb = call();
        step(impl, lb, s, 0);
        step(impl, lb, s, 0);
        step(impl, lb, s, 0);
        /* t2 refused (pinned) and moved to the head, then t1, then the running t0 (allowed, running) */
        Rq rq = s.cpuRq(2);
        assertThat(rq.task(1)).isEqualTo(t1);
        assertThat(rq.task(2)).isEqualTo(t2);
        assertThat(lb.env.loop).as("three tasks examined, the fourth iteration stops at loop_max").isEqualTo(4);
    }

    @Test
    void v511RedoesToTheNextBusiestAfterAnAllPinnedBusiest() {
        Sched s = machine(6, null, null, new long[] {pinnedTo(2), pinnedTo(2)}, null,
                new long[] {ALL, ALL}, null);
        LoadBalance impl = new LoadBalanceV511();
        LoadBalanceCall lb = call();
        step(impl, lb, s, 0);
        assertThat(lb.busiest).isEqualTo(2);
        step(impl, lb, s, 0);
        step(impl, lb, s, 0);
        assertThat(step(impl, lb, s, 0)).isEqualTo(REDO);
        assertThat(lb.env.loop).isZero();
        assertThat(step(impl, lb, s, 0)).isEqualTo(NR_RUNNING);
        assertThat(lb.busiest).isEqualTo(4);
        assertThat(s.passes()).isEqualTo(2);
        assertThat(s.statWork()).as("6 CPUs, then 5").isEqualTo(11);
    }

    @Test
    void rfcAsPostedReturnsOnTheFirstAllPinnedPassBecauseOneIsNotBelowOne() {
        Sched s = machine(6, null, null, new long[] {pinnedTo(2), pinnedTo(2)}, null,
                new long[] {ALL, ALL}, null);
        LoadBalance impl = new LoadBalanceRfc();
        LoadBalanceCall lb = call();
        step(impl, lb, s, 0);
        assertThat(lb.env.redoMax).isEqualTo(1);
        step(impl, lb, s, 0);
        step(impl, lb, s, 0);
        assertThat(step(impl, lb, s, 0)).isEqualTo(OUT_ALL_PINNED);
        assertThat(lb.env.redoCnt).isEqualTo(1);
    }

    @Test
    void allPinnedBusiestWithOnlyTheLocalGroupLeftEndsAtOutAllPinned() {
        Sched s = machine(4, null, null, new long[] {pinnedTo(2), pinnedTo(2)}, null);
        s.setCpuActiveMask(0b0111L);
        LoadBalance impl = new LoadBalanceV511();
        LoadBalanceCall lb = call();
        step(impl, lb, s, 0);
        step(impl, lb, s, 0);
        step(impl, lb, s, 0);
        assertThat(step(impl, lb, s, 0)).isEqualTo(OUT_ALL_PINNED);
        assertThat(lb.env.cpus).isEqualTo(0b0011L);
    }

    @Test
    void busiestSearchOffersOnlyCpusInCpusOutsideTheLocalGroupWithTwoTasks() {
        Sched s = machine(6, new long[] {}, new long[] {ALL, ALL}, new long[] {ALL, ALL}, new long[] {ALL},
                new long[] {ALL, ALL, ALL}, new long[] {ALL, ALL});
        s.setCpuActiveMask(0b011111L);
        LbEnv env = new LbEnv();
        env.dstCpu = 0;
        env.cpus = 0b011111L;
        s.resetStep(1);
        assertThat(s.updateSdLbStats(env)).isEqualTo(4);
        assertThat(s.eligibleCount()).as("CPUs 2 and 4: CPU 1 is local, 3 has one task, 5 is not in cpus").isEqualTo(2);
        assertThat(s.statWork()).isEqualTo(5);
    }

    @Test
    void mutantWithoutLoopResetExaminesNothingOnTheSecondBusiest() {
        Sched s = machine(6, null, null, new long[] {pinnedTo(2), pinnedTo(2)}, null,
                new long[] {pinnedTo(4), pinnedTo(4)}, null);
        LoadBalance impl = new LbRedoMutants.NoLoopReset();
        LoadBalanceCall lb = call();
        step(impl, lb, s, 0);
        step(impl, lb, s, 0);
        step(impl, lb, s, 0);
        assertThat(step(impl, lb, s, 0)).isEqualTo(REDO);
        assertThat(lb.env.loop).isEqualTo(3);
        step(impl, lb, s, 0);
        step(impl, lb, s, 0);
        step(impl, lb, s, 0);
        assertThat(s.examined()).isFalse();
        assertThat(lb.env.flags & LBF_ALL_PINNED).isNotZero();
    }

    @Test
    void detachWithoutTheBusiestLockIsALockingError() {
        Sched s = machine(4, null, null, new long[] {ALL, ALL}, null);
        LoadBalanceV511 impl = new LoadBalanceV511();
        LbEnv env = new LbEnv();
        env.srcCpu = 2;
        env.imbalance = 1;
        assertThatThrownBy(() -> impl.detachTasks(env, s)).isInstanceOf(LbCheck.Failed.class)
                .hasMessageContaining("warn-rq-held").hasMessageContaining("lock not held");
    }

    @Test
    void contiguousGroupsSplitNearEquallyWithTheFirstGroupsLarger() {
        assertThat(LbDomain.contiguousGroups(7, 3)).containsExactly(0, 0, 0, 1, 1, 2, 2);
        assertThat(LbDomain.contiguousGroups(4, 4)).containsExactly(0, 1, 2, 3);
    }

    @Test
    void scenarioDomainsCountTheCpusThatCanBeBusiest() {
        assertThat(LbDomain.scenario(6, 2, LbDomain.ALL, 2, 1).candidates()).isEqualTo(3);
        assertThat(LbDomain.scenario(16, 16, LbDomain.PINNED, 2, 0).candidates()).isEqualTo(15);
        assertThat(LbDomain.scenario(6, 2, LbDomain.PINNED, 2, 0).patterns[3].length).isEqualTo(5);
    }
}
