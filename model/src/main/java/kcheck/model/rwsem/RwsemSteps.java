package kcheck.model.rwsem;

import static kcheck.model.rwsem.TaskProgram.ENQUEUED;
import static kcheck.model.rwsem.TaskProgram.HOLDS;
import static kcheck.model.rwsem.TaskProgram.IN_SLOW_PATH;
import static kcheck.model.rwsem.TaskProgram.PREEMPT_OFF;
import static kcheck.model.rwsem.TaskProgram.RESCHED_LIVE;

import kcheck.model.ModelLimitException;
import kcheck.model.StepSink;

/**
 * Step enumeration of the rwsem-owner model: each task's next operation of its recorded program
 * (guarded ones only when they can complete) and the environment steps, and what each operation
 * does to the state. One instance per thread ({@link #nx} is scratch).
 *
 * <p>Environment steps: a task that holds the lock where preemption is enabled can be preempted
 * (writers by default, readers too with {@code preempt=all}) and later runs again; need_resched
 * can be raised for a task wherever its code may still read it (from its slow path up to the end
 * of spinning) and is reset where it is dead and when the task sleeps; with no-writer-starvation
 * selected, a queued waiter's {@code RWSEM_WAIT_TIMEOUT} can pass. Otherwise time shows only where
 * the code reads the clock (a read may find its deadline passed or not; once passed, a waiter's
 * timeout stays passed): the model has no clock.
 */
final class RwsemSteps {
    static final int PREEMPT = 0;
    static final int RUN_AGAIN = 1;
    static final int SET_NEED_RESCHED = 2;
    static final int TIMEOUT = 3;
    static final int SIGNAL = 4;
    /** wakeups=spurious: schedule() of a sleeping task returns with nothing granted. */
    static final int SPURIOUS = 5;
    /** wakeups=spurious: another subsystem's waker puts the task on its wake queue (wake_q_add). */
    static final int FOREIGN_ADD = 6;
    /** wakeups=spurious: that waker's wake_up_q() wakes the task. */
    static final int FOREIGN_WAKE = 7;

    private final RwsemLayout l;
    private final RwsemMonitors monitors;
    private final String variant;
    private final RwsemDecoder decoder;
    private final long[] nx;

    RwsemSteps(RwsemLayout l, RwsemMonitors monitors, RwsemDecoder decoder, String variant) {
        this.l = l;
        this.monitors = monitors;
        this.decoder = decoder;
        this.variant = variant;
        this.nx = new long[l.width];
    }

