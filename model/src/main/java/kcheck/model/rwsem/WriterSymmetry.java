package kcheck.model.rwsem;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The permutations of writers the model may treat as equivalent: those that keep each writer's
 * RT flag, and under which the writers' recorded programs correspond node for node once task
 * pointers are renamed (a writer's program names itself in {@code rwsem_set_owner} and other
 * writers in {@code owner->on_cpu} and in owner values it has loaded). For each permutation
 * {@code pi} and writer {@code w}, {@link #pcMap} takes a node of {@code w}'s program to the
 * node of {@code pi(w)}'s program that does the same thing with the renamed tasks.
 */
final class WriterSymmetry {
    /** {@code perms[i][w]}: where permutation i sends writer w. perms[0] is the identity. */
    final int[][] perms;
    /** {@code pcMap[i][w][node]}. */
    final int[][][] pcMap;

    private WriterSymmetry(int[][] perms, int[][][] pcMap) {
        this.perms = perms;
        this.pcMap = pcMap;
    }

    /** The symmetry of these writers' programs; only the identity if the programs do not correspond. */
    static WriterSymmetry of(TaskProgram[] writers, boolean[] rt, RwsemDomain dom) {
        int nw = writers.length;
        List<int[]> perms = new ArrayList<>();
        permutations(new int[nw], new boolean[nw], 0, rt, perms);
        List<int[]> kept = new ArrayList<>();
        List<int[][]> maps = new ArrayList<>();
        for (int[] pi : perms) {
            int[][] map = new int[nw][];
            boolean ok = true;
            for (int w = 0; w < nw && ok; w++) {
                map[w] = correspond(writers[w], writers[pi[w]], pi, dom);
                ok = map[w] != null;
            }
            if (ok) {
                kept.add(pi);
                maps.add(map);
            }
        }
        /* identity first */
        int id = -1;
        for (int i = 0; i < kept.size(); i++) {
            boolean isId = true;
            for (int w = 0; w < nw; w++) {
                isId &= kept.get(i)[w] == w;
            }
            if (isId) {
                id = i;
            }
        }
        int[] idPerm = kept.remove(id);
        int[][] idMap = maps.remove(id);
        kept.add(0, idPerm);
        maps.add(0, idMap);
        return new WriterSymmetry(kept.toArray(int[][]::new), maps.toArray(int[][][]::new));
    }

    boolean trivial() {
        return perms.length == 1;
    }

    private static void permutations(int[] cur, boolean[] used, int w, boolean[] rt, List<int[]> out) {
        if (w == cur.length) {
            out.add(cur.clone());
            return;
        }
        for (int v = 0; v < cur.length; v++) {
            if (!used[v] && rt[v] == rt[w]) {
                used[v] = true;
                cur[w] = v;
                permutations(cur, used, w + 1, rt, out);
                used[v] = false;
            }
        }
    }

    /** The owner value {@code owner} with writers renamed by {@code pi}. */
    static long rename(long owner, int[] pi) {
        return owner < 2 ? owner : RwsemCount.writerTask(pi[RwsemCount.writerIndex(owner)]);
    }

    /** Node correspondence from program a to program b under the renaming pi, or null. */
    private static int[] correspond(TaskProgram a, TaskProgram b, int[] pi, RwsemDomain dom) {
        int[] map = new int[a.size];
        Arrays.fill(map, -1);
        ArrayDeque<int[]> todo = new ArrayDeque<>();
        todo.add(new int[] {a.root, b.root});
        map[a.root] = b.root;
        while (!todo.isEmpty()) {
            int[] p = todo.poll();
            int x = p[0];
            int y = p[1];
            if (a.op[x] != b.op[y] || a.attrs[x] != b.attrs[y] || !a.function[x].equals(b.function[y])) {
                return null;
            }
            Op op = a.op[x];
            boolean ownerArg = op == Op.OWNER_WRITE || op == Op.ON_CPU;
            if ((ownerArg ? rename(a.arg0[x], pi) : a.arg0[x]) != b.arg0[y] || a.arg1[x] != b.arg1[y]) {
                return null;
            }
            int k = dom.outcomes(op);
            for (int o = 0; o < k; o++) {
                int ob = op.outcome == Op.Outcome.OWNER ? (int) rename(o, pi) : o;
                int tx = a.next(x, o);
                int ty = b.next(y, ob);
                if ((tx < 0) != (ty < 0)) {
                    return null;
                }
                if (tx < 0) {
                    continue;
                }
                if (map[tx] < 0) {
                    map[tx] = ty;
                    todo.add(new int[] {tx, ty});
                } else if (map[tx] != ty) {
                    return null;
                }
            }
        }
        return map;
    }
}
