package kcheck.model.rwsem;

import static kcheck.model.rwsem.TaskProgram.ENQUEUED;
import static kcheck.model.rwsem.TaskProgram.HOLDS;
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
 * <p>State: {@code sem->count} as its active part and number of waiting biases,
 * {@code sem->owner}; per task its program node and its place in the wait list (0: not queued;
 * a queued reader whose place is 0 has been granted the lock); per writer whether it has been
 * woken, whether it is preempted ({@code on_cpu == 0}) and its need_resched flag. Who holds
 * {@code wait_lock} and the osq, and who holds the rwsem, are attributes of the program nodes.
 * Monitors, only for the properties that need them: per writer what its
 * {@code rwsem_can_spin_on_owner} saw, the spinner's attempt counters, and the missed-spin
 * counters.
 */
final class RwsemLayout {
    /** Saturation of the spin counters: "3" means 3 or more. */
    static final int SPIN_CAP = 3;

    final RwsemDomain dom;
    final int nr;
    final int nw;
    final int n;
    final TaskProgram[] prog;
    final boolean[] rt;
    /** Outcome slots per program node: an action is {@code node * slots + outcome}. */
    final int slots;
    /** Actions from here on are environment steps (preemption, need_resched). */
    final int envBase;

    final boolean canSpinMonitor;
    final boolean k2Monitor;
    final boolean wastedMonitor;
    final boolean missedMonitor;

    final Layout.Field cntA;
    final Layout.Field cntK;
    final Layout.Field owner;
    final Layout.Field[] pc;
    final Layout.Field[] qpos;
    final Layout.Field[] woken;
    final Layout.Field[] preempted;
    final Layout.Field[] resched;
    /** spin-on-running-writer: can_spin loaded a NULL owner while a running writer was in its set_owner gap. */
    final Layout.Field[] obsNull;
    /** The same observations for missed-spins, forgotten when the write lock is released. */
    final Layout.Field[] missNull;
    final Layout.Field[] missRo;
    /** Trylock loads on a lock held by settled readers since the last reset (KERNEL.md's count). */
    final Layout.Field k2;
    /** The same without the settled clause. */
    final Layout.Field wastedAll;
    final Layout.Field missedNull;
    final Layout.Field missedRo;
    /** At most the other writers decline on one hold. */
    final int missedCap;
    final int width;

    RwsemLayout(RwsemDomain dom, TaskProgram[] prog, boolean[] rt, Set<String> selected) {
        this.dom = dom;
        this.nr = dom.readers();
        this.nw = dom.writers();
        this.n = nr + nw;
        this.prog = prog;
        this.rt = rt;
        this.slots = dom.maxOutcomes();
        int maxSize = 0;
        for (TaskProgram p : prog) {
            maxSize = Math.max(maxSize, p.size);
        }
        this.envBase = maxSize * slots;
        this.canSpinMonitor = selected.contains("spin-on-running-writer") || selected.contains("missed-spins");
        this.k2Monitor = selected.contains("no-spin-on-readers-k2");
        this.wastedMonitor = selected.contains("wasted-spins");
        this.missedMonitor = selected.contains("missed-spins");

        Layout layout = new Layout();
        cntA = layout.fieldFor(dom.maxActive());
        cntK = layout.fieldFor(dom.maxWaiting());
        owner = layout.fieldFor(dom.ownerSize() - 1);
        pc = new Layout.Field[n];
        qpos = new Layout.Field[n];
        for (int t = 0; t < n; t++) {
            pc[t] = layout.fieldFor(prog[t].size - 1);
            qpos[t] = layout.fieldFor(n);
        }
        woken = new Layout.Field[nw];
        preempted = new Layout.Field[nw];
        resched = new Layout.Field[nw];
        obsNull = new Layout.Field[nw];
        missNull = new Layout.Field[nw];
        missRo = new Layout.Field[nw];
        boolean spinProperty = selected.contains("spin-on-running-writer");
        for (int w = 0; w < nw; w++) {
            woken[w] = layout.field(1);
            preempted[w] = layout.field(1);
            resched[w] = layout.field(1);
            obsNull[w] = layout.field(spinProperty ? 1 : 0);
            missNull[w] = layout.field(missedMonitor ? 1 : 0);
            missRo[w] = layout.field(missedMonitor ? 1 : 0);
        }
        k2 = layout.fieldFor(k2Monitor || wastedMonitor ? SPIN_CAP : 0);
        wastedAll = layout.fieldFor(wastedMonitor ? SPIN_CAP : 0);
        missedNull = layout.fieldFor(missedMonitor ? Math.max(1, nw - 1) : 0);
        missedRo = layout.fieldFor(missedMonitor ? Math.max(1, nw - 1) : 0);
        missedCap = Math.max(1, nw - 1);
        width = layout.words();
    }

    /* ---------------- reading a packed state ---------------- */

    long count(long[] s) {
        return RwsemCount.count(cntA.getInt(s), cntK.getInt(s));
    }

    boolean isWriter(int t) {
        return t >= nr;
    }

    /** Task {@code t} holds the rwsem: past its acquiring step, or a queued reader granted the lock. */
    boolean heldBy(long[] s, int t) {
        int p = pc[t].getInt(s);
        return prog[t].has(p, HOLDS) || (!isWriter(t) && prog[t].has(p, ENQUEUED) && qpos[t].getInt(s) == 0);
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

    /** Every reader holding the lock has made its count step and (v4.8) its owner store. */
    boolean readersSettled(long[] s) {
        for (int r = 0; r < nr; r++) {
            if (heldBy(s, r) && prog[r].has(pc[r].getInt(s), OWNER_STORE_PENDING)) {
                return false;
            }
        }
        return true;
    }

    /** {@code on_cpu} of writer {@code w}: not preempted and not asleep. */
    boolean onCpu(long[] s, int w) {
        int t = nr + w;
        return preempted[w].getInt(s) == 0 && prog[t].op[pc[t].getInt(s)] != Op.SCHEDULE;
    }

    int osqHolder(long[] s) {
        for (int t = nr; t < n; t++) {
            if (prog[t].has(pc[t].getInt(s), OSQ)) {
                return t;
            }
        }
        return -1;
    }

    /** {@code osq_is_locked()}: a spinner holds the osq, or a writer is in {@code osq_lock()}. */
    boolean osqLocked(long[] s) {
        for (int t = nr; t < n; t++) {
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

    int queueLength(long[] s) {
        int c = 0;
        for (int t = 0; t < n; t++) {
            if (qpos[t].getInt(s) > 0) {
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

    /**
     * Another writer than {@code w} holds the write lock between its count step and its
     * {@code rwsem_set_owner}, and is on a CPU: a writer worth spinning on.
     */
    boolean runningWriterWithoutOwner(long[] s, int w) {
        long o = owner.get(s);
        for (int v = 0; v < nw; v++) {
            int t = nr + v;
            if (v != w && heldBy(s, t) && !prog[t].has(pc[t].getInt(s), IN_UP_WRITE) && o != RwsemCount.writerTask(v)
                    && onCpu(s, v)) {
                return true;
            }
        }
        return false;
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
}
