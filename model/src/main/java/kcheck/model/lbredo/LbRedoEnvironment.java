package kcheck.model.lbredo;

import static kcheck.model.EnvironmentInput.assumption;
import static kcheck.model.EnvironmentInput.choice;
import static kcheck.model.EnvironmentInput.parameter;

import java.util.List;

import kcheck.model.EnvironmentInput;

/**
 * The environment contract of lb-redo: every input the ported functions ({@code sched_balance_rq},
 * {@code should_we_balance}, {@code sched_balance_find_src_group/rq}, {@code detach_tasks},
 * {@code can_migrate_task}, {@code detach_task}, {@code attach_task(s)}, and their v5.11 / v5.13
 * forms) read from outside the balancing mechanism, at its v6.12 call site
 * (kernel/sched/fair.c of v6.12.117), with how the model covers it. docs/models/lb-redo.md,
 * "Environment contract", is the same table with the older ports' differences.
 */
final class LbRedoEnvironment {
    private LbRedoEnvironment() {
    }

    static List<EnvironmentInput> rows() {
        return List.of(
                choice("other CPUs pull tasks off the busiest candidates (their own load balancing, under that rq's lock)",
                        "fair.c:11849 sched_balance_rq (busiest->nr_running read unlocked), fair.c:11859 rq_lock_irqsave(busiest), "
                                + "fair.c:9629/9642 detach_tasks (src_rq->nr_running)",
                        "a pull step of 'other CPUs' at any cut, in particular between the unlocked read and rq_lock; "
                                + "how many: parameter pulls (auto = 1 with scenario all/race)"),
                choice("which group/CPU the statistics call busiest (update_sd_lb_stats on loads, capacities, group types)",
                        "fair.c:11827 sched_balance_find_src_group, fair.c:11833 sched_balance_find_src_rq",
                        "any CPU of env->cpus outside the local group with nr_running >= 2 (one successor per CPU)"),
                choice("the imbalance calculate_imbalance computes",
                        "fair.c:11503-11504 find_busiest_group (return env->imbalance ? sds.busiest : NULL), fair.c:9634/9730 "
                                + "detach_tasks",
                        "migrate_task with one task, or 0 (zero-imbalance=on, default); other migration types are a limit "
                                + "(ModelLimitException, no parameter raises it)"),
                choice("p->cpus_ptr (affinity; a migration-disabled task's cpus_ptr is its own CPU)",
                        "fair.c:9496 can_migrate_task, fair.c:9518 for_each_cpu_and(dst_grpmask, env->cpus) (new_dst_cpu), "
                                + "fair.c:11982 busiest->curr->cpus_ptr (active balance, not ported)",
                        "every mask of the mask kind per task at the start (masks=own default: every CPU or its own CPU, "
                                + "which is also what migrate_disable() leaves; local adds own + a CPU of CPU 0's group; any: "
                                + "every mask)"),
                assumption("affinity changes (sched_setaffinity, migrate_disable/enable) during one call",
                        "fair.c:9496 can_migrate_task",
                        "cpus_ptr is fixed for the call: it changes only under the task's rq lock, and every initial mask is "
                                + "explored; a change between two detach_tasks passes of the same call is not modelled"),
                choice("task_hot(p, env) / migrate_degrades_locality and sd->nr_balance_failed > sd->cache_nice_tries",
                        "fair.c:9548-9552 can_migrate_task, fair.c:9369 task_hot, fair.c:9570 detach_task (sched_task_hot)",
                        "per non-running task at the start of the call the environment chooses cache-hot or not (hot=some, "
                                + "default; hot=none: all cold); never hot at an SD_SHARE_CPUCAPACITY level (fair.c:9382)"),
                assumption("cache hotness changing during the call (exec_start ages past sysctl_sched_migration_cost)",
                        "fair.c:9369 task_hot",
                        "fixed for the call: a call lasts microseconds against the 0.5 ms migration cost"),
                assumption("task_on_cpu(src_rq, p): which task runs on busiest",
                        "fair.c:9532 can_migrate_task",
                        "the head of each pattern is rq->curr for the whole call; a context switch on busiest would need its "
                                + "lock, which detach_tasks holds, and between cuts it only reorders the same tasks"),
                assumption("throttled_lb_pair (CFS bandwidth) and kthread_is_per_cpu",
                        "fair.c:9489, fair.c:9493 can_migrate_task",
                        "no CFS bandwidth throttling and no per-CPU kthreads: both only refuse a task before the affinity "
                                + "test, like a task pinned to its own CPU (masks=own) without LBF_SOME_PINNED"),
                parameter("the idle type of the call (CPU_IDLE / CPU_NEWLY_IDLE / CPU_NOT_IDLE)",
                        "fair.c:11745 should_we_balance, fair.c:9513 can_migrate_task, fair.c:9642/9716 detach_tasks",
                        "parameter idle (newly-idle default, idle, not-idle); between domain levels the walk's own rules"),
                choice("idle_cpu / is_core_idle of the CPUs of the local group (should_we_balance)",
                        "fair.c:11754/11762 should_we_balance",
                        "computed from the runqueues of the state (the local group's CPUs run 0 tasks, or one each when "
                                + "CPU 0 balances busy, plus what they received); with topology=smt-llc each of CPUs 1..3 (CPU 0's "
                                + "SMT sibling and the other core of its LLC) starts idle or busy, a choice: an idle sibling of a "
                                + "busy CPU, an idle core; the property busy-defers-to-idle reads the same idle_cpu()"),
                assumption("env->dst_rq->ttwu_pending (a wake-up queued for the newly idle CPU)",
                        "fair.c:11746 should_we_balance",
                        "no wake-ups during the walk: the newly idle balance bails out then, which ends the walk like "
                                + "a balanced result"),
                parameter("cpu_active_mask (hotplug)", "fair.c:11817 sched_balance_rq",
                        "every CPU active with --param; generated domains draw random active masks; env->cpus is a copy "
                                + "taken at entry, so hotplug during the call changes nothing the ported code reads"),
                parameter("sched-domain topology: levels, groups, SD_SHARE_CPUCAPACITY, sd->parent, SD_OVERLAP group "
                                + "span vs group_balance_mask",
                        "fair.c:11800 sd_parent, fair.c:11809 group_balance_mask(sd->groups), fair.c:11725 should_we_balance, "
                                + "fair.c:11931 sd_parent->groups->sgc->imbalance",
                        "parameter topology: flat, smt, cluster (two levels), overlap (a NUMA-style local group whose span "
                                + "holds a CPU of the next group while its balance mask does not), smt-llc (three levels: SMT, "
                                + "an MC domain of two cores, the package; the local group at the top holds two SMT cores)"),
                parameter("sysctl_sched_nr_migrate and SCHED_NR_MIGRATE_BREAK (CONFIG_PREEMPT_RT)",
                        "fair.c:11856 sched_balance_rq (loop_max), fair.c:11811 (loop_break), fair.c:9648-9655 detach_tasks",
                        "parameters nr-migrate (every value >= the longest runqueue is one class) and nr-migrate-break (32 or 8)"),
                assumption("CONFIG_PREEMPTION", "fair.c:9716 detach_tasks",
                        "on: a newly idle balance stops after the first detached task (with imbalance 1 the loop stops "
                                + "there either way)"),
                assumption("need_active_balance / the stopper (active_load_balance_cpu_stop, LBF_ACTIVE_LB, "
                                + "busiest->active_balance)",
                        "fair.c:11972 sched_balance_rq, fair.c:11694 need_active_balance, fair.c:12113 "
                                + "active_load_balance_cpu_stop",
                        "not ported: the call ends where it would kick the stopper; LBF_ACTIVE_LB is never set on this path "
                                + "(it is set only in the stopper's own lb_env), so can_migrate_task's LBF_ACTIVE_LB tests are "
                                + "constant false"),
                assumption("balance interval, nr_balance_failed updates, nohz kicks after the call",
                        "fair.c:11957-12016 sched_balance_rq (after detach)",
                        "outside the call's correctness properties; the walk between levels follows "
                                + "sched_balance_newidle / sched_balance_domains (BalanceDomains)"));
    }
}