    void successors(long[] s, StepSink out) {
        if (l.faulted(s) >= 0) {
            return;                                                 /* the kernel warned or crashed: the run ends */
        }
        for (int t = 0; t < l.n; t++) {
            int p = l.pc[t].getInt(s);
            TaskProgram tp = l.prog[t];
            Op op = tp.op[p];
            if (op == Op.END) {
                continue;
            }
            if (l.preempted[t].getInt(s) == 1) {
                env(s, t, RUN_AGAIN, out);
                continue;
            }
            switch (op) {
                case OSQ_LOCK -> {
                    /* a free osq is taken at once (xchg of the tail); a waiter gives up on need_resched */
                    if (l.osqHolder(s) < 0) {
                        step(s, t, p, 1, out);
                    } else if (l.resched[t].getInt(s) == 1) {
                        step(s, t, p, 0, out);
                    }
                }
                case SPIN_LOCK -> {
                    if (l.waitLockHolder(s) < 0) {
                        step(s, t, p, 0, out);
                    }
                }
                case SCHEDULE -> {
                    /* a wake-up, or a fatal signal (signal_wake_up() wakes a TASK_KILLABLE sleeper) */
                    if (l.canWake(s, t)) {
                        step(s, t, p, 0, out);
                    }
                }
                case TIMED_OUT, FIRST_TIMED_OUT -> {
                    /* the clock: a deadline found passed stays passed; before, either answer (lazy), or the flag (eager) */
                    int who = op == Op.TIMED_OUT ? t : l.firstWaiter(s);
                    if (who < 0) {
                        throw new ModelLimitException("rwsem-owner: " + decoder.actor(t) + " at " + tp.describe(p, l.dom)
                                + " reads rwsem_first_waiter() of an empty wait list (variant '" + variant + "')");
                    }
                    int flag = l.timedOut[who].getInt(s);
                    if (flag == 1 || l.eagerTimeouts) {
                        step(s, t, p, flag, out);
                    } else {
                        step(s, t, p, 0, out);
                        step(s, t, p, 1, out);
                    }
                }
                case WAKEQ_ADD, CLEAR_TASK, WAKE_UP_Q -> {
                    /* a choice of task where the model keeps no order: the next reader on wlist, the next task on the wake queue */
                    boolean choice = op == Op.WAKE_UP_Q || tp.arg0[p] == RwSem.WAITER_WLIST;
                    boolean any = false;
                    for (int u = 0; choice && u < l.n; u++) {
                        if (op == Op.WAKE_UP_Q ? l.wq[u].getInt(s) == t + 1 : l.qpos[u].getInt(s) == l.moved) {
                            step(s, t, p, u, out);
                            any = true;
                        }
                    }
                    if (!any) {
                        step(s, t, p, -1, out);
                    }
                }
                case RSPIN_PASSED -> {
                    /* the spinner stops at the first read that finds the deadline passed: no state needed */
                    step(s, t, p, 0, out);
                    step(s, t, p, 1, out);
                }
                default -> step(s, t, p, -1, out);
            }
            if (l.preemptible(t) && l.heldBy(s, t) && !tp.has(p, PREEMPT_OFF) && op != Op.SCHEDULE) {
                env(s, t, PREEMPT, out);
            }
            if (tp.has(p, RESCHED_LIVE) && l.resched[t].getInt(s) == 0 && l.resched[t].max() > 0) {
                env(s, t, SET_NEED_RESCHED, out);
            }
            if (l.signaled[t].max() > 0 && l.signaled[t].getInt(s) == 0 && l.queued(s, t)) {
                env(s, t, SIGNAL, out);                             /* a fatal signal arrives while the task waits */
            }
            if (l.wakeups == Wakeups.SPURIOUS) {
                if (op == Op.SCHEDULE && l.woken[t].getInt(s) == 0) {
                    env(s, t, SPURIOUS, out);
                }
                int q = l.wq[t].getInt(s);
                if (q == 0 && !tp.has(p, ENQUEUED)) {
                    env(s, t, FOREIGN_ADD, out);                   /* a task outside a wait loop may be another waker's */
                } else if (q == l.foreignQueue) {
                    env(s, t, FOREIGN_WAKE, out);
                }
            }
            if (l.eagerTimeouts && l.timedOut[t].max() > 0 && l.timedOut[t].getInt(s) == 0 && l.queued(s, t)) {
                env(s, t, TIMEOUT, out);
            }
        }
    }

    private void env(long[] s, int t, int kind, StepSink out) {
        System.arraycopy(s, 0, nx, 0, l.width);
        switch (kind) {
            case PREEMPT -> l.preempted[t].set(nx, 1);
            case RUN_AGAIN -> l.preempted[t].set(nx, 0);
            case SET_NEED_RESCHED -> l.resched[t].set(nx, 1);
            case SIGNAL -> l.signaled[t].set(nx, 1);
            case SPURIOUS -> l.woken[t].set(nx, 1);
            case FOREIGN_ADD -> l.wq[t].set(nx, l.foreignQueue);
            case FOREIGN_WAKE -> {
                l.wq[t].set(nx, 0);
                wakeUpProcess(nx, t);
            }
            default -> l.timedOut[t].set(nx, 1);
        }
        out.step(t, l.envBase + kind, nx);
    }

