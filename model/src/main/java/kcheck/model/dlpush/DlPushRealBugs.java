package kcheck.model.dlpush;

import kcheck.model.Kernel;

/** The re-checks of find_lock_later_rq() before the two fixes (real-bug variants of dl-push). */
public final class DlPushRealBugs {
    private DlPushRealBugs() {
    }

    /**
     * bug-8fd5485fb4f3: v6.12 as released (and every kernel from feffe5bb274d until the fix): the task is
     * tested for its runqueue, affinity, running, class, migration-disabled and queued state, not for
     * being the pushable task that was picked.
     */
    public static class BeforeRaceFix implements FindLockLaterRq {
        @Override
        @Kernel(function = "find_lock_later_rq", file = "kernel/sched/deadline.c", version = "v6.12")
        public boolean taskUnfit(DlKernel k, int task, int rq, int laterRq) {
            return !k.taskRqIs(task, rq)
                    || !k.cpumaskTestCpu(laterRq, task)
                    || k.taskOnCpu(rq, task)
                    || !k.dlTask(task)
                    || k.isMigrationDisabled(task)
                    || !k.taskOnRqQueued(task);
        }
    }

    /**
     * bug-feffe5bb274d: v6.2 (before its 6.2.y stable backport): the same test without
     * is_migration_disabled(task), so a task that ran on its CPU in the window, called
     * migrate_disable() and was preempted passes it.
     */
    public static class BeforeMigrationDisabledFix implements FindLockLaterRq {
        @Override
        @Kernel(function = "find_lock_later_rq", file = "kernel/sched/deadline.c", version = "v6.2")
        public boolean taskUnfit(DlKernel k, int task, int rq, int laterRq) {
            return !k.taskRqIs(task, rq)
                    || !k.cpumaskTestCpu(laterRq, task)
                    || k.taskOnCpu(rq, task)
                    || !k.dlTask(task)
                    || !k.taskOnRqQueued(task);
        }
    }
}
