package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.CPU_IDLE;
import static kcheck.model.lbredo.LbEnv.CPU_NEWLY_IDLE;
import static kcheck.model.lbredo.LbEnv.CPU_NOT_IDLE;
import static kcheck.model.lbredo.LbEnv.MIGRATE_LOAD;
import static kcheck.model.lbredo.LbEnv.MIGRATE_TASK;
import static kcheck.model.lbredo.Machines.ALL;
import static kcheck.model.lbredo.Machines.cpus;
import static kcheck.model.lbredo.Machines.env;
import static kcheck.model.lbredo.Machines.machine;
import static kcheck.model.lbredo.Machines.tasks;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * What the three {@code load_balance()} variants share (kernel/sched/fair.c, v5.11):
 * {@code should_we_balance()} for every kind of balance, the abstracted
 * {@code find_busiest_group()} and {@code find_busiest_queue()}, and {@code attach_tasks()}.
 * Groups {0,1,2} and {3,4,5} of a 6-CPU domain.
 */
class FairLoadBalanceTest {
    private final FairLoadBalance lb = new LoadBalanceV511();

    private boolean shouldWeBalance(Sched s, int dst, int idle, long cpus) {
        LbEnv env = env(s, dst, -1, idle, 0, 0);
        env.cpus = cpus;
        return lb.shouldWeBalance(env, s);
    }

    @Test
    void aDstCpuOutsideEnvCpusNeverBalances() {
        // if (!cpumask_test_cpu(env->dst_cpu, env->cpus)) return 0;
        Sched s = machine(6, 2);
        assertThat(shouldWeBalance(s, 4, CPU_NEWLY_IDLE, cpus(0, 1, 2, 3, 5))).isFalse();
        assertThat(shouldWeBalance(s, 4, CPU_IDLE, cpus(0, 1, 2, 3, 5))).isFalse();
        assertThat(shouldWeBalance(s, 4, CPU_NEWLY_IDLE, cpus(4))).isTrue();
    }

    @Test
    void everyNewlyIdleCpuBalances() {
        // if (env->idle == CPU_NEWLY_IDLE) return 1;
        Sched s = machine(6, 2, null, null, null, null, tasks(1, ALL));
        assertThat(shouldWeBalance(s, 5, CPU_NEWLY_IDLE, ALL & cpus(0, 1, 2, 3, 4, 5))).isTrue();
    }

    @Test
    void onAPeriodicBalanceOnlyTheFirstIdleCpuOfTheGroupBalances() {
        // for_each_cpu_and(cpu, group_balance_mask(sg), env->cpus) { if (!idle_cpu(cpu)) continue; return cpu == env->dst_cpu; }
        Sched s = machine(6, 2, null, null, null, tasks(1, ALL), null, null);
        long all = cpus(0, 1, 2, 3, 4, 5);
        assertThat(shouldWeBalance(s, 4, CPU_IDLE, all)).as("CPU 3 is busy, 4 is the first idle").isTrue();
        assertThat(shouldWeBalance(s, 5, CPU_IDLE, all)).isFalse();
        assertThat(shouldWeBalance(s, 5, CPU_IDLE, all & ~cpus(4))).as("CPU 4 no longer in env->cpus").isTrue();
    }

    @Test
    void onAPeriodicBalanceWithoutIdleCpusTheFirstCpuOfTheGroupBalances() {
        // return group_balance_cpu(sg) == env->dst_cpu;
        Sched s = machine(6, 2, null, null, null, tasks(1, ALL), tasks(1, ALL), tasks(1, ALL));
        long all = cpus(0, 1, 2, 3, 4, 5);
        assertThat(shouldWeBalance(s, 3, CPU_NOT_IDLE, all)).isTrue();
        assertThat(shouldWeBalance(s, 4, CPU_NOT_IDLE, all)).isFalse();
    }

    @Test
    void findBusiestGroupOfABalancedDomainIsNoneWithNoImbalance() {
        Sched s = machine(6, 2, null, null, null, tasks(1, ALL), tasks(1, ALL), null);
        LbEnv env = env(s, 0, -1, CPU_NEWLY_IDLE, 5, 0);
        s.resetStep(0);
        assertThat(lb.findBusiestGroup(env, s)).isEqualTo(-1);
        assertThat(env.imbalance).isZero();
        assertThat(lb.findBusiestQueue(env, 1, s)).as("find_busiest_queue finds no queue either").isEqualTo(-1);
    }

    @Test
    void findBusiestGroupNamesTheGroupOfTheBusiestCpuAndAsksForOneTask() {
        // calculate_imbalance, migrate_task: env->imbalance = 1 task
        Sched s = machine(6, 2, tasks(2, ALL), null, null, null, null, null);
        LbEnv env = env(s, 4, -1, CPU_NEWLY_IDLE, 0, 0);
        env.migrationType = MIGRATE_LOAD;
        s.resetStep(0);
        assertThat(lb.findBusiestGroup(env, s)).isZero();
        assertThat(env.migrationType).isEqualTo(MIGRATE_TASK);
        assertThat(env.imbalance).isEqualTo(1);
        assertThat(lb.findBusiestQueue(env, 0, s)).isZero();
    }

    @Test
    void findBusiestQueueInsistsOnAQueueOfTheChosenGroup() {
        Sched s = machine(6, 2, tasks(2, ALL), null, null, null, null, null);
        LbEnv env = env(s, 4, -1, CPU_NEWLY_IDLE, 0, 0);
        s.resetStep(0);
        lb.findBusiestGroup(env, s);
        assertThatThrownBy(() -> lb.findBusiestQueue(env, 1, s)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("busiest CPU 0 is not in group 1");
    }

    @Test
    void attachTasksPutsTheDetachedTasksAtTheHeadOfDstLastDetachedFirstAndUnlocksDst() {
        // attach_tasks: while (!list_empty(tasks)) { p = list_first_entry(tasks); ...; attach_task(env->dst_rq, p); }
        // env->tasks was filled with list_add (head), so the last detached task is attached first
        Sched s = machine(6, 2, null, tasks(1, ALL), tasks(3, ALL));
        Rq src = s.cpuRq(2);
        int a = src.task(2);
        int b = src.task(1);
        LbEnv env = env(s, 1, 2, CPU_IDLE, 2, 3);
        s.rqLock(src);
        lb.detachTask(a, env, s);
        env.listAddTask(a);
        lb.detachTask(b, env, s);
        env.listAddTask(b);
        s.rqUnlock(src);
        lb.attachTasks(env, s);
        Rq dst = s.cpuRq(1);
        assertThat(dst.nrRunning).isEqualTo(3);
        assertThat(dst.task(0)).isEqualTo(a);
        assertThat(dst.task(1)).isEqualTo(b);
        assertThat(env.nrTasks).isZero();
        assertThat(dst.locked).isFalse();
        assertThat(s.migrated()).isEqualTo(2);
    }

    @Test
    void attachTaskNeedsTheDstLockAndATaskAlreadyMovedThere() {
        // attach_task: lockdep_assert_held(&rq->lock); BUG_ON(task_rq(p) != rq);
        Sched s = machine(6, 2, null, null, tasks(2, ALL));
        int p = s.cpuRq(2).task(1);
        Rq dst = s.cpuRq(1);
        assertThatThrownBy(() -> lb.attachTask(dst, p, s)).hasMessageContaining("lock not held");
        s.rqLock(dst);
        assertThatThrownBy(() -> lb.attachTask(dst, p, s)).hasMessageContaining("BUG_ON");
    }
}
