package kcheck.model.dlpush;

import static kcheck.model.dlpush.DlPushLayout.DL_MAX_TRIES;
import static kcheck.model.dlpush.DlPushLayout.DONE;
import static kcheck.model.dlpush.DlPushLayout.EARLIEST;
import static kcheck.model.dlpush.DlPushLayout.FIND;
import static kcheck.model.dlpush.DlPushLayout.MOVE;
import static kcheck.model.dlpush.DlPushLayout.M_MOVES_HEAD;
import static kcheck.model.dlpush.DlPushLayout.M_MOVES_QUEUED;
import static kcheck.model.dlpush.DlPushLayout.M_NEXT_IS_CURR;
import static kcheck.model.dlpush.DlPushLayout.NOT_FOUND;
import static kcheck.model.dlpush.DlPushLayout.PICK;
import static kcheck.model.dlpush.DlPushLayout.RECHECK;
import static kcheck.model.dlpush.DlPushLayout.RETRY;
import static kcheck.model.dlpush.DlPushLayout.WINDOW;

import kcheck.model.Kernel;
import kcheck.model.StateSink;
import kcheck.model.StepSink;

/**
 * Initial states and steps of dl-push. Actor 0, the pusher, runs push_dl_task(rq A) with
 * find_lock_later_rq() inlined, one step per piece between the points where other CPUs can act;
 * actor 1, the environment, is every other CPU, each of whose steps is one whole scheduler
 * operation on one task under the runqueue lock(s) it needs (enabled only while the pusher does
 * not hold them), at most {@code events} of them.
 *
 * <p>Action codes: pusher {@code pc << 8 | choice}; environment {@code kind << 12 | task << 8 | arg}.
 */
final class DlPushSteps {
    static final int PUSHER = 0;
    static final int ENV = 1;

    /* environment kinds */
    static final int E_SCHEDULE = 0;
    static final int E_PREEMPT = 1;
    static final int E_MIGRATE_DISABLE = 2;
    static final int E_MIGRATE_ENABLE = 3;
    static final int E_BLOCK = 4;
    static final int E_WAKE = 5;
    static final int E_PULL = 6;
    static final int E_AFFINITY = 7;

    private final DlPushLayout l;
    private final FindLockLaterRq impl;
    private final DlRq k;
    private final long[] next;

    DlPushSteps(DlPushLayout l, FindLockLaterRq impl) {
        this.l = l;
        this.impl = impl;
        this.k = new DlRq(l, impl);
        this.next = new long[l.width];
    }

    // ---------------------------------------------------------------- initial states

    /**
     * Task 0 is queued on rq A and in its pushable tree (push_dl_task will find a task to push).
     * Every other task sleeps on some CPU, or is queued on one, or runs on one (one task per CPU);
     * a CPU without a running task runs a task of another class. Every task may run on every CPU
     * and migrates freely; the deadlines are every order of the tasks.
     */
    void initial(StateSink out) {
        long[] s = new long[l.width];
        int all = (1 << l.cpus) - 1;
        for (int i = 0; i < l.tasks; i++) {
            l.mask[i].set(s, all);
        }
        l.cpu[0].set(s, l.rqA);
        l.onRq[0].set(s, 1);
        l.pushRq[0].set(s, l.rqA + 1);
        l.left.set(s, l.events);
        l.pc.set(s, PICK);
        placeOthers(s, 1, out);
    }

    private void placeOthers(long[] s, int i, StateSink out) {
        if (i == l.tasks) {
            permuteDeadlines(s, 0, new boolean[l.tasks], out);
            return;
        }
        for (int c = 0; c < l.cpus; c++) {
            for (int how = 0; how < 3; how++) {
                long[] t = s.clone();
                l.cpu[i].set(t, c);
                if (how == 1) {
                    l.onRq[i].set(t, 1);
                    l.pushRq[i].set(t, c + 1);
                } else if (how == 2) {
                    if (l.curr(t, c) >= 0) {
                        continue;
                    }
                    l.onRq[i].set(t, 1);
                    l.setCurr(t, c, i);
                }
                placeOthers(t, i + 1, out);
            }
        }
    }

    private void permuteDeadlines(long[] s, int i, boolean[] used, StateSink out) {
        if (i == l.tasks) {
            out.state(s);
            return;
        }
        for (int r = 0; r < l.tasks; r++) {
            if (!used[r]) {
                used[r] = true;
                l.dl[i].set(s, r);
                permuteDeadlines(s, i + 1, used, out);
                used[r] = false;
            }
        }
    }

    boolean isFinal(long[] s) {
        return l.pc.getInt(s) == DONE;
    }

    // ---------------------------------------------------------------- successors

    void successors(long[] s, StepSink out) {
        pusher(s, out);
        if (l.pc.getInt(s) != DONE && l.left.getInt(s) > 0) {
            for (int p = 0; p < l.tasks; p++) {
                environment(s, p, out);
            }
        }
    }

    private long[] begin(long[] s) {
        System.arraycopy(s, 0, next, 0, l.width);
        k.s = next;
        return next;
    }

