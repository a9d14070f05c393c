package kcheck.model.rwsem;

import java.util.ArrayList;
import java.util.List;

import kcheck.model.Layout;

/**
 * Canonical forms of rwsem-owner states. Where readers never store their task pointer (the xadd
 * encoding), they run one program and nothing refers to a reader: states are stored with readers
 * sorted by (program node, wait-list place, their other fields). Tasks of one kind (readers
 * storing their pointer; writers with the same RT flag) are interchangeable once task pointers are
 * renamed in {@code owner} and in their programs ({@link TaskSymmetry}); the least renaming is
 * stored. One instance per thread (scratch arrays).
 */
final class RwsemSymmetry {
    private final RwsemLayout l;
    private final TaskSymmetry sym;
    private final boolean sortReaders;
    private final long[] keys;
    /** wakeups=wake-q: {@code wake_q} fields name tasks (the waker whose queue a task is on) and are renamed too. */
    private final boolean renameQueues;
    private final int[] newIndex;
    /** The per-task fields that move with their task, apart from pc. */
    private final Layout.Field[][] taskFields;
    private final long[] best;
    private final long[] cand;

    /** True when a fair progress property is selected: no canonical form then (see {@link #reductions()}). */
    private final boolean fair;

    RwsemSymmetry(RwsemLayout l, TaskSymmetry sym, boolean fair) {
        this.l = l;
        this.fair = fair;
        this.sym = fair ? TaskSymmetry.identity(l.prog) : sym;
        this.sortReaders = !fair && l.dom.readersAnonymous() && l.nr > 1;
        this.keys = new long[Math.max(1, l.nr)];
        this.renameQueues = l.wq.length > 0 && l.wq[0].max() > 0;
        this.newIndex = new int[l.n];
        this.taskFields = new Layout.Field[][] {l.qpos, l.woken, l.wq, l.preempted, l.resched, l.timedOut, l.handoffSet,
            l.rdNonspinnable, l.signaled, l.obsNull, l.missNull, l.missRo};
        this.best = new long[l.width];
        this.cand = new long[l.width];
    }

    static TaskSymmetry tasks(RwsemLayout l) {
        return TaskSymmetry.of(l.prog, l.rt, l.dom);
    }

    List<String> reductions() {
        List<String> out = new ArrayList<>();
        if (fair) {
            out.add("no task symmetry: a fair progress property is selected, and its fairness names tasks (a step class per"
                    + " task), which a canonical form would rename along a cycle");
        }
        if (sortReaders) {
            out.add("reader-symmetry: readers run one program and nothing refers to a reader's identity; readers are"
                    + " sorted by (program node, wait-list place), which permutes the wait list consistently");
        }
        if (!sym.trivial()) {
            boolean readers = sym.movesReaders(l.nr);
            out.add((readers ? "task-symmetry: readers, and writers with the same RT flag," : "writer-symmetry: writers with the"
                    + " same RT flag") + " are interchangeable once task pointers in owner and in their programs are renamed;"
                    + " the least of the " + sym.perms.length + " renamings is stored");
        }
        return out;
    }

    void canonicalize(long[] s) {
        if (sortReaders) {
            sortReaders(s);
        }
        if (sym.trivial()) {
            return;
        }
        System.arraycopy(s, 0, best, 0, l.width);
        for (int i = 1; i < sym.perms.length; i++) {
            int[] pi = sym.perms[i];
            System.arraycopy(s, 0, cand, 0, l.width);
            for (int t = 0; t < l.n; t++) {
                int u = pi[t];
                // A task the renaming keeps still moves in its program: its node may name a renamed
                // task (a waker's first->task, an owner value it loaded).
                l.pc[u].set(cand, sym.pcMap[i][t][l.pc[t].getInt(s)]);
                if (u == t) {
                    continue;
                }
                for (Layout.Field[] f : taskFields) {
                    f[u].set(cand, f[t].get(s));
                }
            }
            l.owner.set(cand, l.dom.ownerIndex(l.dom.renameOwner(l.ownerValue(s), pi)));
            if (renameQueues) {
                renameQueues(cand, pi);
            }
            long h = l.handoffFor.get(s);
            if (h > 0) {
                l.handoffFor.set(cand, pi[(int) h - 1] + 1);
            }
            if (less(cand, best)) {
                System.arraycopy(cand, 0, best, 0, l.width);
            }
        }
        System.arraycopy(best, 0, s, 0, l.width);
    }

    private boolean less(long[] a, long[] b) {
        for (int i = 0; i < l.width; i++) {
            if (a[i] != b[i]) {
                return a[i] < b[i];
            }
        }
        return false;
    }

    /** The wake queue fields name wakers: task u's becomes {@code pi[u]}'s (foreign queues and none stay). */
    private void renameQueues(long[] st, int[] pi) {
        for (int u = 0; u < l.n; u++) {
            int q = l.wq[u].getInt(st);
            if (q >= 1 && q <= l.n) {
                l.wq[u].set(st, pi[q - 1] + 1);
            }
        }
    }

    /** Sorts the readers by their fields (program node first); their values move together. */
    private void sortReaders(long[] s) {
        int idxBits = renameQueues ? 32 - Integer.numberOfLeadingZeros(l.nr) : 0;
        for (int r = 0; r < l.nr; r++) {
            long k = l.pc[r].get(s);
            for (Layout.Field[] f : taskFields) {
                int bits = Long.bitCount(f[r].max());
                k = (k << bits) | f[r].get(s);
            }
            keys[r] = renameQueues ? (k << idxBits) | r : k;
        }
        for (int i = 1; i < l.nr; i++) {
            long k = keys[i];
            int j = i - 1;
            while (j >= 0 && keys[j] > k) {
                keys[j + 1] = keys[j];
                j--;
            }
            keys[j + 1] = k;
        }
        if (renameQueues) {
            for (int u = 0; u < l.n; u++) {
                newIndex[u] = u;
            }
            for (int r = 0; r < l.nr; r++) {
                newIndex[(int) (keys[r] & ((1L << idxBits) - 1))] = r;
            }
        }
        for (int r = 0; r < l.nr; r++) {
            long k = keys[r] >>> idxBits;
            for (int i = taskFields.length - 1; i >= 0; i--) {
                Layout.Field f = taskFields[i][r];
                int bits = Long.bitCount(f.max());
                f.set(s, k & f.max());
                k >>>= bits;
            }
            l.pc[r].set(s, k);
        }
        if (renameQueues) {
            renameQueues(s, newIndex);
        }
    }
}
