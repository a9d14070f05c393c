package kcheck.model.rwsem;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The permutations of tasks the model may treat as equivalent: readers among readers (only when
 * readers store their own task pointer; anonymous readers are sorted instead, see
 * {@link RwsemSymmetry}) and writers among writers with the same RT flag, under which the
 * recorded programs correspond node for node once task pointers are renamed (a program names its
 * own task in {@code rwsem_set_owner} and other tasks in {@code owner->on_cpu} and in owner
 * values it has loaded). For each permutation {@code pi} and task {@code t}, {@link #pcMap}
 * takes a node of {@code t}'s program to the node of {@code pi(t)}'s program that does the same
 * thing with the renamed tasks.
 */
final class TaskSymmetry {
    /** {@code perms[i][t]}: where permutation i sends task t. perms[0] is the identity. */
    final int[][] perms;
    /** {@code pcMap[i][t][node]}. */
    final int[][][] pcMap;

    private TaskSymmetry(int[][] perms, int[][][] pcMap) {
        this.perms = perms;
        this.pcMap = pcMap;
    }

    /** The symmetry of these programs (readers first, then writers); only the identity if nothing corresponds. */
    static TaskSymmetry of(TaskProgram[] prog, boolean[] rt, RwsemDomain dom) {
        int n = prog.length;
        int nr = dom.readers();
        int[] group = new int[n];
        for (int t = 0; t < n; t++) {
            group[t] = t < nr ? (dom.readersAnonymous() ? -1 - t : 0) : (rt[t - nr] ? 2 : 1);
        }
        List<int[]> perms = new ArrayList<>();
        permutations(new int[n], new boolean[n], 0, group, perms);
        List<int[]> kept = new ArrayList<>();
        List<int[][]> maps = new ArrayList<>();
        for (int[] pi : perms) {
            int[][] map = new int[n][];
            boolean ok = true;
            for (int t = 0; t < n && ok; t++) {
                map[t] = correspond(prog[t], prog[pi[t]], pi, dom);
                ok = map[t] != null;
            }
            if (ok) {
                kept.add(pi);
                maps.add(map);
            }
        }
        int id = -1;
        for (int i = 0; i < kept.size(); i++) {
            boolean isId = true;
            for (int t = 0; t < n; t++) {
                isId &= kept.get(i)[t] == t;
            }
            if (isId) {
                id = i;
            }
        }
        int[] idPerm = kept.remove(id);
        int[][] idMap = maps.remove(id);
        kept.add(0, idPerm);
        maps.add(0, idMap);
        return new TaskSymmetry(kept.toArray(int[][]::new), maps.toArray(int[][][]::new));
    }

    /** Only the identity (no task is renamed). */
    static TaskSymmetry identity(TaskProgram[] prog) {
        int n = prog.length;
        int[] id = new int[n];
        int[][] map = new int[n][];
        for (int t = 0; t < n; t++) {
            id[t] = t;
            map[t] = new int[prog[t].op.length];
            for (int node = 0; node < map[t].length; node++) {
                map[t][node] = node;
            }
        }
        return new TaskSymmetry(new int[][] {id}, new int[][][] {map});
    }

    boolean trivial() {
        return perms.length == 1;
    }

    /** True if some permutation moves a reader. */
    boolean movesReaders(int readers) {
        for (int[] pi : perms) {
            for (int r = 0; r < readers; r++) {
                if (pi[r] != r) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void permutations(int[] cur, boolean[] used, int t, int[] group, List<int[]> out) {
        if (t == cur.length) {
            out.add(cur.clone());
            return;
        }
        for (int v = 0; v < cur.length; v++) {
            if (!used[v] && group[v] == group[t]) {
                used[v] = true;
                cur[t] = v;
                permutations(cur, used, t + 1, group, out);
                used[v] = false;
            }
        }
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
            long a0 = op.ownerArg0() ? dom.renameOwner(a.arg0[x], pi) : a.arg0[x];
            long a1 = op == Op.OWNER_CMPXCHG ? dom.renameOwner(a.arg1[x], pi) : a.arg1[x];
            if (a0 != b.arg0[y] || a1 != b.arg1[y]) {
                return null;
            }
            int k = dom.outcomes(op);
            for (int o = 0; o < k; o++) {
                int ob = op.outcome == Op.Outcome.OWNER ? dom.ownerIndex(dom.renameOwner(dom.ownerValue(o), pi))
                        : op.outcome == Op.Outcome.TASK ? pi[o] : o;
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