    private void emit(StepSink out, int actor, int action) {
        out.step(actor, action, next);
    }

    /** The pusher: push_dl_task(rq) (kernel/sched/deadline.c:2924, v6.12) with find_lock_later_rq (:2840) inlined. */
    @Kernel(function = "push_dl_task", file = "kernel/sched/deadline.c", version = "v6.12", line = 2924)
    private void pusher(long[] s, StepSink out) {
        int pc = l.pc.getInt(s);
        int rq = l.rqA;
        int nextTask = l.next.getInt(s);
        switch (pc) {
            case PICK -> {
                /* next_task = pick_next_pushable_dl_task(rq); if (!next_task) return 0; */
                long[] n = begin(s);
                int p = k.pickNextPushableDlTask(rq);
                if (p < 0) {
                    l.pc.set(n, DONE);
                } else {
                    l.next.set(n, p);
                    l.pc.set(n, RETRY);
                }
                emit(out, PUSHER, pc << 8);
            }
            case RETRY -> {
                long[] n = begin(s);
                int curr = l.curr(s, rq);
                if (curr >= 0 && l.dl[nextTask].get(s) < l.dl[curr].get(s) && k.nrCpusAllowed(curr) > 1) {
                    /* next_task preempts rq->curr, which can move away: resched_curr(rq); return 0; */
                    l.pc.set(n, DONE);
                } else if (k.isMigrationDisabled(nextTask)) {
                    l.pc.set(n, DONE);
                } else if (nextTask == curr) {
                    /* deadline.c:2950 WARN_ON(next_task == rq->curr) */
                    l.setMonitor(n, M_NEXT_IS_CURR);
                    l.pc.set(n, DONE);
                } else {
                    l.tries.set(n, 0);
                    l.pc.set(n, FIND);
                }
                emit(out, PUSHER, pc << 8);
            }
            case FIND -> {
                /* cpu = find_later_rq(task): -1, rq->cpu, or a later rq without an earlier deadline: later_rq = NULL */
                long[] n = begin(s);
                l.pc.set(n, NOT_FOUND);
                emit(out, PUSHER, pc << 8);
                for (int c = 0; c < l.cpus; c++) {
                    if (c == rq || !k.cpumaskTestCpu(c, nextTask)) {
                        continue;
                    }
                    /* double_lock_balance(rq, later_rq) returns 1: rq->lock was dropped */
                    n = begin(s);
                    l.later.set(n, c);
                    l.pc.set(n, WINDOW);
                    emit(out, PUSHER, pc << 8 | (1 + c) << 1 | 1);
                    if (!l.preempt) {
                        /* !CONFIG_PREEMPTION: raw_spin_rq_trylock(later_rq) succeeded, rq->lock kept */
                        n = begin(s);
                        l.later.set(n, c);
                        l.pc.set(n, EARLIEST);
                        emit(out, PUSHER, pc << 8 | (1 + c) << 1);
                    }
                }
            }
            case WINDOW -> {
                /* double_rq_lock(rq, later_rq) inside double_lock_balance: both locks held again */
                long[] n = begin(s);
                l.pc.set(n, RECHECK);
                emit(out, PUSHER, pc << 8);
            }
            case RECHECK -> {
                long[] n = begin(s);
                if (impl.taskUnfit(k, nextTask, rq, l.later.getInt(s))) {
                    /* double_unlock_balance(rq, later_rq); later_rq = NULL; break; */
                    l.pc.set(n, NOT_FOUND);
                } else {
                    l.pc.set(n, EARLIEST);
                }
                emit(out, PUSHER, pc << 8);
            }
            case EARLIEST -> {
                /* dl_task_is_earliest_deadline(task, later_rq): break with later_rq */
                long[] n = begin(s);
                l.pc.set(n, MOVE);
                emit(out, PUSHER, pc << 8);
                /* otherwise double_unlock_balance(rq, later_rq); later_rq = NULL; and try again */
                n = begin(s);
                int tries = l.tries.getInt(s) + 1;
                l.tries.set(n, tries);
                l.pc.set(n, tries < DL_MAX_TRIES ? FIND : NOT_FOUND);
                emit(out, PUSHER, pc << 8 | 1);
            }
            case NOT_FOUND -> {
                /* task = pick_next_pushable_dl_task(rq); same task or none: out; else next_task = task; goto retry */
                long[] n = begin(s);
                int task = k.pickNextPushableDlTask(rq);
                if (task == nextTask || task < 0) {
                    l.pc.set(n, DONE);
                } else {
                    l.next.set(n, task);
                    l.pc.set(n, RETRY);
                }
                emit(out, PUSHER, pc << 8);
            }
            case MOVE -> {
                long[] n = begin(s);
                int later = l.later.getInt(s);
                if (!(k.taskRqIs(nextTask, rq) && k.taskOnRqQueued(nextTask) && !k.taskOnCpu(rq, nextTask))) {
                    l.setMonitor(n, M_MOVES_QUEUED);
                }
                if (k.leftmost(rq) != nextTask) {
                    l.setMonitor(n, M_MOVES_HEAD);
                }
                k.deactivateTask(rq, nextTask, true);
                k.setTaskCpu(nextTask, later);
                k.activateTask(later, nextTask);
                l.pc.set(n, DONE);
                emit(out, PUSHER, pc << 8);
            }
            default -> {
            }
        }
    }

