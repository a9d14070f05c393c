package kcheck.model.dlpush;

import static kcheck.model.dlpush.DlPushLayout.M_PUSHABLE_CPU;
import static kcheck.model.dlpush.DlPushLayout.M_PUSHABLE_CURRENT;
import static kcheck.model.dlpush.DlPushLayout.M_PUSHABLE_NR_CPUS;
import static kcheck.model.dlpush.DlPushLayout.M_PUSHABLE_QUEUED;
import static kcheck.model.dlpush.DlPushLayout.M_SET_TASK_CPU_MD;

import kcheck.model.Kernel;

/**
 * The scheduler functions dl-push runs, ported over a packed state (the array {@link #s}, which
 * the caller points at the successor it is building): the SCHED_DEADLINE enqueue/dequeue and
 * pushable-tree bookkeeping of kernel/sched/deadline.c and set_task_cpu() of kernel/sched/core.c,
 * v6.12. Runqueue locking is the caller's ({@link DlPushSteps} enables a step only when the locks
 * it needs are free). The deadline is a rank: the pushable tree's leftmost task is the one of
 * lowest rank.
 */
final class DlRq implements DlKernel {
    private final DlPushLayout l;
    private final FindLockLaterRq impl;
    /** The state read and written. */
    long[] s;

    DlRq(DlPushLayout l, FindLockLaterRq impl) {
        this.l = l;
        this.impl = impl;
    }

    @Override
    public int taskCpu(int p) {
        return l.cpu[p].getInt(s);
    }

    @Override
    public boolean cpumaskTestCpu(int cpu, int p) {
        return (l.mask[p].get(s) >>> cpu & 1) != 0;
    }

    @Override
    public int nrCpusAllowed(int p) {
        return Long.bitCount(l.mask[p].get(s));
    }

    @Override
    public boolean taskOnCpu(int rq, int p) {
        for (int c = 0; c < l.cpus; c++) {
            if (l.curr(s, c) == p) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean taskCurrent(int rq, int p) {
        return l.curr(s, rq) == p;
    }

    @Override
    public boolean isMigrationDisabled(int p) {
        return l.md[p].get(s) != 0;
    }

    @Override
    public boolean taskOnRqQueued(int p) {
        return l.onRq[p].get(s) != 0;
    }

    /** The leftmost task of rq's pushable tree (earliest deadline), or -1 if it is empty. */
    int leftmost(int rq) {
        int best = -1;
        for (int p = 0; p < l.tasks; p++) {
            if (l.pushRq[p].getInt(s) == rq + 1 && (best < 0 || l.dl[p].get(s) < l.dl[best].get(s))) {
                best = p;
            }
        }
        return best;
    }

    @Override
    @Kernel(function = "pick_next_pushable_dl_task", file = "kernel/sched/deadline.c", version = "v6.12", line = 2820)
    public int pickNextPushableDlTask(int rq) {
        int p = leftmost(rq);
        if (p < 0) {
            return -1;
        }
        warnOnOnce(rq != taskCpu(p), M_PUSHABLE_CPU);
        warnOnOnce(taskCurrent(rq, p), M_PUSHABLE_CURRENT);
        warnOnOnce(nrCpusAllowed(p) <= 1, M_PUSHABLE_NR_CPUS);
        warnOnOnce(!taskOnRqQueued(p), M_PUSHABLE_QUEUED);
        return p;
    }

    private void warnOnOnce(boolean cond, int monitor) {
        if (cond) {
            l.setMonitor(s, monitor);
        }
    }

    @Kernel(function = "enqueue_pushable_dl_task", file = "kernel/sched/deadline.c", version = "v6.12", line = 599)
    void enqueuePushableDlTask(int rq, int p) {
        if (l.pushRq[p].get(s) == 0) {
            l.pushRq[p].set(s, rq + 1);
        }
    }

    @Kernel(function = "dequeue_pushable_dl_task", file = "kernel/sched/deadline.c", version = "v6.12", line = 617)
    void dequeuePushableDlTask(int rq, int p) {
        if (l.pushRq[p].getInt(s) == rq + 1) {
            l.pushRq[p].set(s, 0);
        }
    }

    /** activate_task(rq, p): p->on_rq = TASK_ON_RQ_QUEUED and enqueue_task_dl. */
    @Kernel(function = "enqueue_task_dl", file = "kernel/sched/deadline.c", version = "v6.12", line = 2301)
    void activateTask(int rq, int p) {
        l.onRq[p].set(s, 1);
        if (!taskCurrent(rq, p) && !dlThrottled(p) && nrCpusAllowed(p) > 1) {
            enqueuePushableDlTask(rq, p);
        }
    }

    /** deactivate_task(rq, p): dequeue_task_dl and p->on_rq = 0 (or migrating). */
    @Kernel(function = "dequeue_task_dl", file = "kernel/sched/deadline.c", version = "v6.12", line = 2363)
    void deactivateTask(int rq, int p, boolean dequeuePushable) {
        if (dequeuePushable && !dlThrottled(p)) {
            dequeuePushableDlTask(rq, p);
        }
        l.onRq[p].set(s, 0);
    }

    @Kernel(function = "set_next_task_dl", file = "kernel/sched/deadline.c", version = "v6.12", line = 2574)
    void setNextTaskDl(int rq, int p) {
        if (impl.setNextTaskDequeuesPushable()) {
            dequeuePushableDlTask(rq, p);
        }
    }

    /** put_prev_task_dl: on_dl_rq(&p->dl) is task_on_rq_queued here (no throttling). */
    @Kernel(function = "put_prev_task_dl", file = "kernel/sched/deadline.c", version = "v6.12", line = 2644)
    void putPrevTaskDl(int rq, int p) {
        if (taskOnRqQueued(p) && (nrCpusAllowed(p) > 1 || !impl.putPrevTaskTestsNrCpusAllowed())) {
            enqueuePushableDlTask(rq, p);
        }
    }

    @Kernel(function = "set_task_cpu", file = "kernel/sched/core.c", version = "v6.12", line = 3263)
    void setTaskCpu(int p, int newCpu) {
        /* core.c:3302 */
        warnOnOnce(isMigrationDisabled(p), M_SET_TASK_CPU_MD);
        l.cpu[p].set(s, newCpu);
    }
}
