package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.CPU_NEWLY_IDLE;
import static kcheck.model.lbredo.LbEnv.MIGRATE_TASK;

import kcheck.model.Kernel;

/**
 * What the three {@code load_balance()} variants share, unchanged from v5.11 to v5.13 in the
 * parts modelled here: {@code should_we_balance()}, {@code find_busiest_group()} and
 * {@code find_busiest_queue()} (abstracted, see {@link Sched#updateSdLbStats}),
 * {@code detach_task()}, {@code attach_task()}, {@code attach_tasks()}, and the cpumask helpers.
 */
public abstract class FairLoadBalance implements LoadBalance {

    /** {@code CONFIG_PREEMPTION}: a newly idle balance stops after the first detached task. */
    protected static final boolean CONFIG_PREEMPTION = true;

    /** {@code cpumask_test_cpu(cpu, mask)}. */
    protected static boolean cpumaskTestCpu(int cpu, long mask) {
        return (mask & (1L << cpu)) != 0;
    }

    /** {@code cpumask_subset(a, b)}: every CPU of a is in b. */
    protected static boolean cpumaskSubset(long a, long b) {
        return (a & ~b) == 0;
    }

    /** {@code __cpumask_clear_cpu(cpu, mask)}, returning the new mask. */
    protected static long cpumaskClearCpu(int cpu, long mask) {
        return mask & ~(1L << cpu);
    }

    /**
     * The {@code out_balanced:} label of {@code load_balance()} (v5.4 and later, with f6cad8df6b30
     * "sched/fair: Fix imbalance due to CPU affinity"): "We reach balance although we may have
     * faced some affinity constraints. Clear the imbalance flag only if other tasks got a chance
     * to move and fix the imbalance." Then the call returns 0 ({@code out_all_pinned},
     * {@code out_one_pinned}: balance-interval tuning, not modelled).
     */
    @Kernel(function = "load_balance", file = "kernel/sched/fair.c", version = "v5.11")
    protected int outBalanced(LbEnv env, Sched s) {
        if (s.sdParent() && (env.flags & LbEnv.LBF_ALL_PINNED) == 0) {
            /* int *group_imbalance = &sd_parent->groups->sgc->imbalance; */
            if (s.sdParentGroupImbalance()) {
                s.setSdParentGroupImbalance(false);
            }
        }
        return OUT_BALANCED;
    }

    @Kernel(function = "should_we_balance", file = "kernel/sched/fair.c", version = "v5.11")
    protected boolean shouldWeBalance(LbEnv env, Sched s) {
        /*
         * Ensure the balancing environment is consistent; can happen
         * when the softirq triggers 'during' hotplug.
         */
        if (!cpumaskTestCpu(env.dstCpu, env.cpus)) {
            return false;
        }
        /* In the newly idle case, we will allow all the CPUs to do the newly idle load balance. */
        if (env.idle == CPU_NEWLY_IDLE) {
            return true;
        }
        /* Try to find first idle CPU */
        long sg = s.schedGroupSpanOf(env.dstCpu);
        for (long m = sg & env.cpus; m != 0; m &= m - 1) {
            int cpu = Long.numberOfTrailingZeros(m);
            if (!s.idleCpu(cpu)) {
                continue;
            }
            /* Are we the first idle CPU? */
            return cpu == env.dstCpu;
        }
        /* Are we the first CPU of this group ? */
        return Long.numberOfTrailingZeros(sg) == env.dstCpu;
    }

    /**
     * {@code find_busiest_group()}: {@code update_sd_lb_stats()} is one pass over the CPUs in
     * {@code env->cpus} (counted), and the group and imbalance computation is abstracted to a
     * choice of busiest CPU ({@link Sched#updateSdLbStats}). {@code calculate_imbalance()} is
     * abstracted to "move one task" ({@code migrate_task}, imbalance 1).
     */
    @Kernel(function = "find_busiest_group", file = "kernel/sched/fair.c", version = "v5.11")
    protected int findBusiestGroup(LbEnv env, Sched s) {
        int busiest = s.updateSdLbStats(env);
        if (busiest < 0) {
            /* out_balanced: */
            env.imbalance = 0;
            return -1;
        }
        /* force_balance: calculate_imbalance(env, &sds); (migrate_task: one task, or none) */
        env.migrationType = MIGRATE_TASK;
        env.imbalance = s.calculateImbalance();
        return env.imbalance != 0 ? s.groupOf(busiest) : -1;   /* return env->imbalance ? sds.busiest : NULL; */
    }

    /** {@code find_busiest_queue()}: the CPU the statistics pass settled on. */
    @Kernel(function = "find_busiest_queue", file = "kernel/sched/fair.c", version = "v5.11")
    protected int findBusiestQueue(LbEnv env, int group, Sched s) {
        int busiest = s.busiestOfPass();
        if (busiest >= 0 && s.groupOf(busiest) != group) {
            throw new IllegalStateException("busiest CPU " + busiest + " is not in group " + group);
        }
        return busiest;
    }

    /** {@code detach_task()}: detach the task for the migration specified in env. */
    @Kernel(function = "detach_task", file = "kernel/sched/fair.c", version = "v5.11")
    protected void detachTask(int p, LbEnv env, Sched s) {
        Rq src = s.cpuRq(env.srcCpu);
        s.lockdepAssertHeld(src);
        s.deactivateTask(src, p);
        s.setTaskCpu(p, env.dstCpu);
    }

    /** {@code attach_task()}: attach a task detached by {@code detach_task()} to its new rq. */
    @Kernel(function = "attach_task", file = "kernel/sched/fair.c", version = "v5.11")
    protected void attachTask(Rq rq, int p, Sched s) {
        s.lockdepAssertHeld(rq);
        s.warnOnOnce(s.taskCpu(p) != rq.cpu, LbCheck.WARN_ATTACH_TASK_RQ);   /* BUG_ON(task_rq(p) != rq); */
        s.activateTask(rq, p);
        /* check_preempt_curr(rq, p, 0); */
    }

    /** {@code attach_tasks()}: attach all tasks detached by {@code detach_tasks()} to their new rq. */
    @Kernel(function = "attach_tasks", file = "kernel/sched/fair.c", version = "v5.11")
    protected void attachTasks(LbEnv env, Sched s) {
        Rq dst = s.cpuRq(env.dstCpu);
        s.rqLock(dst);
        /* update_rq_clock(env->dst_rq); */
        while (env.nrTasks > 0) {
            /* p = list_first_entry(tasks, ...); list_del_init(&p->se.group_node); */
            int p = env.tasks[--env.nrTasks];
            attachTask(dst, p, s);
        }
        s.rqUnlock(dst);
    }
}