    /** Task {@code t} performs the operation at node {@code p} (outcome {@code forced} for guarded ones). */
    private void step(long[] s, int t, int p, int forced, StepSink out) {
        TaskProgram tp = l.prog[t];
        System.arraycopy(s, 0, nx, 0, l.width);
        int o = visible(t, tp, p, forced);
        int node = tp.next(p, o);
        while (node >= 0 && (!tp.op[node].visible || tp.has(node, TaskProgram.STUTTER))) {
            int lo = tp.has(node, TaskProgram.STUTTER) ? visible(t, tp, node, -1) : local(t, tp, node);
            int nn = tp.next(node, lo);
            if (nn < 0) {
                throw unrecorded(t, node, lo);
            }
            node = nn;
        }
        if (node < 0) {
            throw unrecorded(t, p, o);
        }
        l.pc[t].set(nx, node);
        if (!tp.has(node, RESCHED_LIVE) || tp.op[p] == Op.SCHEDULE) {
            l.resched[t].set(nx, 0);
        }
        if (!tp.has(node, ENQUEUED)) {
            l.woken[t].set(nx, 0);
        }
        if (!tp.has(node, IN_SLOW_PATH)) {
            /* the waiter's fields are dead once the slow path returns */
            l.timedOut[t].set(nx, 0);
            l.handoffSet[t].set(nx, 0);
            l.rdNonspinnable[t].set(nx, 0);
            l.signaled[t].set(nx, 0);                               /* the down_*_killable() call returned: handled */
        }
        monitors.taskStep(s, nx, t, p, o, node);
        out.step(t, p * l.slots + o, nx);
    }

    private ModelLimitException unrecorded(int t, int node, int outcome) {
        return new ModelLimitException(RwsemOwnerFactory.NAME + " variant '" + variant + "': " + decoder.actor(t) + " at "
                + l.prog[t].describe(node, l.dom) + ": outcome " + l.prog[t].outcomeText(node, outcome, l.dom)
                + " leads where the model cannot follow: an outcome the recorded code was not expected to meet, an owner"
                + " value the model does not hold (" + l.dom.ownerLimit() + "), or owner->on_cpu of a pointer that is no writer");
    }

