package kcheck.model.dlpush;

import java.util.List;

import kcheck.model.Layout;
import kcheck.model.Layout.Field;

/**
 * The packing of a dl-push state. Per task: task_cpu, on_rq (queued), the runqueue whose pushable
 * tree holds it (0 if none), migration_disabled, cpus_mask, and its deadline as a rank among the tasks (0 = earliest;
 * the ranks are a permutation, so the pushable tree's leftmost task is well defined). Per
 * runqueue: rq->curr (0: a task of another class, i + 1: task i). The pusher: its program point,
 * next_task, later_rq's CPU and find_lock_later_rq's tries. The environment's remaining events.
 * Monitors: one sticky bit per kernel check, set by the step that breaks it.
 */
final class DlPushLayout {
    /* pusher program points (push_dl_task / find_lock_later_rq) */
    static final int PICK = 0;
    static final int RETRY = 1;
    static final int FIND = 2;
    static final int WINDOW = 3;
    static final int RECHECK = 4;
    static final int EARLIEST = 5;
    static final int NOT_FOUND = 6;
    static final int MOVE = 7;
    static final int DONE = 8;

    /* monitor bits */
    static final int M_SET_TASK_CPU_MD = 0;
    static final int M_PUSHABLE_CPU = 1;
    static final int M_PUSHABLE_CURRENT = 2;
    static final int M_PUSHABLE_NR_CPUS = 3;
    static final int M_PUSHABLE_QUEUED = 4;
    static final int M_NEXT_IS_CURR = 5;
    static final int M_MOVES_QUEUED = 6;
    static final int M_MOVES_HEAD = 7;
    static final int MONITORS = 8;

    /** DL_MAX_TRIES (kernel/sched/deadline.c). */
    static final int DL_MAX_TRIES = 3;

    final int cpus;
    final int tasks;
    final int events;
    /** The runqueue push_dl_task() runs for: the highest CPU id, so that double_lock_balance may have to drop its lock under either preemption model. */
    final int rqA;
    final boolean preempt;

    final Field[] cpu;
    final Field[] onRq;
    /** 0: not in a pushable tree; c + 1: in runqueue c's pushable tree. */
    final Field[] pushRq;
    final Field[] md;
    final Field[] mask;
    final Field[] dl;
    final Field[] curr;
    final Field pc;
    final Field next;
    final Field later;
    final Field tries;
    final Field left;
    final Field monitors;
    final int width;

    DlPushLayout(int cpus, int tasks, int events, boolean preempt) {
        this.cpus = cpus;
        this.tasks = tasks;
        this.events = events;
        this.rqA = cpus - 1;
        this.preempt = preempt;
        Layout l = new Layout();
        cpu = new Field[tasks];
        onRq = new Field[tasks];
        pushRq = new Field[tasks];
        md = new Field[tasks];
        mask = new Field[tasks];
        dl = new Field[tasks];
        for (int i = 0; i < tasks; i++) {
            cpu[i] = l.fieldFor(cpus - 1);
            onRq[i] = l.field(1);
            pushRq[i] = l.fieldFor(cpus);
            md[i] = l.field(1);
            mask[i] = l.field(cpus);
            dl[i] = l.fieldFor(tasks - 1);
        }
        curr = new Field[cpus];
        for (int c = 0; c < cpus; c++) {
            curr[c] = l.fieldFor(tasks);
        }
        pc = l.fieldFor(DONE);
        next = l.fieldFor(tasks - 1);
        later = l.fieldFor(cpus - 1);
        tries = l.fieldFor(DL_MAX_TRIES);
        left = l.fieldFor(events);
        monitors = l.field(MONITORS);
        width = l.words();
    }

    static List<String> limits() {
        return List.of("cpus in 2..4, tasks in 1..3, events in 0..8 (the parameters' ranges; a state takes one or two longs).");
    }

    /** The task running on CPU c, or -1 for a task of another class. */
    int curr(long[] s, int c) {
        return curr[c].getInt(s) - 1;
    }

    void setCurr(long[] s, int c, int task) {
        curr[c].set(s, task + 1);
    }

    boolean monitor(long[] s, int bit) {
        return (monitors.get(s) >>> bit & 1) != 0;
    }

    void setMonitor(long[] s, int bit) {
        monitors.set(s, monitors.get(s) | 1L << bit);
    }

    /** Whether the pusher holds rq A's lock at its program point (it does except in the window and when done). */
    boolean pusherHoldsA(long[] s) {
        int p = pc.getInt(s);
        return p != WINDOW && p != DONE;
    }

    /** Whether the pusher holds later_rq's lock (from the double lock to the move). */
    boolean pusherHolds(long[] s, int c) {
        if (c == rqA) {
            return pusherHoldsA(s);
        }
        int p = pc.getInt(s);
        return (p == RECHECK || p == EARLIEST || p == MOVE) && later.getInt(s) == c;
    }
}
