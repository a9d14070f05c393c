package kcheck.properties.cpudl;

import static kcheck.model.cpudl.Deadlines.dlTimeBefore;

import java.util.Map;
import java.util.TreeMap;

import kcheck.model.cpudl.Cpudl;
import kcheck.model.cpudl.Cpumask;
import kcheck.model.cpudl.Deadlines;

/**
 * The plain reference map of the suites, written independently of the model's
 * {@code CpudlReference}: a {@link TreeMap} from CPU to deadline and the answers a heap must give.
 */
final class PlainMap {
    final TreeMap<Integer, Long> dl = new TreeMap<>();

    void set(int cpu, long d) {
        dl.put(cpu, d);
    }

    void clear(int cpu) {
        dl.remove(cpu);
    }

    long latest() {
        return dl.values().stream().reduce((a, b) -> dlTimeBefore(a, b) ? b : a).orElseThrow();
    }

    boolean liveDuplicate(int cpu, long d) {
        for (Map.Entry<Integer, Long> e : dl.entrySet()) {
            if (e.getKey() != cpu && e.getValue() == d) {
                return true;
            }
        }
        return false;
    }

    /** Why the root of {@code cp} is not the latest entry of the map, or null. */
    String rootIsLatest(Cpudl cp) {
        if (cp.size != dl.size()) {
            return "heap size " + cp.size + " but " + dl.size() + " CPUs have a deadline";
        }
        if (cp.size == 0) {
            return null;
        }
        Long mine = dl.get(cp.cpu(0));
        if (mine == null || mine != cp.dl(0)) {
            return "root " + cp.cpu(0) + ":" + Deadlines.format(cp.dl(0)) + " is not in the map " + this;
        }
        if (dlTimeBefore(cp.dl(0), latest())) {
            return "root " + Deadlines.format(cp.dl(0)) + " is earlier than the latest " + Deadlines.format(latest());
        }
        return null;
    }

    /** Why {@code answer} is not a correct cpudl_find answer for this map, or null. */
    String find(int answer, long task, Cpumask allowed) {
        for (int c = 0; c < allowed.nrCpus(); c++) {
            if (allowed.testCpu(c) && !dl.containsKey(c)) {
                return answer == c ? null : "find(" + Deadlines.format(task) + ", " + allowed + ") = " + answer
                        + " but free allowed cpu " + c + " comes first";
            }
        }
        if (dl.isEmpty()) {
            return answer == -1 ? null : "find on an empty map = " + answer;
        }
        long m = latest();
        for (Map.Entry<Integer, Long> e : dl.entrySet()) {
            if (e.getValue() == m) {
                int expected = allowed.testCpu(e.getKey()) && dlTimeBefore(task, m) ? e.getKey() : -1;
                if (expected == answer) {
                    return null;
                }
            }
        }
        return "find(" + Deadlines.format(task) + ", " + allowed + ") = " + answer + " but the latest is " + Deadlines.format(m)
                + " in " + this;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        dl.forEach((c, d) -> b.append(b.length() > 1 ? " " : "").append(c).append(':').append(Deadlines.format(d)));
        return b.append('}').toString();
    }
}
