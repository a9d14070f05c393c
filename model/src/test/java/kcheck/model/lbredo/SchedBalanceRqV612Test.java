package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.CPU_IDLE;
import static kcheck.model.lbredo.LbEnv.CPU_NEWLY_IDLE;
import static kcheck.model.lbredo.LbEnv.CPU_NOT_IDLE;
import static kcheck.model.lbredo.LbEnv.LBF_ACTIVE_LB;
import static kcheck.model.lbredo.LbEnv.LBF_ALL_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_DST_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_NEED_BREAK;
import static kcheck.model.lbredo.LoadBalance.AFTER_DETACH;
import static kcheck.model.lbredo.LoadBalance.MORE_BALANCE;
import static kcheck.model.lbredo.LoadBalance.NR_RUNNING;
import static kcheck.model.lbredo.LoadBalance.OUT_BALANCED;
import static kcheck.model.lbredo.LoadBalance.REDO;
import static kcheck.model.lbredo.Machines.ALL;
import static kcheck.model.lbredo.Machines.cpus;
import static kcheck.model.lbredo.Machines.env;
import static kcheck.model.lbredo.Machines.machine;
import static kcheck.model.lbredo.Machines.step;
import static kcheck.model.lbredo.Machines.tasks;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code sched_balance_rq()} of v6.12 and the functions it calls, driven by hand, for what
 * changed since v5.13 (kernel/sched/fair.c of v6.12.117), and the domain walk
 * ({@link BalanceDomains}).
 */
class SchedBalanceRqV612Test {
    private final SchedBalanceRqV612 v612 = new SchedBalanceRqV612();

    /** An SMT machine: cores {0,1} and {2,3}; CPU 0 balances the MC domain (level 1) of two cores. */
    private static Sched smtMachine(long[]... rqs) {
        LbDomain d = LbDomain.of(new LbDomain.Spec(4, 2, LbDomain.ALL, 2, 0, LbDomain.SMT, LbDomain.MASKS_OWN, CPU_IDLE, 32, 32));
        Sched s = d.newSched();
        int p = 0;
        for (int c = 0; c < rqs.length; c++) {
            if (rqs[c] == null) {
                continue;
            }
            for (int i = 0; i < rqs[c].length; i++) {
                s.setTask(p, rqs[c][i], c, "t" + c + "." + i);
                s.enqueueTail(c, p);
                if (i == 0) {
                    s.setCurr(c, p);
                }
                p++;
            }
        }
        return s;
    }

    @Test
    void aNewlyIdleCpuThatAlreadyHasATaskDoesNotBalance() {
        // if (env->dst_rq->nr_running > 0 || env->dst_rq->ttwu_pending) return 0;
        Sched s = machine(4, 2, tasks(1, ALL), null, tasks(2, ALL));
        LbEnv env = env(s, 0, -1, CPU_NEWLY_IDLE, 0, 0);
        assertThat(v612.shouldWeBalance(env, s)).isFalse();
        assertThat(new LoadBalanceV513().shouldWeBalance(env, s)).as("v5.13 lets every newly idle CPU balance").isTrue();
        Sched idle = machine(4, 2, null, null, tasks(2, ALL));
        assertThat(v612.shouldWeBalance(env(idle, 0, -1, CPU_NEWLY_IDLE, 0, 0), idle)).isTrue();
    }

    @Test
    void aboveTheSmtLevelAnIdleSiblingOfABusyCoreBalancesOnlyIfNoWholeCoreIsIdle() {
        // MC domain, local group = core {0,1}: CPU 0 idle, its sibling CPU 1 busy
        Sched s = smtMachine(null, tasks(1, ALL), tasks(2, ALL), tasks(1, ALL));
        s.setLevel(1);
        LbEnv env = env(s, 0, -1, CPU_IDLE, 0, 0);
        env.dstGrpmask = s.groupBalanceMaskOf(0);
        assertThat(s.isCoreIdle(0)).isFalse();
        assertThat(v612.shouldWeBalance(env, s)).as("first idle CPU with busy siblings").isTrue();
        // CPU 1 asks: CPU 0 is the idle SMT CPU remembered, so CPU 1 does not balance
        LbEnv env1 = env(s, 1, -1, CPU_IDLE, 0, 0);
        env1.dstGrpmask = s.groupBalanceMaskOf(1);
        assertThat(v612.shouldWeBalance(env1, s)).isFalse();
        // at the SMT level itself (SD_SHARE_CPUCAPACITY) the first idle CPU balances
        s.setLevel(0);
        assertThat(s.sdShareCpuCapacity()).isTrue();
        assertThat(v612.shouldWeBalance(env(s, 0, -1, CPU_IDLE, 0, 0), s)).isTrue();
    }