    /** Performs visible operation {@code p} of task {@code t} on {@link #nx}; returns its outcome. */
    private int visible(int t, TaskProgram tp, int p, int forced) {
        switch (tp.op[p]) {
            case COUNT_READ:
                return countIndex(l.count(nx), t, p);
            case COUNT_ADD_RETURN:
            case COUNT_FETCH_ADD:
            case COUNT_ADD: {
                long old = l.count(nx);
                setCountOrFault(old + tp.arg0[p]);
                return countIndex(old, t, p);
            }
            case COUNT_CMPXCHG: {
                long old = l.count(nx);
                if (old == tp.arg0[p]) {
                    setCountOrFault(tp.arg1[p]);
                }
                return countIndex(old, t, p);
            }
            case COUNT_OR:
                setCount(l.count(nx) | tp.arg0[p], t, p);
                return 0;
            case COUNT_ANDNOT:
                setCount(l.count(nx) & ~tp.arg0[p], t, p);
                return 0;
            case OWNER_READ:
                return l.owner.getInt(nx);
            case OWNER_WRITE:
                setOwner(tp.arg0[p], t, p);
                return 0;
            case OWNER_CMPXCHG: {
                int old = l.owner.getInt(nx);
                if (l.dom.ownerValue(old) == tp.arg0[p]) {
                    setOwner(tp.arg1[p], t, p);
                }
                return old;
            }
            case OWNER_OR:
                setOwner(l.ownerValue(nx) | tp.arg0[p], t, p);
                return 0;
            case OWNER_ANDNOT:
                setOwner(l.ownerValue(nx) & ~tp.arg0[p], t, p);
                return 0;
            case ON_CPU:
                return l.onCpu(nx, l.dom.ownerTask(tp.arg0[p])) ? 1 : 0;
            case OSQ_LOCK:
                return forced;
            case OSQ_IS_LOCKED:
                return l.osqLocked(nx) ? 1 : 0;
            case SPIN_TRYLOCK:
                return l.waitLockHolder(nx) < 0 ? 1 : 0;
            case SCHEDULE:
                l.woken[t].set(nx, 0);
                return 0;
            case WAKE_FRONT_WRITER: {
                int f = l.firstWaiter(nx);
                if (f < 0 || !l.isWriter(f)) {
                    throw new ModelLimitException("rwsem-owner wakes only a writer at the front of the wait list with"
                            + " wake_up_process()/wake_q_add(): variant '" + variant + "' woke "
                            + (f < 0 ? "the front of an empty list" : "a reader"));
                }
                if (l.wakeups.wakeQ()) {
                    wakeUpProcess(nx, f);                           /* a running writer's wake-up is lost (TASK_RUNNING) */
                } else {
                    l.woken[f].set(nx, 1);
                }
                return 0;
            }
            case GRANT_READERS: {
                int k = (int) tp.arg0[p];
                for (int u = 0; u < l.n; u++) {
                    int q = l.qpos[u].getInt(nx);
                    if (q >= 1 && q <= k) {
                        if (l.isWriter(u)) {
                            throw new ModelLimitException("rwsem-owner grants the read lock only to readers: variant '" + variant
                                    + "' granted it to a writer among the first " + k + " waiters");
                        }
                        l.qpos[u].set(nx, 0);
                        wakeUpProcess(nx, u);                       /* waiter->task = NULL; wake_up_process(tsk) */
                    } else if (q > k && q <= l.n) {
                        l.qpos[u].set(nx, q - k);
                    }
                }
                return 0;
            }
            case WAKEQ_ADD: {
                int which = (int) tp.arg0[p];
                int u = which == RwSem.WAITER_WLIST ? chosen(t, p, forced) : waiter(t, p, which);
                if (which == RwSem.WAITER_FRONT) {
                    unlink(u);
                    l.qpos[u].set(nx, l.added);
                } else if (which == RwSem.WAITER_WLIST) {
                    l.qpos[u].set(nx, l.added);
                } else if (which == RwSem.WAITER_CURRENT) {
                    l.qpos[u].set(nx, 0);
                }
                if (l.wq[u].getInt(nx) == 0) {
                    l.wq[u].set(nx, t + 1);                         /* cmpxchg(&task->wake_q.next, NULL, TAIL) succeeded */
                }
                return which == RwSem.WAITER_WLIST ? u : 0;
            }
            case CLEAR_TASK: {
                int which = (int) tp.arg0[p];
                int u = which == RwSem.WAITER_WLIST ? chosen(t, p, forced) : waiter(t, p, which);
                if (which == RwSem.WAITER_FRONT) {
                    unlink(u);
                }
                boolean atomic = tp.arg1[p] == 1;
                l.qpos[u].set(nx, atomic || which == RwSem.WAITER_CURRENT ? 0 : l.granting);
                if (atomic && l.wakeups.wakeQ()) {
                    wakeUpProcess(nx, u);
                }
                return which == RwSem.WAITER_WLIST ? u : 0;
            }
            case WAKE_UP_Q: {
                int u = chosen(t, p, forced);
                l.wq[u].set(nx, 0);                                 /* task->wake_q.next = NULL */
                wakeUpProcess(nx, u);
                return u;
            }
            case LOAD_TASK:
                return l.taskCleared(nx, t) ? 1 : 0;
            case SET_STATE:
                l.woken[t].set(nx, 0);                              /* TASK_UNINTERRUPTIBLE: not woken from here on */
                return 0;
            case WAKE_MOVED:
                for (int u = 0; u < l.n; u++) {
                    if (l.qpos[u].getInt(nx) == l.moved) {
                        l.qpos[u].set(nx, 0);
                        wakeUpProcess(nx, u);
                    }
                }
                return 0;
            case FIRST_IS_ME_RACY:
                return l.firstWaiter(nx) == t ? 1 : 0;
            case HANDOFF_SET_READ:
                return l.handoffSet[t].getInt(nx);
            case TIMED_OUT:
                l.timedOut[t].set(nx, forced);
                return forced;
            case FIRST_TIMED_OUT:
                l.timedOut[l.firstWaiter(nx)].set(nx, forced);
                return forced;
            case RSPIN_PASSED:
                return forced;
            default:
                return 0;
        }
    }

