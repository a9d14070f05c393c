package kcheck.model.lbredo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The machine one lb-redo instance explores: a scheduling domain of {@code nrCpus} CPUs split
 * into groups, the balancing CPU ({@code dst_cpu} = CPU 0, newly idle), the tasks on every CPU
 * outside the local group with their affinity masks, and how many pulls other CPUs may make
 * concurrently.
 *
 * <p>Each CPU outside the local group has one or more <em>patterns</em> (its initial runqueue:
 * the tasks' masks head first; the head task is {@code rq->curr}). The initial states are the
 * choices of one pattern per CPU. A domain built by {@link #scenario} is symmetric in those CPUs
 * (same patterns up to renaming the CPU, masks either every CPU or the task's own CPU), so only
 * sorted choices are enumerated: every other choice is a renaming of one of them.
 */
public final class LbDomain {
    public static final String RACE = "race";
    public static final String PINNED = "pinned";
    public static final String ALL = "all";

    /** The balancing CPU. */
    public static final int DST_CPU = 0;

    final int nrCpus;
    final int[] groupOf;
    final long active;
    final int pulls;
    /** [cpu][pattern][task]: affinity masks, head (running task) first; empty for local CPUs. */
    final long[][][] patterns;
    final boolean symmetric;
    final String description;

    /* derived */
    final long span;
    final long localSpan;
    /** CPUs outside the local group, ascending. */
    final int[] remote;
    final int[] cap;
    final int[] taskBase;
    final int nrTasks;

    private LbDomain(int nrCpus, int[] groupOf, long active, int pulls, long[][][] patterns, boolean symmetric,
                     String description) {
        if (nrCpus < 2 || nrCpus > 64) {
            throw new IllegalArgumentException("cpus must be 2..64, got " + nrCpus);
        }
        this.nrCpus = nrCpus;
        this.groupOf = groupOf.clone();
        this.span = nrCpus == 64 ? -1L : (1L << nrCpus) - 1;
        this.active = active & span;
        this.pulls = pulls;
        this.patterns = patterns;
        this.symmetric = symmetric;
        this.description = description;
        long local = 0;
        for (int c = 0; c < nrCpus; c++) {
            if (groupOf[c] == groupOf[DST_CPU]) {
                local |= 1L << c;
            }
        }
        this.localSpan = local;
        List<Integer> r = new ArrayList<>();
        cap = new int[nrCpus];
        taskBase = new int[nrCpus];
        int t = 0;
        for (int c = 0; c < nrCpus; c++) {
            taskBase[c] = t;
            for (long[] p : patterns[c]) {
                cap[c] = Math.max(cap[c], p.length);
            }
            if ((local & (1L << c)) == 0) {
                r.add(c);
            } else if (cap[c] > 0) {
                throw new IllegalArgumentException("CPU " + c + " is in the local group: it has no modelled tasks");
            }
            if (cap[c] > 8) {
                throw new IllegalArgumentException("at most 8 tasks per CPU, CPU " + c + " has " + cap[c]);
            }
            t += cap[c];
        }
        this.remote = r.stream().mapToInt(Integer::intValue).toArray();
        this.nrTasks = t;
    }

    /**
     * The domains of {@code --param scenario=...}: {@code cpus} CPUs in {@code groups} contiguous
     * groups of near-equal size (the first groups one larger), CPU 0 newly idle in group 0.
     * <ul>
     * <li>{@code race}: every CPU outside the local group runs {@code tasks} tasks that may run
     * anywhere; other CPUs make up to {@code pulls} pulls concurrently;</li>
     * <li>{@code pinned}: each such CPU runs one task, or {@code tasks} tasks each either free or
     * pinned to that CPU (every combination); no concurrent pulls;</li>
     * <li>{@code all}: the patterns of {@code pinned} with the pulls of {@code race}.</li>
     * </ul>
     */
    public static LbDomain scenario(int cpus, int groups, String scenario, int tasks, int pulls) {
        int[] groupOf = contiguousGroups(cpus, groups);
        long span = cpus == 64 ? -1L : (1L << cpus) - 1;
        long[][][] patterns = new long[cpus][][];
        for (int c = 0; c < cpus; c++) {
            if (groupOf[c] == groupOf[DST_CPU]) {
                patterns[c] = new long[][] {{}};
                continue;
            }
            List<long[]> ps = new ArrayList<>();
            if (scenario.equals(RACE)) {
                long[] free = new long[tasks];
                Arrays.fill(free, span);
                ps.add(free);
            } else {
                ps.add(new long[] {span});
                for (int pin = 0; pin < (1 << tasks); pin++) {
                    long[] p = new long[tasks];
                    for (int i = 0; i < tasks; i++) {
                        p[i] = (pin & (1 << i)) != 0 ? 1L << c : span;
                    }
                    ps.add(p);
                }
            }
            patterns[c] = ps.toArray(long[][]::new);
        }
        return new LbDomain(cpus, groupOf, span, pulls, patterns, true,
                scenario + ": " + cpus + " CPUs in " + groups + " groups, " + tasks + " tasks per busy CPU, " + pulls + " pulls");
    }

    /**
     * A domain given in full (for generated tests): the group of each CPU, the active CPUs, and
     * per CPU outside the local group its runqueue (affinity masks, head first). One initial state.
     */
    public static LbDomain custom(int cpus, int[] groupOf, long active, long[][] rqMasks, int pulls) {
        long[][][] patterns = new long[cpus][][];
        for (int c = 0; c < cpus; c++) {
            patterns[c] = new long[][] {rqMasks[c] == null ? new long[0] : rqMasks[c].clone()};
        }
        StringBuilder b = new StringBuilder("custom: groups ").append(Arrays.toString(groupOf));
        return new LbDomain(cpus, groupOf, active, pulls, patterns, false, b.toString());
    }

    /** Group of each CPU when {@code cpus} CPUs are split into {@code groups} contiguous groups. */
    public static int[] contiguousGroups(int cpus, int groups) {
        int[] out = new int[cpus];
        int base = cpus / groups;
        int extra = cpus % groups;
        int c = 0;
        for (int g = 0; g < groups; g++) {
            int size = base + (g < extra ? 1 : 0);
            for (int i = 0; i < size; i++) {
                out[c++] = g;
            }
        }
        return out;
    }

    public int nrCpus() {
        return nrCpus;
    }

    public int pulls() {
        return pulls;
    }

    /** The CPUs of the local group (the group of CPU 0). */
    public long localSpan() {
        return localSpan;
    }

    /** {@code cpus} at the start of a call: the domain span and the active CPUs. */
    public long cpus0() {
        return span & active;
    }

    /** |cpus0 \ local group|: how many CPUs can ever be the busiest queue. */
    public int candidates() {
        return Long.bitCount(cpus0() & ~localSpan);
    }

    public String description() {
        return description;
    }
}
