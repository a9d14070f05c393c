package kcheck.model.cpudl;

import java.util.List;

/**
 * The capacity dimension of the cpudl model (parameter {@code capacity}): which CPU capacities
 * ({@code arch_scale_cpu_capacity}) the heap is checked under, and which tasks
 * ({@code p->dl.dl_density}, {@code task_cpu(p)}) {@code cpudl_find()} is asked about.
 *
 * <ul>
 * <li>{@code sym} (default): every CPU 1024, {@code sched_asym_cpucap_active()} false, one task
 * shape per deadline and affinity (as in earlier releases).</li>
 * <li>{@code big-little}: the lower half of the CPUs (rounded down) little (512), the rest big
 * (1024); asymmetric.</li>
 * <li>{@code any}: every assignment of little/big to the CPUs is an initial state (2^cpus of
 * them); asymmetric unless all equal.</li>
 * </ul>
 *
 * With asymmetric capacities each find is asked for a task of density 0.25 (fits every CPU) and
 * 0.75 (fits only a big CPU), on every CPU ({@code task_cpu}, the fallback's tie-break).
 */
final class CpudlCapacity {
    static final long LITTLE = 512;
    static final long BIG = Cpudl.SCHED_CAPACITY_SCALE;
    /** Task densities when capacities matter: 0.25 and 0.75 (2^20 = 1.0). */
    static final long[] DENSITIES = {1L << 18, 3L << 18};

    private CpudlCapacity() {
    }

    static List<String> names() {
        return List.of("sym", "big-little", "any");
    }

    /** The fixed capacities of {@code mode} (for {@code any}: all big; the state decides). */
    static long[] fixed(String mode, int n) {
        long[] caps = new long[n];
        for (int c = 0; c < n; c++) {
            caps[c] = mode.equals("big-little") && c < n / 2 ? LITTLE : BIG;
        }
        return caps;
    }
}
