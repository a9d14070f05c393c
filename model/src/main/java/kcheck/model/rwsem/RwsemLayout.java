package kcheck.model.rwsem;

import static kcheck.model.rwsem.TaskProgram.ENQUEUED;
import static kcheck.model.rwsem.TaskProgram.HOLDS;
import static kcheck.model.rwsem.TaskProgram.IDLE;
import static kcheck.model.rwsem.TaskProgram.IN_UP_WRITE;
import static kcheck.model.rwsem.TaskProgram.OSQ;
import static kcheck.model.rwsem.TaskProgram.OWNER_STORE_PENDING;
import static kcheck.model.rwsem.TaskProgram.WAIT_LOCK;

import java.util.Set;

import kcheck.model.Layout;

/**
 * The packed state of the rwsem-owner model and what can be read off it (thread-safe: no
 * scratch space). One concern only: which bits mean what.
 *
 * <p>State: {@code sem->count} and {@code sem->owner} as indices of the variant's encoding
 * ({@link RwsemDomain}); per task its program node and its place in the wait list (0: not
 * queued; a queued reader whose place is 0 has been granted the lock; {@code tasks + 1}: a reader
 * moved to a waker's wake list, not yet granted); per task, where its code needs them: woken
 * (writers), preempted ({@code on_cpu == 0}), need_resched, its waiter's timeout passed, its
 * waiter's {@code handoff_set}, its waiter's {@code last_rowner & RD_NONSPINNABLE} bit. Fields a
 * variant's code never touches take no bits. Who holds
 * {@code wait_lock} and the osq, and who holds the rwsem, are attributes of the program nodes.
 * Monitors, only for the properties that need them.
 */
final class RwsemLayout {
    /** Saturation of the spin counters: "3" means 3 or more. */
    static final int SPIN_CAP = 3;

    /** Which tasks the environment may preempt while they hold the lock. */
    enum Preempt { NONE, WRITERS, ALL }

    final RwsemDomain dom;
    final int nr;
    final int nw;
    final int n;
    final TaskProgram[] prog;
    final boolean[] rt;
    final Preempt preempt;
    /** Outcome slots per program node: an action is {@code node * slots + outcome}. */
    final int slots;
    /** Actions from here on are environment steps. */
    final int envBase;
    /** The wait-list place of a reader moved to a wake list ({@code rwsem_mark_wake}, v5.4+). */
    final int moved;
    /** wakeups=wake-q: the place of a reader the waker has wake_q_add()ed but whose waiter->task is not NULL yet. */
    final int added;
    /** wakeups=wake-q: the place of a reader whose waiter->task is NULL but that its waker has not wake_q_add()ed yet. */
    final int granting;
    /** The wake-up model (parameter wakeups). */
    final Wakeups wakeups;
    /** {@code task->wake_q.next} as a wake queue: 0 none, {@code 1 + u} task u's, {@link #foreignQueue} another subsystem's. */
    final int foreignQueue;

    final boolean canSpinMonitor;
    final boolean k2Monitor;
    final boolean wastedMonitor;
    final boolean missedMonitor;
    final boolean handoffMonitor;
    /** Waiters' timeouts are state: the code reads them, or no-writer-starvation needs them. */
    final boolean timeouts;
    /**
     * A waiter's timeout passes as an environment step at any time (for no-writer-starvation, which reads it);
     * otherwise it passes when the code reads the clock (the read may return either answer while it has not
     * passed yet): the same answers to every read, with fewer interleavings.
     */
    final boolean eagerTimeouts;

    final Layout.Field count;
    final Layout.Field owner;
    final Layout.Field[] pc;
    final Layout.Field[] qpos;
    final Layout.Field[] woken;
    /** {@code task->wake_q.next}: the wake queue the task is on (see {@link #foreignQueue}); wakeups=wake-q only. */
    final Layout.Field[] wq;
    final Layout.Field[] preempted;
    final Layout.Field[] resched;
    final Layout.Field[] timedOut;
    final Layout.Field[] handoffSet;
    final Layout.Field[] rdNonspinnable;
    /** A fatal signal is pending for the task (killable waiters only: the code reads signal_pending_state). */
    final Layout.Field[] signaled;
    /** spin-on-running-writer: can_spin loaded a NULL owner while a running writer was in its set_owner gap. */
    final Layout.Field[] obsNull;
    /** The same observations for missed-spins, forgotten when the write lock is released. */
    final Layout.Field[] missNull;
    final Layout.Field[] missRo;
    /** Trylock loads on a lock held by settled readers since the last reset (the no-spin-on-readers-k2 count). */
    final Layout.Field k2;
    /** The same without the settled clause. */
    final Layout.Field wastedAll;
    final Layout.Field missedNull;
    final Layout.Field missedRo;
    /** handoff: 1 + the task the handoff bit was set for (the first waiter then), 0 for none. */
    final Layout.Field handoffFor;
    /** At most the other writers decline on one hold. */
    final int missedCap;
    final int width;

