package kcheck.model.rwsem;

import java.util.ArrayList;
import java.util.List;

/**
 * Canonical forms of rwsem-owner states. Readers run one program and nothing refers to a
 * reader: states are stored with readers sorted by (program node, wait-list place). Writers with
 * the same RT flag are interchangeable once task pointers are renamed in {@code owner} and in
 * their programs ({@link WriterSymmetry}); the least renaming is stored. One instance per thread
 * (scratch arrays).
 */
final class RwsemSymmetry {
    private final RwsemLayout l;
    private final WriterSymmetry sym;
    private final int[] keys;
    private final long[] best;
    private final long[] cand;

    RwsemSymmetry(RwsemLayout l, WriterSymmetry sym) {
        this.l = l;
        this.sym = sym;
        this.keys = new int[Math.max(1, l.nr)];
        this.best = new long[l.width];
        this.cand = new long[l.width];
    }

    static WriterSymmetry writers(RwsemLayout l) {
        return WriterSymmetry.of(java.util.Arrays.copyOfRange(l.prog, l.nr, l.n), l.rt, l.dom);
    }

    List<String> reductions() {
        List<String> out = new ArrayList<>();
        if (l.nr > 1) {
            out.add("reader-symmetry: readers run one program and nothing refers to a reader's identity; readers are"
                    + " sorted by (program node, wait-list place), which permutes the wait list consistently");
        }
        if (!sym.trivial()) {
            out.add("writer-symmetry: writers with the same RT flag are interchangeable once task pointers in owner and"
                    + " in their programs are renamed; the least of the " + sym.perms.length + " renamings is stored");
        }
        return out;
    }

    void canonicalize(long[] s) {
        if (l.nr > 1) {
            sortReaders(s);
        }
        if (sym.trivial()) {
            return;
        }
        System.arraycopy(s, 0, best, 0, l.width);
        for (int i = 1; i < sym.perms.length; i++) {
            int[] pi = sym.perms[i];
            System.arraycopy(s, 0, cand, 0, l.width);
            for (int w = 0; w < l.nw; w++) {
                int v = pi[w];
                int t = l.nr + w;
                int u = l.nr + v;
                l.pc[u].set(cand, sym.pcMap[i][w][l.pc[t].getInt(s)]);
                l.qpos[u].set(cand, l.qpos[t].get(s));
                l.woken[v].set(cand, l.woken[w].get(s));
                l.preempted[v].set(cand, l.preempted[w].get(s));
                l.resched[v].set(cand, l.resched[w].get(s));
                l.obsNull[v].set(cand, l.obsNull[w].get(s));
                l.missNull[v].set(cand, l.missNull[w].get(s));
                l.missRo[v].set(cand, l.missRo[w].get(s));
            }
            l.owner.set(cand, WriterSymmetry.rename(l.owner.get(s), pi));
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

    private void sortReaders(long[] s) {
        int mul = l.n + 1;
        for (int r = 0; r < l.nr; r++) {
            keys[r] = l.pc[r].getInt(s) * mul + l.qpos[r].getInt(s);
        }
        for (int i = 1; i < l.nr; i++) {
            int k = keys[i];
            int j = i - 1;
            while (j >= 0 && keys[j] > k) {
                keys[j + 1] = keys[j];
                j--;
            }
            keys[j + 1] = k;
        }
        for (int r = 0; r < l.nr; r++) {
            l.pc[r].set(s, keys[r] / mul);
            l.qpos[r].set(s, keys[r] % mul);
        }
    }
}
