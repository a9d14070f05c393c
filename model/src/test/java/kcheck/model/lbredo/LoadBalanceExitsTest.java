package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.CPU_NEWLY_IDLE;
import static kcheck.model.lbredo.LbEnv.LBF_ALL_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_DST_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_NEED_BREAK;
import static kcheck.model.lbredo.LbEnv.LBF_SOME_PINNED;
import static kcheck.model.lbredo.LoadBalance.AFTER_DETACH;
import static kcheck.model.lbredo.LoadBalance.ENTRY;
import static kcheck.model.lbredo.LoadBalance.MORE_BALANCE;
import static kcheck.model.lbredo.LoadBalance.NR_RUNNING;
import static kcheck.model.lbredo.LoadBalance.OUT;
import static kcheck.model.lbredo.LoadBalance.OUT_ALL_PINNED;
import static kcheck.model.lbredo.LoadBalance.OUT_BALANCED;
import static kcheck.model.lbredo.LoadBalance.REDO;
import static kcheck.model.lbredo.Machines.ALL;
import static kcheck.model.lbredo.Machines.call;
import static kcheck.model.lbredo.Machines.cpus;
import static kcheck.model.lbredo.Machines.fill;
import static kcheck.model.lbredo.Machines.machine;
import static kcheck.model.lbredo.Machines.step;
import static kcheck.model.lbredo.Machines.tasks;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The paths through {@code load_balance()} (kernel/sched/fair.c, v5.11, v5.13 and the RFC) that
 * the model's scenarios reach rarely or never: the {@code redo} decisions after detach with
 * each {@code env.flags} bit ({@code LBF_NEED_BREAK}, {@code LBF_DST_PINNED},
 * {@code LBF_ALL_PINNED}), the early exits, and a balancing CPU outside group 0.
 */
class LoadBalanceExitsTest {

    static List<LoadBalance> variants() {
        return Machines.variants();
    }

    /** A call on CPU 0 stopped after detach_tasks() with busiest CPU 2, in a 6-CPU domain of groups {0,1,2}, {3,4,5}. */
    private static LoadBalanceCall afterDetach(Sched s, int flags, long imbalance) {
        LoadBalanceCall lb = call(0);
        fill(lb.env, s, 0, 2, CPU_NEWLY_IDLE, imbalance, 3);
        lb.env.flags = flags;
        lb.env.redoMax = LoadBalanceRfc.SCHED_NR_LB_REDO;
        lb.busiest = 2;
        lb.at = AFTER_DETACH;
        return lb;
    }

    @ParameterizedTest
    @MethodSource("variants")
    void needBreakGoesBackToMoreBalanceBeforeAnyOtherFlagIsLookedAt(LoadBalance impl) {
        // if (env.flags & LBF_NEED_BREAK) { env.flags &= ~LBF_NEED_BREAK; goto more_balance; }
        Sched s = machine(6, 2);
        LoadBalanceCall lb = afterDetach(s, LBF_NEED_BREAK | LBF_DST_PINNED | LBF_ALL_PINNED, 1);
        lb.env.newDstCpu = 1;
        assertThat(step(impl, lb, s, 0)).isEqualTo(MORE_BALANCE);
        assertThat(lb.env.flags).isEqualTo(LBF_DST_PINNED | LBF_ALL_PINNED);
        assertThat(lb.env.dstCpu).isZero();
        assertThat(lb.env.cpus).isEqualTo(cpus(0, 1, 2, 3, 4, 5));
    }

