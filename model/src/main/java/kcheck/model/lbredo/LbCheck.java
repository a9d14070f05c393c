package kcheck.model.lbredo;

/**
 * The kernel's own checks inside the ported functions, and the generic sanity rules, each a
 * property of lb-redo, on by default. A reference step that trips one ends there: the state the
 * kernel would flag is a VIOLATED verdict on the check's property, with the trace to it (never a
 * limit of the model). The {@code warn-*} ones name the kernel's assertion with its v6.12 line.
 */
public enum LbCheck {
    WARN_BUSIEST_IS_DST("warn-busiest-is-dst", "kernel/sched/fair.c:11839 (sched_balance_rq, v6.12) "
            + "WARN_ON_ONCE(busiest == env.dst_rq) (v5.x load_balance: BUG_ON): the busiest queue is never the "
            + "balancing CPU's own"),
    WARN_ATTACH_TASK_RQ("warn-attach-task-rq", "kernel/sched/fair.c:9758 (attach_task, v6.12) WARN_ON_ONCE(task_rq(p) "
            + "!= rq) (v5.x: BUG_ON): a detached task is attached to the runqueue set_task_cpu gave it"),
    WARN_RQ_HELD("warn-rq-held", "kernel/sched/fair.c:9478/9567/9589/9623/9756 (can_migrate_task, detach_task, "
            + "detach_one_task, detach_tasks, attach_task, v6.12) lockdep_assert_rq_held(rq): the runqueue a task "
            + "leaves or joins is locked"),
    WARN_RQ_LOCK_RECURSION("warn-rq-lock-recursion", "kernel/sched/fair.c:11859 (sched_balance_rq, v6.12) "
            + "rq_lock_irqsave(busiest) -> raw_spin_rq_lock: lockdep's recursive-locking report (and a deadlock "
            + "without lockdep) when the lock is already held"),
    TASK_GONE("no-task-after-left", "sanity: no task is examined, moved or detached from a runqueue it is no longer "
            + "on (list_move / list_del of a task another CPU already took)"),
    NO_SELF_MIGRATION("no-self-migration", "sanity: detach_task never migrates a task to the CPU it is on "
            + "(env->dst_cpu == env->src_cpu; kernel/core.c:3302 set_task_cpu WARN_ON_ONCE(is_migration_disabled(p)) "
            + "fires for a migration-disabled one)"),
    DST_IN_BALANCE_MASK("dst-in-balance-mask", "sanity: env->dst_cpu, and env->new_dst_cpu while "
            + "LBF_DST_PINNED is set, stay CPUs of the local group's group_balance_mask (the CPUs that balance for the "
            + "group, should_we_balance), at every cut"),
    DST_IN_CPUS("dst-in-cpus", "sanity: env->dst_cpu is in env->cpus at every cut (should_we_balance, "
            + "kernel/sched/fair.c:11735, treats dst_cpu outside env->cpus as an inconsistent environment; a CPU "
            + "dropped from env->cpus is never selected again)"),
    SD_PARENT_NULL("no-null-sd-parent", "sanity: sd_parent (sd->parent) is dereferenced only when it is not NULL "
            + "(sd_parent->groups->sgc->imbalance at the top domain is a NULL pointer dereference)"),
    CPUS_EXIST("cpus-exist", "sanity: env->cpus holds only CPUs of the domain span that exist (cpumask within "
            + "nr_cpu_ids)"),
    BUSY_DEFERS("busy-defers-to-idle", "should_we_balance's election (kernel/sched/fair.c:11750-11786, v6.12; "
            + "v5.x: 'find first idle CPU'): in a periodic balance (CPU_IDLE / CPU_NOT_IDLE) a busy dst_cpu goes past "
            + "should_we_balance only when no CPU of the local group's group_balance_mask in env->cpus is idle: an idle "
            + "CPU balances for the group, and only one CPU of a group balances a domain per tick");

    final String id;
    final String description;

    LbCheck(String id, String description) {
        this.id = id;
        this.description = description;
    }

    /** The code a step carries in its action when it tripped this check (1..15). */
    int code() {
        return ordinal() + 1;
    }

    static LbCheck ofCode(int code) {
        return code == 0 ? null : values()[code - 1];
    }

    /** A reference step tripped {@code check}: the step ends here. */
    static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final LbCheck check;

        Failed(LbCheck check, String detail) {
            super(check.id + ": " + detail, null, false, false);
            this.check = check;
        }
    }
}
