package kcheck.litmus;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prints an execution as a witness: a timeline with a column per CPU, its events in program order
 * (labelled A, B, C...), then the rf edges (reads-from, {@code init} for the initial value) and the co edges (coherence: the order of each
 * location's writes, initial write first), then the final state the condition looked at.
 */
final class Witness {
    private Witness() {
    }

    static String print(Execution x, Map<String, Val> state, LitmusTest test) {
        Skeleton s = x.s;
        String[] names = new String[s.n];
        int next = 0;
        for (int i = 0; i < s.n; i++) {
            names[i] = s.thread[i] < 0 ? "init:" + s.ev[i].loc : label(next++);
        }
        StringBuilder b = new StringBuilder();
        List<List<String>> columns = new ArrayList<>();
        int rows = 0;
        for (ThreadPath p : s.paths) {
            List<String> cells = new ArrayList<>();
            cells.add("P" + p.thread());
            for (int i = 0; i < s.n; i++) {
                if (s.thread[i] == p.thread()) {
                    cells.add(names[i] + ": " + s.ev[i].label());
                }
            }
            columns.add(cells);
            rows = Math.max(rows, cells.size());
        }
        for (int row = 0; row < rows; row++) {
            StringBuilder line = new StringBuilder(" ");
            for (List<String> cells : columns) {
                int width = cells.stream().mapToInt(String::length).max().orElse(0);
                String cell = row < cells.size() ? cells.get(row) : "";
                line.append(" | ").append(cell).append(" ".repeat(width - cell.length()));
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        b.append("  rf:").append(edges(x.rf, names, s, false)).append('\n');
        Rel coImmediate = x.co.immediate();
        b.append("  co:").append(edges(coImmediate, names, s, true)).append('\n');
        Map<String, Val> shown = new TreeMap<>();
        List<String> keys = new ArrayList<>(test.locations());
        collectKeys(test.condition(), keys);
        for (String k : keys) {
            shown.put(k, state.getOrDefault(k, Val.ZERO));
        }
        b.append("  final:");
        shown.forEach((k, v) -> b.append(' ').append(k).append('=').append(v).append(';'));
        return b.toString();
    }

    private static String edges(Rel r, String[] names, Skeleton s, boolean skipLocks) {
        StringBuilder b = new StringBuilder();
        int count = 0;
        for (int i = 0; i < s.n; i++) {
            Bits row = r.row(i);
            for (int j = row.first(); j >= 0; j = row.next(j + 1)) {
                b.append(count++ == 0 ? " " : ", ").append(names[i]).append(" -> ").append(names[j]);
            }
        }
        return count == 0 ? " (none)" : b.toString();
    }

    private static String label(int k) {
        return k < 26 ? String.valueOf((char) ('A' + k)) : "E" + k;
    }

    private static void collectKeys(Cond c, List<String> keys) {
        if (c instanceof Cond.Atom a) {
            if (!keys.contains(a.key())) {
                keys.add(a.key());
            }
            if (a.otherKey() != null && !keys.contains(a.otherKey())) {
                keys.add(a.otherKey());
            }
        } else if (c instanceof Cond.And a) {
            collectKeys(a.left(), keys);
            collectKeys(a.right(), keys);
        } else if (c instanceof Cond.Or o) {
            collectKeys(o.left(), keys);
            collectKeys(o.right(), keys);
        } else if (c instanceof Cond.Not n) {
            collectKeys(n.operand(), keys);
        }
    }
}
