package kcheck.model.rwsem;

import static kcheck.model.rwsem.TaskProgram.ENQUEUED;
import static kcheck.model.rwsem.TaskProgram.HOLDS;
import static kcheck.model.rwsem.TaskProgram.PREEMPT_OFF;
import static kcheck.model.rwsem.TaskProgram.RESCHED_LIVE;

import kcheck.model.ModelLimitException;
import kcheck.model.StepSink;

/**
 * Step enumeration of the rwsem-owner model: each task's next operation of its recorded program
 * (guarded ones only when they can complete) and the environment steps (preemption, need_resched),
 * and what each operation does to the state. One instance per thread ({@link #nx} is scratch).
 *
 * <p>Environment steps: a writer that holds the lock where preemption is enabled can be
 * preempted and later runs again; need_resched can be raised for a writer wherever its code may
 * still read it (from its {@code rwsem_down_write_failed} up to the end of spinning) and is
 * reset where it is dead. Readers are never preempted explicitly: a reader that takes no step
 * is indistinguishable from a preempted one (nothing reads a reader's {@code on_cpu}).
 */
final class RwsemSteps {
    static final int PREEMPT = 0;
    static final int RUN_AGAIN = 1;
    static final int SET_NEED_RESCHED = 2;

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
        for (int t = 0; t < l.n; t++) {
            int p = l.pc[t].getInt(s);
            TaskProgram tp = l.prog[t];
            Op op = tp.op[p];
            if (op == Op.END) {
                continue;
            }
            int w = t - l.nr;
            if (l.isWriter(t) && l.preempted[w].getInt(s) == 1) {
                System.arraycopy(s, 0, nx, 0, l.width);
                l.preempted[w].set(nx, 0);
                out.step(t, l.envBase + RUN_AGAIN, nx);
                continue;
            }
            switch (op) {
                case OSQ_LOCK -> {
                    /* a free osq is taken at once (xchg of the tail); a waiter gives up on need_resched */
                    if (l.osqHolder(s) < 0) {
                        step(s, t, p, 1, out);
                    } else if (l.resched[w].getInt(s) == 1) {
                        step(s, t, p, 0, out);
                    }
                }
                case SPIN_LOCK -> {
                    if (l.waitLockHolder(s) < 0) {
                        step(s, t, p, 0, out);
                    }
                }
                case SCHEDULE -> {
                    if (l.isWriter(t) ? l.woken[w].getInt(s) == 1 : l.qpos[t].getInt(s) == 0) {
                        step(s, t, p, 0, out);
                    }
                }
                default -> step(s, t, p, -1, out);
            }
            if (l.isWriter(t)) {
                if (tp.has(p, HOLDS) && !tp.has(p, PREEMPT_OFF)) {
                    System.arraycopy(s, 0, nx, 0, l.width);
                    l.preempted[w].set(nx, 1);
                    out.step(t, l.envBase + PREEMPT, nx);
                }
                if (tp.has(p, RESCHED_LIVE) && l.resched[w].getInt(s) == 0) {
                    System.arraycopy(s, 0, nx, 0, l.width);
                    l.resched[w].set(nx, 1);
                    out.step(t, l.envBase + SET_NEED_RESCHED, nx);
                }
            }
        }
    }

    /** Task {@code t} performs the operation at node {@code p} (outcome {@code forced} for guarded ones). */
    private void step(long[] s, int t, int p, int forced, StepSink out) {
        TaskProgram tp = l.prog[t];
        System.arraycopy(s, 0, nx, 0, l.width);
        int o = visible(t, tp, p, forced);
        int node = tp.next(p, o);
        while (node >= 0 && !tp.op[node].visible) {
            int lo = local(t, tp, node);
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
        if (l.isWriter(t)) {
            int w = t - l.nr;
            if (!tp.has(node, RESCHED_LIVE)) {
                l.resched[w].set(nx, 0);
            }
            if (!tp.has(node, ENQUEUED)) {
                l.woken[w].set(nx, 0);
            }
        }
        monitors.taskStep(s, nx, t, p, o, node);
        out.step(t, p * l.slots + o, nx);
    }

    private IllegalStateException unrecorded(int t, int node, int outcome) {
        return new IllegalStateException(RwsemOwnerFactory.NAME + " " + variant + ": " + decoder.actor(t) + " at "
                + l.prog[t].describe(node, l.dom) + ": outcome " + l.prog[t].outcomeText(node, outcome, l.dom)
                + " was never recorded (a count outside the modelled range, or an undefined operation)");
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
                setCount(old + tp.arg0[p], t, p);
                return countIndex(old, t, p);
            }
            case COUNT_CMPXCHG: {
                long old = l.count(nx);
                if (old == tp.arg0[p]) {
                    setCount(tp.arg1[p], t, p);
                }
                return countIndex(old, t, p);
            }
            case OWNER_READ:
                return l.owner.getInt(nx);
            case OWNER_WRITE:
                l.owner.set(nx, tp.arg0[p]);
                return 0;
            case ON_CPU:
                return l.onCpu(nx, RwsemCount.writerIndex(tp.arg0[p])) ? 1 : 0;
            case OSQ_LOCK:
                return forced;
            case OSQ_IS_LOCKED:
                return l.osqLocked(nx) ? 1 : 0;
            case SPIN_TRYLOCK:
                return l.waitLockHolder(nx) < 0 ? 1 : 0;
            case SCHEDULE:
                if (l.isWriter(t)) {
                    l.woken[t - l.nr].set(nx, 0);
                }
                return 0;
            case WAKE_FRONT_WRITER: {
                int f = l.taskAt(nx, 1);
                if (f < 0 || !l.isWriter(f)) {
                    throw new ModelLimitException("rwsem-owner wakes only a writer at the front of the wait list with"
                            + " wake_up_process(): this variant woke " + (f < 0 ? "an empty list's front" : "a reader"));
                }
                l.woken[f - l.nr].set(nx, 1);
                return 0;
            }
            case GRANT_READERS: {
                int k = (int) tp.arg0[p];
                for (int u = 0; u < l.n; u++) {
                    int q = l.qpos[u].getInt(nx);
                    if (q >= 1 && q <= k) {
                        if (l.isWriter(u)) {
                            throw new ModelLimitException("rwsem-owner grants the read lock only to readers: this variant"
                                    + " granted it to a writer among the first " + k + " waiters");
                        }
                        l.qpos[u].set(nx, 0);
                    } else if (q > k) {
                        l.qpos[u].set(nx, q - k);
                    }
                }
                return 0;
            }
            default:
                return 0;
        }
    }

    /** Performs local operation {@code node} of task {@code t} on {@link #nx}; returns its outcome. */
    private int local(int t, TaskProgram tp, int node) {
        switch (tp.op[node]) {
            case NEED_RESCHED:
                return l.isWriter(t) ? l.resched[t - l.nr].getInt(nx) : 0;
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
                    if (x > q) {
                        l.qpos[u].set(nx, x - 1);
                    }
                }
                l.qpos[t].set(nx, 0);
                return 0;
            }
            case FRONT_IS_WRITER: {
                int f = l.taskAt(nx, 1);
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
            default:
                throw new IllegalStateException("not a local operation: " + tp.op[node]);
        }
    }

    private int countIndex(long c, int t, int p) {
        int i = l.dom.countIndex(c);
        if (i < 0) {
            throw new ModelLimitException(RwsemOwnerFactory.NAME + " packs count as a + k * RWSEM_WAITING_BIAS with a <= "
                    + l.dom.maxActive() + " and k <= " + l.dom.maxWaiting() + " (readers + writers active, writers + 1"
                    + " waiting biases): variant '" + variant + "' reached count " + RwsemCount.show(c) + " (0x"
                    + Long.toHexString(c) + ") at " + decoder.actor(t) + ": " + l.prog[t].describe(p, l.dom));
        }
        return i;
    }

    private void setCount(long c, int t, int p) {
        countIndex(c, t, p);
        l.cntA.set(nx, RwsemCount.active(c));
        l.cntK.set(nx, RwsemCount.waiting(c));
    }
}