    /** Whether the pusher holds none of the runqueue locks of CPUs {@code a} and {@code b}. */
    private boolean free(long[] s, int a, int b) {
        return !l.pusherHolds(s, a) && !l.pusherHolds(s, b);
    }

    private void environment(long[] s, int p, StepSink out) {
        int c = l.cpu[p].getInt(s);
        boolean queued = l.onRq[p].get(s) != 0;
        boolean running = l.curr(s, c) == p;
        boolean md = l.md[p].get(s) != 0;
        if (queued && !running && free(s, c, c)) {
            /* __schedule on CPU c picks p: put_prev_task(prev), set_next_task_dl(p) */
            long[] n = envBegin(s);
            int prev = l.curr(s, c);
            l.setCurr(n, c, p);
            if (prev >= 0) {
                k.putPrevTaskDl(c, prev);
            }
            k.setNextTaskDl(c, p);
            emit(out, ENV, E_SCHEDULE << 12 | p << 8);
        }
        if (running && free(s, c, c)) {
            /* __schedule on CPU c switches to a task of another class: put_prev_task_dl(p) */
            long[] n = envBegin(s);
            l.setCurr(n, c, -1);
            k.putPrevTaskDl(c, p);
            emit(out, ENV, E_PREEMPT << 12 | p << 8);

            /* p blocks: __schedule dequeues it (DEQUEUE_SLEEP) and switches away */
            n = envBegin(s);
            k.deactivateTask(c, p, true);
            l.setCurr(n, c, -1);
            emit(out, ENV, E_BLOCK << 12 | p << 8);
        }
        if (running && !md) {
            /* migrate_disable() by p itself (no runqueue lock) */
            long[] n = envBegin(s);
            l.md[p].set(n, 1);
            emit(out, ENV, E_MIGRATE_DISABLE << 12 | p << 8);
        }
        if (running && md) {
            long[] n = envBegin(s);
            l.md[p].set(n, 0);
            emit(out, ENV, E_MIGRATE_ENABLE << 12 | p << 8);
        }
        if (!queued) {
            /* try_to_wake_up: select_task_rq (task_cpu if migration is disabled), set_task_cpu, activate_task; a new deadline */
            for (int d = 0; d < l.cpus; d++) {
                if ((md ? d != c : !k.cpumaskTestCpu(d, p)) || !free(s, d, d)) {
                    continue;
                }
                for (int r = 0; r < l.tasks; r++) {
                    long[] n = envBegin(s);
                    rank(n, p, r);
                    if (d != c) {
                        k.setTaskCpu(p, d);
                    }
                    k.activateTask(d, p);
                    emit(out, ENV, E_WAKE << 12 | p << 8 | d << 4 | r);
                }
            }
        }
        if (queued && !running && !md && l.pushRq[p].getInt(s) == c + 1) {
            /* pull_dl_task on CPU d (or push_dl_task of rq c on another CPU) moves p: deactivate, set_task_cpu, activate */
            for (int d = 0; d < l.cpus; d++) {
                if (d == c || !k.cpumaskTestCpu(d, p) || !free(s, c, d)) {
                    continue;
                }
                long[] n = envBegin(s);
                k.deactivateTask(c, p, impl.pullDequeuesPushable());
                k.setTaskCpu(p, d);
                k.activateTask(d, p);
                emit(out, ENV, E_PULL << 12 | p << 8 | d);
            }
        }
        if (free(s, c, c)) {
            /* set_cpus_allowed_ptr(p, mask) with c in mask: __do_set_cpus_allowed dequeues and enqueues a queued p (DEQUEUE_SAVE) */
            long cur = l.mask[p].get(s);
            for (int m = 1; m < 1 << l.cpus; m++) {
                if ((m >>> c & 1) == 0 || m == cur) {
                    continue;
                }
                long[] n = envBegin(s);
                if (queued) {
                    k.deactivateTask(c, p, true);
                    l.mask[p].set(n, m);
                    k.activateTask(c, p);
                } else {
                    l.mask[p].set(n, m);
                }
                emit(out, ENV, E_AFFINITY << 12 | p << 8 | m);
            }
        }
    }

    private long[] envBegin(long[] s) {
        long[] n = begin(s);
        l.left.set(n, l.left.get(s) - 1);
        return n;
    }

    /** Gives task p deadline rank r, shifting the others so the ranks stay a permutation. */
    private void rank(long[] n, int p, int r) {
        long old = l.dl[p].get(n);
        for (int q = 0; q < l.tasks; q++) {
            if (q == p) {
                continue;
            }
            long d = l.dl[q].get(n);
            if (d > old) {
                d--;
            }
            if (d >= r) {
                d++;
            }
            l.dl[q].set(n, d);
        }
        l.dl[p].set(n, r);
    }
}
