package kcheck.model.dlpush;

import kcheck.model.Kernel;

/**
 * v6.12-fixed: the re-check of find_lock_later_rq() as in Debian's 6.12.118 (kernel/sched/deadline.c
 * :2887-2895), which carries both feffe5bb274d (is_migration_disabled) and 8fd5485fb4f3 (for a task
 * that is not throttled, "still at the head of the pushable tasks list" replaces the tests of its
 * runqueue, CPU, class and queued state).
 */
public class FindLockLaterRqV612 implements FindLockLaterRq {

    @Override
    @Kernel(function = "find_lock_later_rq", file = "kernel/sched/deadline.c", version = "v6.12.118 (Debian)",
            commit = "8fd5485fb4f3", line = 2840)
    public boolean taskUnfit(DlKernel k, int task, int rq, int laterRq) {
        return k.isMigrationDisabled(task)
                || !k.cpumaskTestCpu(laterRq, task)
                || (k.dlThrottled(task)
                        && (!k.taskRqIs(task, rq)
                                || k.taskOnCpu(rq, task)
                                || !k.dlTask(task)
                                || !k.taskOnRqQueued(task)))
                || (!k.dlThrottled(task)
                        && task != k.pickNextPushableDlTask(rq));
    }
}