    /** Performs local operation {@code node} of task {@code t} on {@link #nx}; returns its outcome. */
    private int local(int t, TaskProgram tp, int node) {
        switch (tp.op[node]) {
            case NEED_RESCHED:
                return l.resched[t].getInt(nx);
            case WAKEQ_EMPTY:
                for (int u = 0; u < l.n; u++) {
                    if (l.wq[u].getInt(nx) == t + 1) {
                        return 0;
                    }
                }
                return 1;
            case SIGNAL_PENDING:
                return l.signaled[t].getInt(nx);
            case LIST_EMPTY:
                return l.queueLength(nx) == 0 ? 1 : 0;
            case LIST_ADD_TAIL:
                l.qpos[t].set(nx, l.queueLength(nx) + 1);
                return 0;
            case LIST_IS_SINGULAR:
                return l.queueLength(nx) == 1 ? 1 : 0;
            case LIST_DEL: {
                int q = l.qpos[t].getInt(nx);
                for (int u = 0; u < l.n; u++) {
                    int x = l.qpos[u].getInt(nx);
                    if (x > q && x <= l.n) {
                        l.qpos[u].set(nx, x - 1);
                    }
                }
                l.qpos[t].set(nx, 0);
                return 0;
            }
            case FRONT_IS_WRITER: {
                int f = l.firstWaiter(nx);
                return f >= 0 && l.isWriter(f) ? 1 : 0;
            }
            case LEADING_READERS: {
                int k = 0;
                while (true) {
                    int f = l.taskAt(nx, k + 1);
                    if (f < 0 || l.isWriter(f)) {
                        return k;
                    }
                    k++;
                }
            }
            case WRITER_AFTER: {
                int f = l.taskAt(nx, (int) tp.arg0[node] + 1);
                return f >= 0 && l.isWriter(f) ? 1 : 0;
            }
            case WAITER_TASK_NULL:
                return l.qpos[t].getInt(nx) == 0 ? 1 : 0;
            case MOVE_READERS: {
                int woken = 0;
                int place = 1;
                for (int q = 1; q <= l.n; q++) {
                    int u = l.taskAt(nx, q);
                    if (u < 0) {
                        break;
                    }
                    if (l.isWriter(u)) {
                        l.qpos[u].set(nx, place++);
                    } else {
                        l.qpos[u].set(nx, l.moved);
                        woken++;
                    }
                }
                return woken;
            }
            case FIRST_IS_ME:
                return l.firstWaiter(nx) == t ? 1 : 0;
            case FRONT_TASK: {
                return first(t, node);
            }
            case ARM_TIMEOUT:
                l.timedOut[t].set(nx, 0);
                return 0;
            case ARM_RSPIN:
                return 0;
            case HANDOFF_INIT:
                l.handoffSet[t].set(nx, 0);
                return 0;
            case HANDOFF_SET_OWN:
                l.handoffSet[t].set(nx, 1);
                return 0;
            case FIRST_HANDOFF_SET:
                return l.handoffSet[first(t, node)].getInt(nx);
            case HANDOFF_SET_FIRST:
                l.handoffSet[first(t, node)].set(nx, 1);
                return 0;
            case RD_NONSPINNABLE_SET:
                l.rdNonspinnable[t].set(nx, tp.arg0[node]);
                return 0;
            case FIRST_RD_NONSPINNABLE:
                return l.rdNonspinnable[first(t, node)].getInt(nx);
            default:
                throw new IllegalStateException("not a local operation: " + tp.op[node]);
        }
    }

    /**
     * {@code wake_up_process(u)}: a task in a wait loop between its set_current_state() and the return of its schedule()
     * (TASK_UNINTERRUPTIBLE) is woken; one that is running is not affected (its state is TASK_RUNNING). Code without
     * set_current_state() calls (wakeups=atomic): any task in the wait list.
     */
    private void wakeUpProcess(long[] st, int u) {
        int pu = l.pc[u].getInt(st);
        boolean sleeping = l.wakeups.wakeQ() ? l.prog[u].has(pu, TaskProgram.SLEEPING_STATE) || l.prog[u].op[pu] == Op.SCHEDULE
                : l.prog[u].has(pu, ENQUEUED);
        if (l.woken[u].max() > 0 && sleeping) {
            l.woken[u].set(st, 1);
        }
    }