    @ParameterizedTest
    @MethodSource("variants")
    void dstPinnedWithImbalanceLeftRetriesTheSameBusiestFromTheNewDstCpu(LoadBalance impl) {
        // if ((env.flags & LBF_DST_PINNED) && env.imbalance > 0) { __cpumask_clear_cpu(env.dst_cpu, env.cpus);
        //     env.dst_cpu = env.new_dst_cpu; env.flags &= ~LBF_DST_PINNED; env.loop = 0;
        //     env.loop_break = sched_nr_migrate_break; goto more_balance; }
        Sched s = machine(6, 2);
        LoadBalanceCall lb = afterDetach(s, LBF_DST_PINNED | LBF_SOME_PINNED | LBF_ALL_PINNED, 1);
        lb.env.newDstCpu = 1;
        lb.env.loop = 7;
        lb.env.loopBreak = 64;
        assertThat(step(impl, lb, s, 0)).isEqualTo(MORE_BALANCE);
        assertThat(lb.env.cpus).isEqualTo(cpus(1, 2, 3, 4, 5));
        assertThat(lb.env.dstCpu).isEqualTo(1);
        assertThat(lb.env.flags).isEqualTo(LBF_SOME_PINNED | LBF_ALL_PINNED);
        assertThat(lb.env.loop).isZero();
        assertThat(lb.env.loopBreak).isEqualTo(32);
        assertThat(lb.busiest).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("variants")
    void dstPinnedWithTheImbalanceMetEndsTheCall(LoadBalance impl) {
        Sched s = machine(6, 2);
        LoadBalanceCall lb = afterDetach(s, LBF_DST_PINNED, 0);
        lb.env.newDstCpu = 1;
        assertThat(step(impl, lb, s, 0)).isEqualTo(OUT);
        assertThat(lb.env.dstCpu).isZero();
        assertThat(lb.env.flags).isEqualTo(LBF_DST_PINNED);
    }

    @ParameterizedTest
    @MethodSource("variants")
    void allPinnedBusiestIsDroppedAndTheSearchRedoneWhileCpusOutsideTheLocalGroupRemain(LoadBalance impl) {
        // if (env.flags & LBF_ALL_PINNED) { __cpumask_clear_cpu(cpu_of(busiest), cpus);
        //     if (!cpumask_subset(cpus, env.dst_grpmask)) { env.loop = 0; env.loop_break = ...; goto redo; } goto out_all_pinned; }
        Sched s = machine(6, 2);
        LoadBalanceCall lb = afterDetach(s, LBF_ALL_PINNED, 1);
        lb.env.loop = 3;
        lb.env.loopBreak = 64;
        int exit = step(impl, lb, s, 0);
        assertThat(lb.env.cpus).isEqualTo(cpus(0, 1, 3, 4, 5));
        if (impl instanceof LoadBalanceRfc) {
            assertThat(exit).as("RFC as posted: ++redo_cnt < redo_max is 1 < 1").isEqualTo(OUT_ALL_PINNED);
        } else {
            assertThat(exit).isEqualTo(REDO);
            assertThat(lb.env.loop).isZero();
            assertThat(lb.env.loopBreak).isEqualTo(32);
        }
    }

    @ParameterizedTest
    @MethodSource("variants")
    void allPinnedWithOnlyTheLocalGroupLeftEndsAtOutAllPinned(LoadBalance impl) {
        Sched s = machine(6, 2);
        LoadBalanceCall lb = afterDetach(s, LBF_ALL_PINNED, 1);
        lb.env.cpus = cpus(0, 1, 2);
        assertThat(step(impl, lb, s, 0)).isEqualTo(OUT_ALL_PINNED);
        assertThat(lb.env.cpus).isEqualTo(cpus(0, 1));
    }

    @Test
    void rfcWithARedoMaxOfTwoRedoesOnceThenGivesUp() {
        // RFC v1: !cpumask_subset(cpus, env.dst_grpmask) && ++env.redo_cnt < env.redo_max
        Sched s = machine(6, 2);
        LoadBalanceRfc rfc = new LoadBalanceRfc();
        LoadBalanceCall lb = afterDetach(s, LBF_ALL_PINNED, 1);
        lb.env.redoMax = 2;
        lb.env.loop = 3;
        assertThat(step(rfc, lb, s, 0)).isEqualTo(REDO);
        assertThat(lb.env.redoCnt).isEqualTo(1);
        assertThat(lb.env.loop).isZero();
        assertThat(lb.env.loopBreak).isEqualTo(32);
        lb.busiest = 3;
        lb.at = AFTER_DETACH;
        assertThat(step(rfc, lb, s, 0)).isEqualTo(OUT_ALL_PINNED);
        assertThat(lb.env.redoCnt).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("variants")
    void entryZeroesEveryFieldTheInitialiserDoesNotName(LoadBalance impl) {
        // struct lb_env env = { .sd = sd, .dst_cpu = this_cpu, ... }: every other field starts at 0
        Sched s = machine(4, 2, null, null, tasks(2, ALL));
        LoadBalanceCall lb = new LoadBalanceCall();
        lb.thisCpu = 0;
        lb.at = ENTRY;
        lb.env.flags = LBF_NEED_BREAK | LBF_DST_PINNED | LBF_SOME_PINNED;
        lb.env.loop = 9;
        lb.env.loopBreak = 3;
        lb.env.nrTasks = 2;
        lb.env.newDstCpu = 1;
        lb.env.redoCnt = 5;
        lb.ldMoved = 4;
        assertThat(step(impl, lb, s, 0)).isEqualTo(NR_RUNNING);
        assertThat(lb.env.flags).isEqualTo(impl instanceof LoadBalanceV513 ? LBF_ALL_PINNED : 0);
        assertThat(lb.env.loop).isZero();
        assertThat(lb.env.loopBreak).isEqualTo(32);
        assertThat(lb.env.nrTasks).isZero();
        assertThat(lb.env.newDstCpu).isEqualTo(-1);
        assertThat(lb.env.redoCnt).isZero();
        assertThat(lb.env.redoMax).isEqualTo(impl instanceof LoadBalanceRfc ? 1 : 0);
        assertThat(lb.ldMoved).isZero();
        assertThat(lb.env.srcCpu).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("variants")
    void aCpuOfTheSecondGroupPullsFromCpu0(LoadBalance impl) {
        Sched s = machine(4, 2, tasks(3, ALL), null, null, null);
        LoadBalanceCall lb = call(2);
        assertThat(step(impl, lb, s, 0)).isEqualTo(NR_RUNNING);
        assertThat(lb.busiest).isZero();
        assertThat(lb.env.dstGrpmask).isEqualTo(cpus(2, 3));
        assertThat(step(impl, lb, s, 0)).isEqualTo(MORE_BALANCE);
        assertThat(lb.env.loopMax).isEqualTo(3);
        int tail = s.cpuRq(0).listLastEntry();
        assertThat(step(impl, lb, s, 0)).isEqualTo(AFTER_DETACH);
        assertThat(lb.ldMoved).isEqualTo(1);
        assertThat(s.taskCpu(tail)).isEqualTo(2);
        assertThat(s.cpuRq(2).task(0)).isEqualTo(tail);
        assertThat(s.cpuRq(0).locked).as("rq_unlock(busiest)").isFalse();
        assertThat(s.cpuRq(2).locked).as("attach_tasks unlocks dst").isFalse();
        assertThat(step(impl, lb, s, 0)).isEqualTo(OUT);
    }

    @ParameterizedTest
    @MethodSource("variants")
    void aDstCpuNoLongerActiveDoesNotBalance(LoadBalance impl) {
        // should_we_balance: if (!cpumask_test_cpu(env->dst_cpu, env->cpus)) return 0;
        Sched s = machine(4, 2, null, null, tasks(2, ALL));
        s.setCpuActiveMask(cpus(1, 2, 3));
        LoadBalanceCall lb = call(0);
        assertThat(step(impl, lb, s, 0)).isEqualTo(OUT_BALANCED);
        assertThat(lb.env.cpus).isEqualTo(cpus(1, 2, 3));
        assertThat(s.passes()).as("no statistics pass").isZero();
    }

    @ParameterizedTest
    @MethodSource("variants")
    void aBalancedDomainEndsAtOutBalanced(LoadBalance impl) {
        Sched s = machine(4, 2, null, null, tasks(1, ALL), tasks(1, ALL));
        LoadBalanceCall lb = call(0);
        assertThat(step(impl, lb, s, 0)).isEqualTo(OUT_BALANCED);
        assertThat(s.passes()).isEqualTo(1);
    }

    @Test
    void noBusiestQueueInTheBusiestGroupEndsAtOutBalanced() {
        // busiest = find_busiest_queue(&env, group); if (!busiest) goto out_balanced;
        LoadBalance[] stubs = {
            new LoadBalanceV511() {
                @Override
                protected int findBusiestQueue(LbEnv env, int group, Sched s) {
                    return -1;
                }
            },
            new LoadBalanceV513() {
                @Override
                protected int findBusiestQueue(LbEnv env, int group, Sched s) {
                    return -1;
                }
            },
            new LoadBalanceRfc() {
                @Override
                protected int findBusiestQueue(LbEnv env, int group, Sched s) {
                    return -1;
                }
            }};
        for (LoadBalance impl : stubs) {
            Sched s = machine(4, 2, null, null, tasks(2, ALL));
            LoadBalanceCall lb = call(0);
            assertThat(step(impl, lb, s, 0)).isEqualTo(OUT_BALANCED);
        }
    }

    @ParameterizedTest
    @MethodSource("variants")
    void oneTaskAtTheUnlockedReadEndsTheCall(LoadBalance impl) {
        // if (busiest->nr_running > 1) { ... } : nothing to move otherwise
        Sched s = machine(4, 2, null, null, tasks(2, ALL));
        LoadBalanceCall lb = call(0);
        step(impl, lb, s, 0);
        Rq rq = s.cpuRq(2);
        s.rqLock(rq);
        s.deactivateTask(rq, rq.listLastEntry());
        s.rqUnlock(rq);
        assertThat(step(impl, lb, s, 0)).isEqualTo(OUT);
    }
}