    RwsemLayout(RwsemDomain dom, TaskProgram[] prog, boolean[] rt, Preempt preempt, Set<String> selected) {
        this(dom, prog, rt, preempt, selected, Wakeups.ATOMIC);
    }

    RwsemLayout(RwsemDomain dom, TaskProgram[] prog, boolean[] rt, Preempt preempt, Set<String> selected, Wakeups wakeups) {
        this.dom = dom;
        this.nr = dom.readers();
        this.nw = dom.writers();
        this.n = nr + nw;
        this.prog = prog;
        this.rt = rt;
        this.preempt = preempt;
        this.slots = dom.maxOutcomes();
        int maxSize = 0;
        for (TaskProgram p : prog) {
            maxSize = Math.max(maxSize, p.size);
        }
        this.envBase = maxSize * slots;
        this.moved = n + 1;
        this.added = n + 2;
        this.granting = n + 3;
        this.wakeups = wakeups;
        this.foreignQueue = n + 1;
        this.canSpinMonitor = selected.contains("spin-on-running-writer") || selected.contains("missed-spins");
        this.k2Monitor = selected.contains("no-spin-on-readers-k2");
        this.wastedMonitor = selected.contains("wasted-spins");
        this.missedMonitor = selected.contains("missed-spins");
        this.handoffMonitor = selected.contains("handoff");
        boolean codeTimeouts = false;
        for (TaskProgram p : prog) {
            codeTimeouts |= p.uses(Op.ARM_TIMEOUT);
        }
        boolean starvation = selected.contains("no-writer-starvation") || selected.contains("sleeping-writer-woken")
                || selected.contains("reader-stream-starvation");
        this.timeouts = codeTimeouts || starvation;
        this.eagerTimeouts = starvation;

        Layout layout = new Layout();
        count = layout.fieldFor(dom.countSize() - 1);
        owner = layout.fieldFor(dom.ownerSize() - 1);
        pc = new Layout.Field[n];
        qpos = new Layout.Field[n];
        boolean bits = !(dom instanceof RwsemDomain.Xadd);
        for (int t = 0; t < n; t++) {
            pc[t] = layout.fieldFor(prog[t].size - 1);
            qpos[t] = layout.fieldFor(wakeups.wakeQ() ? granting : bits ? moved : n);
        }
        woken = new Layout.Field[n];
        wq = new Layout.Field[n];
        preempted = new Layout.Field[n];
        resched = new Layout.Field[n];
        timedOut = new Layout.Field[n];
        handoffSet = new Layout.Field[n];
        rdNonspinnable = new Layout.Field[n];
        signaled = new Layout.Field[n];
        obsNull = new Layout.Field[n];
        missNull = new Layout.Field[n];
        missRo = new Layout.Field[n];
        boolean spinProperty = selected.contains("spin-on-running-writer");
        for (int t = 0; t < n; t++) {
            boolean w = isWriter(t);
            woken[t] = layout.field(w || wakeups.wakeQ() ? 1 : 0);
            wq[t] = layout.fieldFor(wakeups == Wakeups.SPURIOUS ? foreignQueue : wakeups.wakeQ() ? n : 0);
            preempted[t] = layout.field(preemptible(t) ? 1 : 0);
            resched[t] = layout.field(w || prog[t].uses(Op.NEED_RESCHED) ? 1 : 0);
            obsNull[t] = layout.field(w && spinProperty ? 1 : 0);
            missNull[t] = layout.field(w && missedMonitor ? 1 : 0);
            missRo[t] = layout.field(w && missedMonitor ? 1 : 0);
            timedOut[t] = layout.field(timeouts && (codeTimeouts || w) ? 1 : 0);
            handoffSet[t] = layout.field(prog[t].uses(Op.HANDOFF_INIT) ? 1 : 0);
            rdNonspinnable[t] = layout.field(prog[t].uses(Op.RD_NONSPINNABLE_SET) ? 1 : 0);
            signaled[t] = layout.field(prog[t].uses(Op.SIGNAL_PENDING) ? 1 : 0);
        }
        k2 = layout.fieldFor(k2Monitor || wastedMonitor ? SPIN_CAP : 0);
        wastedAll = layout.fieldFor(wastedMonitor ? SPIN_CAP : 0);
        missedNull = layout.fieldFor(missedMonitor ? Math.max(1, nw - 1) : 0);
        missedRo = layout.fieldFor(missedMonitor ? Math.max(1, nw - 1) : 0);
        handoffFor = layout.fieldFor(handoffMonitor ? n : 0);
        missedCap = Math.max(1, nw - 1);
        width = layout.words();
    }