    /** Removes task {@code u}'s waiter from the wait list (the places behind it move up); its place is set by the caller. */
    private void unlink(int u) {
        int q = l.qpos[u].getInt(nx);
        for (int v = 0; v < l.n; v++) {
            int x = l.qpos[v].getInt(nx);
            if (x > q && x <= l.n) {
                l.qpos[v].set(nx, x - 1);
            }
        }
    }

    /** The task chosen by the enumeration for a choice step ({@link #successors}); none: the code's loop outran its list. */
    private int chosen(int t, int p, int forced) {
        if (forced < 0) {
            throw new ModelLimitException("rwsem-owner: " + decoder.actor(t) + " at " + l.prog[t].describe(p, l.dom)
                    + ": no such task (the moved readers or the wake queue are empty) (variant '" + variant + "')");
        }
        return forced;
    }

    /** The reader waiter a grant-loop operation of task {@code t} at {@code p} names ({@link RwSem#WAITER_FRONT}, ...). */
    private int waiter(int t, int p, int which) {
        int u = switch (which) {
            case RwSem.WAITER_FRONT, RwSem.WAITER_FRONT_WRITER -> l.firstWaiter(nx);
            case RwSem.WAITER_WLIST -> l.taskAt(nx, l.moved);
            default -> l.tasksAt(nx, l.added) + l.tasksAt(nx, l.granting) == 1
                    ? Math.max(l.taskAt(nx, l.added), l.taskAt(nx, l.granting)) : -2;
        };
        boolean writerWanted = which == RwSem.WAITER_FRONT_WRITER;
        if (u < 0 || l.isWriter(u) != writerWanted) {
            throw new ModelLimitException("rwsem-owner: " + decoder.actor(t) + " at " + l.prog[t].describe(p, l.dom)
                    + (u == -2 ? ": the grant loop's current waiter is not unique" : u < 0 ? ": no such waiter"
                    : writerWanted ? ": the front waiter is not a writer" : ": grants the read lock to a writer")
                    + " (variant '" + variant + "')");
        }
        return u;
    }

    /** The front waiter, which the code at {@code node} dereferences: the list must not be empty. */
    private int first(int t, int node) {
        int f = l.firstWaiter(nx);
        if (f < 0) {
            throw new ModelLimitException("rwsem-owner: " + decoder.actor(t) + " at " + l.prog[t].describe(node, l.dom)
                    + " reads rwsem_first_waiter() of an empty wait list (variant '" + variant + "')");
        }
        return f;
    }

    private int countIndex(long c, int t, int p) {
        int i = l.dom.countIndex(c);
        if (i < 0) {
            throw new ModelLimitException(RwsemOwnerFactory.NAME + " packs " + l.dom.countLimit() + ": variant '" + variant
                    + "' reached count 0x" + Long.toHexString(c) + " at " + decoder.actor(t) + ": "
                    + l.prog[t].describe(p, l.dom));
        }
        return i;
    }

    /**
     * A count the encoding does not hold is one outside the count's meaning (a reader count below zero, a bias
     * that leaked): count keeps its old value and the recorded program leads to its count fault node, which ends
     * the run on count-sane (RwsemProperties.Faulted).
     */
    private void setCountOrFault(long c) {
        int i = l.dom.countIndex(c);
        if (i >= 0) {
            l.count.set(nx, i);
        }
    }

    private void setCount(long c, int t, int p) {
        l.count.set(nx, countIndex(c, t, p));
    }

    private void setOwner(long o, int t, int p) {
        int i = l.dom.ownerIndex(o);
        if (i < 0) {
            throw new ModelLimitException(RwsemOwnerFactory.NAME + " holds owner values " + l.dom.ownerLimit() + ": variant '"
                    + variant + "' stored " + l.dom.showOwner(o) + " (0x" + Long.toHexString(o) + ") at " + decoder.actor(t) + ": "
                    + l.prog[t].describe(p, l.dom));
        }
        l.owner.set(nx, i);
    }
}
