package kcheck.model.dlpush;

import java.util.List;
import java.util.Set;

import kcheck.model.Catalog;
import kcheck.model.EnvironmentInput;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.ParamSpec;
import kcheck.model.Params;
import kcheck.model.Property.Kind;
import kcheck.model.PropertyInfo;
import kcheck.model.VariantContract;
import kcheck.model.VariantInfo;

/**
 * {@code dl-push}: push_dl_task() and find_lock_later_rq() (kernel/sched/deadline.c, v6.12) against
 * the scheduler operations other CPUs run while double_lock_balance() has dropped the pushing
 * runqueue's lock, with the real bugs fixed by feffe5bb274d and 8fd5485fb4f3. See
 * docs/models/dl-push.md.
 */
public final class DlPushFactory implements ModelFactory {
    public static final String NAME = "dl-push";
    public static final String FIXED = "v6.12-fixed";

    private static final Catalog<FindLockLaterRq> CATALOG = new Catalog<FindLockLaterRq>(NAME)
            .property(DlPushProperties.SET_TASK_CPU_MD, Kind.INVARIANT, DlPushProperties.D_SET_TASK_CPU_MD)
            .property(DlPushProperties.PUSHABLE_CPU, Kind.INVARIANT, DlPushProperties.D_PUSHABLE_CPU)
            .property(DlPushProperties.PUSHABLE_CURRENT, Kind.INVARIANT, DlPushProperties.D_PUSHABLE_CURRENT)
            .property(DlPushProperties.PUSHABLE_NR_CPUS, Kind.INVARIANT, DlPushProperties.D_PUSHABLE_NR_CPUS)
            .property(DlPushProperties.PUSHABLE_QUEUED, Kind.INVARIANT, DlPushProperties.D_PUSHABLE_QUEUED)
            .property(DlPushProperties.NEXT_IS_CURR, Kind.INVARIANT, DlPushProperties.D_NEXT_IS_CURR)
            .property(DlPushProperties.MOVES_QUEUED, Kind.INVARIANT, DlPushProperties.D_MOVES_QUEUED)
            .property(DlPushProperties.MOVES_HEAD, Kind.INVARIANT, DlPushProperties.D_MOVES_HEAD)
            .property(DlPushProperties.ONE_RQ, Kind.INVARIANT, DlPushProperties.D_ONE_RQ)
            .property(DlPushProperties.PUSHABLE_AGREES, Kind.INVARIANT, DlPushProperties.D_PUSHABLE_AGREES)
            .variant(VariantInfo.of(FIXED, "Debian 6.12.118: find_lock_later_rq's re-check with both fixes (is_migration_disabled, "
                    + "and for a task that is not throttled: still pick_next_pushable_dl_task(rq))"), FindLockLaterRqV612::new)
            .variant(VariantInfo.realBug("8fd5485fb4f3", "sched/deadline: Fix race in push_dl_task()", "mainline after v6.17 (first release not confirmed); 6.17.y and 6.12.y stable",
                    "v6.12 as released: the re-check tests task_rq, affinity, task_on_cpu, dl_task, is_migration_disabled and "
                            + "task_on_rq_queued, not that the task is still the leftmost pushable task"),
                    DlPushRealBugs.BeforeRaceFix::new)
            .variant(VariantInfo.realBug("feffe5bb274d", "sched/rt: Fix bad task migration for rt tasks", "v6.3 or v6.4 (first release not confirmed); 6.2.y stable",
                    "v6.2 (before its 6.2.y backport): the v6.12 re-check also without is_migration_disabled(task)"),
                    DlPushRealBugs.BeforeMigrationDisabledFix::new)
            .variant(VariantInfo.mutant("mutant-no-recheck", "v6.12-fixed, but find_lock_later_rq does not re-check the task after "
                    + "double_lock_balance dropped the lock"), DlPushMutants.NoRecheck::new)
            .variant(VariantInfo.mutant("mutant-running-stays-pushable", "v6.12-fixed, but set_next_task_dl does not dequeue the "
                    + "task it starts running from the pushable tree"), DlPushMutants.RunningStaysPushable::new)
            .variant(VariantInfo.mutant("mutant-pinned-pushable", "v6.12-fixed, but put_prev_task_dl makes the task pushable without "
                    + "testing nr_cpus_allowed > 1"), DlPushMutants.PinnedPushable::new)
            .variant(VariantInfo.mutant("mutant-pull-keeps-pushable", "v6.12-fixed, but a pull leaves the task in the source "
                    + "runqueue's pushable tree"), DlPushMutants.PullKeepsPushable::new);