    /** The environment may preempt task {@code t} (while it holds the lock where preemption is enabled). */
    boolean preemptible(int t) {
        return preempt == Preempt.ALL || (preempt == Preempt.WRITERS && isWriter(t));
    }

    /* ---------------- reading a packed state ---------------- */

    long count(long[] s) {
        return dom.countValue(count.getInt(s));
    }

    /** {@code sem->owner}'s value (the field holds its index in the encoding's owner values). */
    long ownerValue(long[] s) {
        return dom.ownerValue(owner.getInt(s));
    }

    boolean isWriter(int t) {
        return t >= nr;
    }

    /** Task {@code t} holds the rwsem: past its acquiring step, or a queued reader granted the lock. */
    boolean heldBy(long[] s, int t) {
        int p = pc[t].getInt(s);
        return prog[t].has(p, HOLDS) || (!isWriter(t) && prog[t].has(p, ENQUEUED) && taskCleared(s, t));
    }

    /** Task {@code t}'s waiter has {@code waiter.task == NULL} (granted), or it is not queued at all. */
    boolean taskCleared(long[] s, int t) {
        int q = qpos[t].getInt(s);
        return q == 0 || (wakeups.wakeQ() && q == granting);
    }

    /** Task {@code t} sleeps in schedule() and its schedule() can return (woken, or a fatal signal pending). */
    boolean canWake(long[] s, int t) {
        boolean wake = wakeups.wakeQ() || isWriter(t) ? woken[t].getInt(s) == 1 : qpos[t].getInt(s) == 0;
        return wake || signaled[t].getInt(s) == 1;
    }

    /**
     * no-lost-wakeup: a reader asleep in schedule() that holds the lock (its waiter->task is NULL, its waker done with
     * it) with no wake-up pending and on no wake queue: nothing will ever wake it.
     */
    boolean lostWakeup(long[] s, int t) {
        if (isWriter(t) || !wakeups.wakeQ()) {
            return false;
        }
        int p = pc[t].getInt(s);
        return prog[t].op[p] == Op.SCHEDULE && prog[t].has(p, ENQUEUED) && qpos[t].getInt(s) == 0
                && woken[t].getInt(s) == 0 && signaled[t].getInt(s) == 0 && wq[t].getInt(s) == 0;
    }

    int readersHolding(long[] s) {
        int c = 0;
        for (int r = 0; r < nr; r++) {
            if (heldBy(s, r)) {
                c++;
            }
        }
        return c;
    }

    int writersHolding(long[] s) {
        int c = 0;
        for (int t = nr; t < n; t++) {
            if (heldBy(s, t)) {
                c++;
            }
        }
        return c;
    }

    /** Every reader holding the lock has made its count step and (v4.8+) its owner store. */
    boolean readersSettled(long[] s) {
        for (int r = 0; r < nr; r++) {
            if (heldBy(s, r) && prog[r].has(pc[r].getInt(s), OWNER_STORE_PENDING)) {
                return false;
            }
        }
        return true;
    }

    /** {@code on_cpu} of task {@code t}: not preempted and not asleep (a woken task that has not run yet is not on a CPU). */
    boolean onCpu(long[] s, int t) {
        return preempted[t].getInt(s) == 0 && prog[t].op[pc[t].getInt(s)] != Op.SCHEDULE;
    }

    int osqHolder(long[] s) {
        for (int t = 0; t < n; t++) {
            if (prog[t].has(pc[t].getInt(s), OSQ)) {
                return t;
            }
        }
        return -1;
    }