    @Test
    void theDestinationGroupIsTheGroupBalanceMask() {
        // .dst_grpmask = group_balance_mask(sd->groups) (52c3a18973d0): the span, for non-overlapping groups
        Sched s = machine(6, 2, null, null, null, tasks(2, ALL));
        LoadBalanceCall lb = Machines.call(0);
        assertThat(step(v612, lb, s, 0)).isEqualTo(NR_RUNNING);
        assertThat(lb.env.dstGrpmask).isEqualTo(cpus(0, 1, 2)).isEqualTo(s.groupBalanceMaskOf(0));
        assertThat(lb.env.flags).as("LBF_ALL_PINNED set before the unlocked read").isEqualTo(LBF_ALL_PINNED);
    }

    @Test
    void withPreemptRtTheBreatherComesEveryEightTasks() {
        // SCHED_NR_MIGRATE_BREAK 8 (CONFIG_PREEMPT_RT); 10 pinned tasks, sysctl_sched_nr_migrate raised to 32
        Sched s = machine(4, 2, null, null, tasks(10, cpus(2)));
        s.setNrMigrate(32, 8);
        LoadBalanceCall lb = Machines.call(0);
        step(v612, lb, s, 0);
        assertThat(lb.env.loopBreak).isEqualTo(8);
        assertThat(step(v612, lb, s, 0)).isEqualTo(MORE_BALANCE);
        assertThat(lb.env.loopMax).isEqualTo(10);
        assertThat(step(v612, lb, s, 0)).isEqualTo(AFTER_DETACH);
        assertThat(s.examinedInStep()).isEqualTo(8);
        assertThat(lb.env.flags & LBF_NEED_BREAK).isNotZero();
        assertThat(lb.env.loopBreak).isEqualTo(16);
        assertThat(step(v612, lb, s, 0)).as("goto more_balance").isEqualTo(MORE_BALANCE);
        step(v612, lb, s, 0);
        // the breather's own iteration counted (loop 9) without examining a task: loop 10 examines
        // one more, loop 11 > loop_max: 9 of the 10 tasks are seen in this call
        assertThat(s.examinedInStep()).isEqualTo(1);
        assertThat(step(v612, lb, s, 0)).as("all pinned, CPU 3 left outside the group: redo").isEqualTo(REDO);
    }

    @Test
    void anActiveBalanceNeitherLooksForANewDstNorKeepsTheTaskForCacheHotness() {
        // if (env->idle == CPU_NEWLY_IDLE || env->flags & (LBF_DST_PINNED | LBF_ACTIVE_LB)) return 0;
        Sched s = machine(6, 2, tasks(1, ALL), null, null, new long[] {ALL, cpus(1, 3)});
        s.rqLock(s.cpuRq(3));
        LbEnv env = env(s, 0, 3, CPU_IDLE, 1, 2);
        env.flags = LBF_ACTIVE_LB;
        assertThat(v612.canMigrateTask(s.cpuRq(3).task(1), env, s)).isFalse();
        assertThat(env.flags & LBF_DST_PINNED).isZero();
        LbEnv periodic = env(s, 0, 3, CPU_IDLE, 1, 2);
        assertThat(v612.canMigrateTask(s.cpuRq(3).task(1), periodic, s)).isFalse();
        assertThat(periodic.flags & LBF_DST_PINNED).isNotZero();
        assertThat(periodic.newDstCpu).isEqualTo(1);
    }

    @Test
    void theDstPinnedRetryClearsTheOldDstAndRestartsTheScan() {
        Sched s = machine(6, 2, null, null, null, new long[] {ALL, cpus(1, 3)});
        LoadBalanceCall lb = new LoadBalanceCall();
        lb.start(0, CPU_NOT_IDLE);
        s.setUnnamedTasks(0, 1);
        s.setUnnamedTasks(1, 1);
        s.setUnnamedTasks(2, 1);
        step(v612, lb, s, 0);
        step(v612, lb, s, 0);
        step(v612, lb, s, 0);
        assertThat(lb.env.flags & LBF_DST_PINNED).isNotZero();
        assertThat(step(v612, lb, s, 0)).isEqualTo(MORE_BALANCE);
        assertThat(lb.env.dstCpu).isEqualTo(1);
        assertThat(lb.env.cpus).isEqualTo(cpus(1, 2, 3, 4, 5));
        assertThat(lb.env.loop).isZero();
        int moved = s.cpuRq(3).task(1);
        step(v612, lb, s, 0);
        assertThat(s.taskCpu(moved)).as("attached to the new dst_cpu").isEqualTo(1);
        assertThat(s.cpuRq(1).nrRunning).isEqualTo(2);
    }

