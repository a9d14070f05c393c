package kcheck.model.dlpush;

/** Seeded mutants of dl-push: one deliberate change each, to show a property catches what it claims. */
public final class DlPushMutants {
    private DlPushMutants() {
    }

    /** v6.12-fixed, but find_lock_later_rq() trusts the task after the lock drop: no re-check at all. */
    public static class NoRecheck extends FindLockLaterRqV612 {
        @Override
        public boolean taskUnfit(DlKernel k, int task, int rq, int laterRq) {
            return false;
        }
    }

    /** v6.12-fixed, but set_next_task_dl() leaves the task it starts running in the pushable tree. */
    public static class RunningStaysPushable extends FindLockLaterRqV612 {
        @Override
        public boolean setNextTaskDequeuesPushable() {
            return false;
        }
    }

    /** v6.12-fixed, but put_prev_task_dl() makes a task pushable without testing p->nr_cpus_allowed > 1. */
    public static class PinnedPushable extends FindLockLaterRqV612 {
        @Override
        public boolean putPrevTaskTestsNrCpusAllowed() {
            return false;
        }
    }

    /** v6.12-fixed, but a pull from another CPU leaves the task in the source runqueue's pushable tree. */
    public static class PullKeepsPushable extends FindLockLaterRqV612 {
        @Override
        public boolean pullDequeuesPushable() {
            return false;
        }
    }
}