    /** {@code osq_is_locked()}: a spinner holds the osq, or a task is in {@code osq_lock()}. */
    boolean osqLocked(long[] s) {
        for (int t = 0; t < n; t++) {
            int p = pc[t].getInt(s);
            if (prog[t].has(p, OSQ) || prog[t].op[p] == Op.OSQ_LOCK) {
                return true;
            }
        }
        return false;
    }

    int waitLockHolder(long[] s) {
        for (int t = 0; t < n; t++) {
            if (prog[t].has(pc[t].getInt(s), WAIT_LOCK)) {
                return t;
            }
        }
        return -1;
    }

    /** Task {@code t}'s waiter is in the wait list. */
    boolean queued(long[] s, int t) {
        int q = qpos[t].getInt(s);
        return q > 0 && q <= n;
    }

    int queueLength(long[] s) {
        int c = 0;
        for (int t = 0; t < n; t++) {
            if (queued(s, t)) {
                c++;
            }
        }
        return c;
    }

    int taskAt(long[] s, int place) {
        for (int t = 0; t < n; t++) {
            if (qpos[t].getInt(s) == place) {
                return t;
            }
        }
        return -1;
    }

    /** Number of tasks at place {@code place}. */
    int tasksAt(long[] s, int place) {
        int c = 0;
        for (int t = 0; t < n; t++) {
            if (qpos[t].getInt(s) == place) {
                c++;
            }
        }
        return c;
    }

    /** The task whose waiter is first in the wait list, -1 if it is empty. */
    int firstWaiter(long[] s) {
        return taskAt(s, 1);
    }

    /** {@code sem->owner} names writer task {@code t} (as the write-lock owner). */
    boolean ownerNames(long[] s, int t) {
        long o = ownerValue(s);
        return dom.ownerIsWriter(o) && dom.ownerTask(o) == t;
    }

    /**
     * Another writer than task {@code t} holds the write lock between its count step and its
     * {@code rwsem_set_owner}, and is on a CPU: a writer worth spinning on.
     */
    boolean runningWriterWithoutOwner(long[] s, int t) {
        for (int v = nr; v < n; v++) {
            if (v != t && heldBy(s, v) && !prog[v].has(pc[v].getInt(s), IN_UP_WRITE) && !ownerNames(s, v) && onCpu(s, v)) {
                return true;
            }
        }
        return false;
    }

    /** The task at a {@link Op#FAULT} node (the kernel flagged the state: the run ends there), -1 for none. */
    int faulted(long[] s) {
        for (int t = 0; t < n; t++) {
            if (prog[t].op[pc[t].getInt(s)] == Op.FAULT) {
                return t;
            }
        }
        return -1;
    }

    /** The task at a FAULT or WARN node of property {@code id}, -1 for none. */
    int flagged(long[] s, String id) {
        for (int t = 0; t < n; t++) {
            int p = pc[t].getInt(s);
            Op o = prog[t].op[p];
            if ((o == Op.FAULT || o == Op.WARN) && Op.Fault.values()[(int) prog[t].arg0[p]].property.equals(id)) {
                return t;
            }
        }
        return -1;
    }

    /** The fault task {@code t} is at (a FAULT or WARN node). */
    Op.Fault fault(long[] s, int t) {
        return Op.Fault.values()[(int) prog[t].arg0[pc[t].getInt(s)]];
    }

    /** Every task has finished its bounded workload. */
    boolean allDone(long[] s) {
        for (int t = 0; t < n; t++) {
            if (prog[t].op[pc[t].getInt(s)] != Op.END) {
                return false;
            }
        }
        return true;
    }

    /** Task {@code t} is between two lock rounds (or done): it owes nobody a step. */
    boolean idle(long[] s, int t) {
        int p = pc[t].getInt(s);
        return prog[t].op[p] == Op.END || prog[t].has(p, IDLE);
    }

    /** Task {@code t} can take a step of its code in {@code s} (the guards of {@link RwsemSteps}). */
    boolean enabled(long[] s, int t) {
        int p = pc[t].getInt(s);
        if (preempted[t].getInt(s) == 1) {
            return false;
        }
        return switch (prog[t].op[p]) {
            case END, FAULT -> false;
            case OSQ_LOCK -> osqHolder(s) < 0 || resched[t].getInt(s) == 1;
            case SPIN_LOCK -> waitLockHolder(s) < 0;
            case SCHEDULE -> canWake(s, t);
            default -> true;
        };
    }
}