    @Test
    void theRevertedDetachAtLeastOneGoesRoundAnAllPinnedRunqueueUntilTheBreather() {
        // b0defa7ae03e: if (env->loop > env->loop_max && !(env->flags & LBF_ALL_PINNED)) break;
        Sched s = machine(4, 2, null, null, tasks(2, cpus(2)));
        LoadBalance bug = new LbRedoRealBugs.DetachAtLeastOne();
        LoadBalanceCall lb = Machines.call(0);
        step(bug, lb, s, 0);
        step(bug, lb, s, 0);
        assertThat(step(bug, lb, s, 0)).isEqualTo(AFTER_DETACH);
        assertThat(s.examinedInStep()).as("32 examinations of 2 tasks").isEqualTo(32);
        assertThat(lb.env.loop).isEqualTo(33);
        assertThat(step(bug, lb, s, 0)).as("loop 33 >= nr_running 2: no more breathers; all pinned: redo").isEqualTo(REDO);
        // with a movable task the loop_max test applies again
        Sched m = machine(4, 2, null, null, new long[] {cpus(2), ALL, cpus(2)});
        LoadBalanceCall lb2 = Machines.call(0);
        step(bug, lb2, m, 0);
        step(bug, lb2, m, 0);
        step(bug, lb2, m, 0);
        assertThat(m.examinedInStep()).isEqualTo(2);
        assertThat(lb2.ldMoved).isEqualTo(1);
    }

    @Test
    void theWalkStopsANewlyIdleBalanceOnceATaskWasPulledAndUpdatesThePeriodicIdleType() {
        Rq rq0 = new Rq(0, 1);
        assertThat(BalanceDomains.newidleGoesOn(0, rq0, true)).isTrue();
        assertThat(BalanceDomains.newidleGoesOn(1, rq0, true)).isFalse();
        assertThat(BalanceDomains.newidleGoesOn(0, rq0, false)).isFalse();
        rq0.setExtra(1);
        assertThat(BalanceDomains.newidleGoesOn(0, rq0, true)).as("this_rq->nr_running > 0").isFalse();
        assertThat(BalanceDomains.rebalanceGoesOn(false)).isFalse();
        assertThat(BalanceDomains.rebalanceIdle(CPU_IDLE, 1, false)).isEqualTo(CPU_NOT_IDLE);
        assertThat(BalanceDomains.rebalanceIdle(CPU_IDLE, 1, true)).as("the task went to another dst_cpu").isEqualTo(CPU_IDLE);
        assertThat(BalanceDomains.rebalanceIdle(CPU_NOT_IDLE, 0, true)).isEqualTo(CPU_NOT_IDLE);
    }

    @Test
    void aRedoAfterEveryBusiestWasDroppedEndsBalancedWithoutClearingTheParentsFlagWhileAllPinned() {
        // cluster topology, MC level {0,1,2}: busiest CPU 1 all pinned, CPU 2 balanced
        LbDomain d = LbDomain.of(new LbDomain.Spec(6, 2, LbDomain.PINNED, 2, 0, LbDomain.CLUSTER, LbDomain.MASKS_OWN,
                CPU_NEWLY_IDLE, 32, 32));
        for (LoadBalance impl : new LoadBalance[] {v612, new LoadBalanceV511(), new LbRedoRealBugs.ImbalanceCleared()}) {
            Sched s = d.newSched();
            s.setTask(0, cpus(1), 1, "t1.0");
            s.enqueueTail(1, 0);
            s.setCurr(1, 0);
            s.setTask(1, cpus(1), 1, "t1.1");
            s.enqueueTail(1, 1);
            s.setTask(2, ALL, 2, "t2.0");
            s.enqueueTail(2, 2);
            s.setCurr(2, 2);
            LoadBalanceCall lb = Machines.call(0);
            step(impl, lb, s, 0);
            step(impl, lb, s, 0);
            step(impl, lb, s, 0);
            assertThat(step(impl, lb, s, 0)).isEqualTo(REDO);
            assertThat(s.sdParentGroupImbalance()).as("LBF_SOME_PINNED with imbalance left").isTrue();
            assertThat(step(impl, lb, s, 0)).isEqualTo(OUT_BALANCED);
            assertThat(s.sdParentGroupImbalance()).as(impl.getClass().getSimpleName())
                    .isEqualTo(!(impl instanceof LbRedoRealBugs.ImbalanceCleared));
        }
    }
}
