package kcheck.model.dlpush;

/**
 * The variant contract of dl-push: the test {@code find_lock_later_rq()} (kernel/sched/deadline.c)
 * makes after {@code double_lock_balance(rq, later_rq)} returned 1, i.e. after it had to drop
 * {@code rq->lock} to take both runqueue locks in order. In that window the task may have run,
 * called {@code migrate_disable()}, blocked, been woken, been pulled away or had its affinity
 * changed; the test decides whether push_dl_task() may still move it to {@code later_rq}.
 *
 * <p>The rest of push_dl_task() and find_lock_later_rq() is the model's ({@link DlPushSteps}); the
 * other scheduler functions the environment runs ({@link DlRq}) ask the two hooks below, which only
 * seeded mutants change.
 */
public interface FindLockLaterRq {

    /**
     * True if the task is no longer fit to be migrated: find_lock_later_rq() then calls
     * double_unlock_balance(rq, later_rq), sets later_rq = NULL and breaks out of its loop.
     *
     * @param k       the kernel state, read through kernel-named accessors
     * @param task    the task push_dl_task() picked ({@code next_task})
     * @param rq      the runqueue being pushed from (its lock is held again)
     * @param laterRq the CPU of later_rq (its lock is held)
     */
    boolean taskUnfit(DlKernel k, int task, int rq, int laterRq);

    /** set_next_task_dl (deadline.c:2584) removes the task it starts running from the pushable tree. */
    default boolean setNextTaskDequeuesPushable() {
        return true;
    }

    /** put_prev_task_dl (deadline.c:2655) puts the task back in the pushable tree only if p->nr_cpus_allowed > 1. */
    default boolean putPrevTaskTestsNrCpusAllowed() {
        return true;
    }

    /** A pull (pull_dl_task, deadline.c:3060) deactivates the task on the source rq, which dequeues it from that rq's pushable tree. */
    default boolean pullDequeuesPushable() {
        return true;
    }
}
