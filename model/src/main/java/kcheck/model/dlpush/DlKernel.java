package kcheck.model.dlpush;

/**
 * Read access to a dl-push state in kernel terms, for the re-check of {@link FindLockLaterRq}:
 * tasks are 0..tasks-1 (every one a SCHEDULING_DEADLINE task), CPUs 0..cpus-1, and a runqueue is
 * named by its CPU. {@link #pickNextPushableDlTask} also evaluates that function's WARN_ON_ONCEs,
 * which the model records as property monitors.
 */
public interface DlKernel {
    /** task_cpu(p): the CPU whose runqueue p belongs to (set_task_cpu's last value). */
    int taskCpu(int p);

    /** task_rq(p) == cpu_rq(rq). */
    default boolean taskRqIs(int p, int rq) {
        return taskCpu(p) == rq;
    }

    /** cpumask_test_cpu(cpu, &p->cpus_mask). */
    boolean cpumaskTestCpu(int cpu, int p);

    /** p->nr_cpus_allowed (the weight of p->cpus_mask). */
    int nrCpusAllowed(int p);

    /** task_on_cpu(rq, p): p is running on a CPU (here: it is rq's current task). */
    boolean taskOnCpu(int rq, int p);

    /** task_current(rq, p): rq->curr == p. */
    boolean taskCurrent(int rq, int p);

    /** dl_task(p): every modelled task stays SCHED_DEADLINE (assumption: no sched_setattr in the window). */
    default boolean dlTask(int p) {
        return true;
    }

    /** p->dl.dl_throttled: never (assumption: the task does not exhaust its runtime in the window). */
    default boolean dlThrottled(int p) {
        return false;
    }

    /** is_migration_disabled(p): p->migration_disabled != 0. */
    boolean isMigrationDisabled(int p);

    /** task_on_rq_queued(p): p->on_rq == TASK_ON_RQ_QUEUED. */
    boolean taskOnRqQueued(int p);

    /**
     * pick_next_pushable_dl_task(rq) (kernel/sched/deadline.c:2820, v6.12): the leftmost task of
     * rq's pushable tree, or -1; evaluates the WARN_ON_ONCEs at :2829-2833 on it.
     */
    int pickNextPushableDlTask(int rq);
}
