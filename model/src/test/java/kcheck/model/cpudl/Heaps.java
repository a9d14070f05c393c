package kcheck.model.cpudl;

import java.util.List;

/** Builds heaps by running calls, for the reference-implementation tests. */
final class Heaps {
    private Heaps() {
    }

    static Cpudl run(CpudlHeap heap, int cpus, CpudlWorkload.Op... ops) {
        Cpudl cp = Cpudl.init(cpus);
        for (CpudlWorkload.Op op : ops) {
            op.apply(heap, cp);
        }
        return cp;
    }

    static CpudlWorkload.Op set(int cpu, long dl) {
        return CpudlWorkload.Op.set(cpu, dl);
    }

    static CpudlWorkload.Op clear(int cpu) {
        return CpudlWorkload.Op.clear(cpu);
    }

    /** Stores made by the last of {@code ops}. */
    static long storesOfLast(CpudlHeap heap, int cpus, List<CpudlWorkload.Op> ops) {
        Cpudl cp = Cpudl.init(cpus);
        for (CpudlWorkload.Op op : ops) {
            cp.resetWrites();
            op.apply(heap, cp);
        }
        return cp.writes();
    }
}