    static String describe(String id) {
        return CATALOG.describe(id);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String title() {
        return "push_dl_task / find_lock_later_rq against the window double_lock_balance opens (kernel/sched/deadline.c, v6.2 -> "
                + "v6.12 -> Debian 6.12.118; feffe5bb274d, 8fd5485fb4f3)";
    }

    @Override
    public List<VariantInfo> variants() {
        return CATALOG.variants();
    }

    @Override
    public List<ParamSpec> params() {
        return List.of(
                ParamSpec.integer("cpus", 3, 2, 4, "CPUs; the pusher pushes from the highest one (rq A)"),
                ParamSpec.integer("tasks", 2, 1, 3, "SCHED_DEADLINE tasks; task 0 starts queued and pushable on rq A"),
                ParamSpec.integer("events", 3, 0, 8, "scheduler operations the other CPUs perform (the environment's bound)"),
                ParamSpec.choice("preempt", "y: CONFIG_PREEMPTION, double_lock_balance always drops rq A's lock; n: it drops it "
                        + "only when the trylock of later_rq fails (later_rq orders before rq A)", "y", "n"));
    }

    @Override
    public List<String> limits() {
        return DlPushLayout.limits();
    }

    @Override
    public List<String> legend() {
        return DlPushDecoder.legend();
    }

    @Override
    public String fixOf(String variant) {
        return FIXED;
    }

    @Override
    public List<PropertyInfo> properties() {
        return CATALOG.properties();
    }

    @Override
    public Model create(String variant, Params params, Set<String> properties) {
        variant(variant);
        return create(variant, CATALOG.implementation(variant), params, properties);
    }

    /** Builds the model for any implementation of the variant contract. */
    public Model create(String variantName, FindLockLaterRq impl, Params params, Set<String> properties) {
        checkSelection(properties);
        return new DlPushModel(variantName, params, impl, Set.copyOf(properties));
    }

    /** The environment contract (docs/models/dl-push.md has the reasons). */
    @Override
    public List<EnvironmentInput> environment() {
        String d = "kernel/sched/deadline.c";
        String c = "kernel/sched/core.c";
        return List.of(
                EnvironmentInput.choice("find_later_rq(task) and dl_task_is_earliest_deadline(task, later_rq) before the lock",
                        d + ":2847 and :2854 find_lock_later_rq",
                        "any CPU other than rq A in the task's cpus_mask, or none (-1, rq->cpu, or a later rq with an earlier deadline)"),
                EnvironmentInput.choice("double_lock_balance(rq, later_rq): whether rq->lock is dropped",
                        d + ":2865 find_lock_later_rq; kernel/sched/sched.h:2997/:3016 _double_lock_balance",
                        "preempt=y: always dropped (CONFIG_PREEMPTION); preempt=n: trylock of later_rq succeeds (kept) or fails (dropped, "
                                + "later_rq orders before rq A)"),
                EnvironmentInput.choice("dl_task_is_earliest_deadline(task, later_rq) after locking", d + ":2908 find_lock_later_rq",
                        "true (push) or false (unlock and try again, at most DL_MAX_TRIES = 3 times); later_rq's own tasks are not modelled"),
                EnvironmentInput.choice("the task runs on its CPU in the window (another CPU's __schedule picks it; prev is put back)",
                        d + ":2574 set_next_task_dl, :2644 put_prev_task_dl",
                        "any queued task that is not running, on any CPU whose lock the pusher does not hold (rq A's CPU too: the pusher may be "
                                + "a remote CPU, task_woken_dl :3102); the pick ignores EDF order (an over-approximation)"),
                EnvironmentInput.choice("migrate_disable() / migrate_enable() by the running task", c + ":2334 migrate_disable, :2355 migrate_enable",
                        "the running task toggles migration_disabled (nesting depth 1), without a runqueue lock"),
                EnvironmentInput.choice("the running task is preempted or blocks", c + " __schedule, " + d + ":2363 dequeue_task_dl",
                        "a task of another class takes the CPU (put_prev_task_dl), or the task sleeps (dequeued); also with migration disabled"),
                EnvironmentInput.choice("the task is woken", c + " try_to_wake_up, " + d + ":2420 select_task_rq_dl, :2301 enqueue_task_dl",
                        "onto any CPU of its cpus_mask (its own CPU if migration is disabled) whose lock is free, with a new deadline at any "
                                + "rank among the tasks"),
                EnvironmentInput.choice("another CPU pulls or pushes the task away", d + ":3006 pull_dl_task, :2924 push_dl_task on another rq",
                        "a queued, pushable, not running, not migration-disabled task moves to any other CPU of its mask, atomically under both locks"),
                EnvironmentInput.choice("set_cpus_allowed_ptr(task, mask)", c + " __set_cpus_allowed_ptr, " + d + ":3114 set_cpus_allowed_dl",
                        "any new mask that contains the task's CPU; a queued task is dequeued and enqueued again (DEQUEUE_SAVE)"),
                EnvironmentInput.assumption("a mask without the task's CPU (forced migration by the stopper)", c + " affine_move_task",
                        "not offered: for a queued task it is one atomic move like the pull above; a running or migration-disabled task running outside its mask until the stopper or migrate_enable is not modelled"),
                EnvironmentInput.assumption("the task exhausts its runtime (dl_throttled) or leaves SCHED_DEADLINE in the window",
                        d + ":2887-2895 find_lock_later_rq (dl_throttled, dl_task)",
                        "not modelled: every task keeps its runtime and class; the throttled branch belongs to dl_task_offline_migration"),
                EnvironmentInput.assumption("other runqueues' own balancing races (their double_lock_balance windows)",
                        d + ":3006 pull_dl_task, :2924 push_dl_task",
                        "each pull or push of another CPU is one atomic step; only rq A's window is opened"),
                EnvironmentInput.assumption("pull_dl_task finding a migration-disabled task: the stopper pushes src_rq's current task away "
                        + "(push_cpu_stop)", d + ":3070 and :3087 pull_dl_task",
                        "not modelled: a running task is moved only by its own blocking or preemption here"),
                EnvironmentInput.assumption("how often push_dl_tasks calls push_dl_task", d + ":2999 push_dl_tasks",
                        "one call: the first push that moves a task ends the run"));
    }

    @Override
    public VariantContract<?> variantContract() {
        return null;
    }
}
