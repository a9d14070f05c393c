package kcheck.model.cpudl;

import static kcheck.model.cpudl.Cpudl.IDX_INVALID;
import static kcheck.model.cpudl.Cpudl.parent;
import static kcheck.model.cpudl.Deadlines.dlTimeBefore;
import static kcheck.model.cpudl.Deadlines.format;

/**
 * The properties of the cpudl model (docs/models/cpudl.md) as checks on a {@link Cpudl} (and the reference map),
 * shared by the explicit-state model and the generated-input suites. Each returns {@code null}
 * when the property holds and a one-line explanation when it does not (so the hot path does not
 * allocate).
 */
public final class CpudlInvariants {
    private CpudlInvariants() {
    }

    /** {@code heap-order}: for every slot h >= 1 the parent is not earlier than h. */
    public static String heapOrder(Cpudl cp) {
        for (int h = 1; h < cp.size; h++) {
            int p = parent(h);
            if (dlTimeBefore(cp.dl(p), cp.dl(h))) {
                return "slot " + p + " (cpu " + cp.cpu(p) + ", dl " + format(cp.dl(p)) + ") is earlier than its child slot "
                        + h + " (cpu " + cp.cpu(h) + ", dl " + format(cp.dl(h)) + ")";
            }
        }
        return null;
    }

    /**
     * {@code index-consistent}: {@code elements[elements[h].cpu].idx == h} for h < size (so no CPU
     * twice); a CPU with a valid idx points into the heap at itself; {@code size} equals the
     * number of CPUs with a valid idx.
     */
    public static String indexConsistent(Cpudl cp) {
        int n = cp.nrCpus();
        if (cp.size < 0 || cp.size > n) {
            return "size " + cp.size + " is out of 0.." + n;
        }
        for (int h = 0; h < cp.size; h++) {
            int c = cp.cpu(h);
            if (c < 0 || c >= n) {
                return "slot " + h + " holds cpu " + c + ", not a CPU";
            }
            if (cp.idx(c) != h) {
                return "slot " + h + " holds cpu " + c + " but elements[" + c + "].idx = " + idxName(cp.idx(c));
            }
        }
        int present = 0;
        for (int c = 0; c < n; c++) {
            int i = cp.idx(c);
            if (i == IDX_INVALID) {
                continue;
            }
            present++;
            if (i < 0 || i >= cp.size || cp.cpu(i) != c) {
                return "elements[" + c + "].idx = " + i + " but cpu " + c + " is not in heap slot " + i + " (size " + cp.size + ")";
            }
        }
        if (present != cp.size) {
            return "size is " + cp.size + " but " + present + " CPUs have a valid idx";
        }
        return null;
    }

    /** {@code free-cpus}: a CPU is in free_cpus iff it has no heap entry (its idx is invalid). */
    public static String freeCpus(Cpudl cp) {
        for (int c = 0; c < cp.nrCpus(); c++) {
            boolean entry = cp.idx(c) != IDX_INVALID;
            if (cp.freeCpus.testCpu(c) == entry) {
                return entry ? "cpu " + c + " has heap entry " + cp.idx(c) + " but is in free_cpus"
                        : "cpu " + c + " has no heap entry but is not in free_cpus";
            }
        }
        return null;
    }

    /**
     * {@code free-cpus} with CPUs whose runqueue may be offline (the hotplug dimension): a CPU is in
     * free_cpus iff its runqueue is online in this root domain and it has no heap entry.
     */
    public static String freeCpus(Cpudl cp, CpudlReference ref) {
        for (int c = 0; c < cp.nrCpus(); c++) {
            boolean entry = cp.idx(c) != IDX_INVALID;
            boolean expected = ref.isOnline(c) && !entry;
            if (cp.freeCpus.testCpu(c) != expected) {
                if (!ref.isOnline(c) && cp.freeCpus.testCpu(c)) {
                    return "cpu " + c + " is in free_cpus but its runqueue is offline";
                }
                return entry ? "cpu " + c + " has heap entry " + cp.idx(c) + " but is in free_cpus"
                        : "cpu " + c + " has no heap entry and an online runqueue but is not in free_cpus";
            }
        }
        return null;
    }

    /**
     * {@code find-sound} for the v4.15+ contract: {@code cpudl_find()} returned {@code ret} with
     * {@code mask} in {@code later_mask}; see {@link CpudlReference#findAcceptsMask}.
     */
    public static String findSoundMask(int ret, long mask, DlTask p, CpudlReference ref, Cpudl env) {
        if (ref.findAcceptsMask(ret, mask, p, env)) {
            return null;
        }
        long free = ref.freeAllowedMask(p.cpusMask);
        String expected = free != 0 ? "1, later_mask=" + maskString(CpudlReference.expectedFreeCandidates(free, p, env), ref.nrCpus())
                : "the heap's answer for the latest deadline";
        return "cpudl_find(" + p + ") returns " + ret + ", later_mask=" + maskString(mask, ref.nrCpus()) + " but the reference map " + ref
                + " gives " + expected;
    }

    /**
     * {@code find-capacity}: on a system with asymmetric CPU capacities, when the task may run on a
     * free CPU whose capacity fits it, the answer's capacity fits: the returned CPU (v4.x), or a non-empty {@code later_mask} of fitting CPUs (v4.15+).
     * {@code answerMask}: the returned CPU as a one-bit mask for v4.x, {@code later_mask} otherwise.
     */
    public static String findCapacity(int ret, long answerMask, DlTask p, CpudlReference ref, Cpudl env) {
        if (!env.schedAsymCpucapActive()) {
            return null;
        }
        long fit = CpudlReference.fitting(ref.freeAllowedMask(p.cpusMask), p, env);
        if (fit == 0) {
            return null;
        }
        boolean allFit = answerMask != 0;
        for (long m = answerMask; m != 0; m &= m - 1) {
            allFit &= DlTask.dlTaskFitsCapacity(env, p, Long.numberOfTrailingZeros(m));
        }
        if (ret == 1 && allFit) {
            return null;
        }
        return "cpudl_find(" + p + ") answers " + maskString(answerMask, ref.nrCpus()) + " (return " + ret + ") although free CPUs "
                + maskString(fit, ref.nrCpus()) + " fit the task (capacities " + capacities(env) + ")";
    }

    static String capacities(Cpudl env) {
        StringBuilder b = new StringBuilder("[");
        for (int c = 0; c < env.nrCpus(); c++) {
            b.append(c == 0 ? "" : " ").append(env.archScaleCpuCapacity(c));
        }
        return b.append(']').toString();
    }

    /** {@code {0,2}} for bits 0 and 2. */
    public static String maskString(long m, int n) {
        StringBuilder b = new StringBuilder("{");
        boolean first = true;
        for (int c = 0; c < Math.min(n, 64); c++) {
            if ((m & 1L << c) != 0) {
                b.append(first ? "" : ",").append(c);
                first = false;
            }
        }
        return b.append('}').toString();
    }

    /**
     * {@code root-is-latest}: the heap is empty iff the reference map is, and otherwise the root
     * holds a (cpu, dl) pair of the map whose deadline no live deadline is later than.
     */
    public static String rootIsLatest(Cpudl cp, CpudlReference ref) {
        if (cp.size == 0 || ref.count() == 0) {
            return cp.size == 0 && ref.count() == 0 ? null
                    : "heap size " + cp.size + " but " + ref.count() + " CPUs have a deadline " + ref;
        }
        int c = cp.cpu(0);
        long root = cp.dl(0);
        if (c < 0 || c >= ref.nrCpus() || !ref.isLive(c) || ref.dl(c) != root) {
            return "root is cpu " + c + " with dl " + format(root) + ", not an entry of " + ref;
        }
        long latest = ref.latest();
        if (dlTimeBefore(root, latest)) {
            return "root dl " + format(root) + " (cpu " + c + ") is earlier than the latest deadline " + format(latest) + " of " + ref;
        }
        return null;
    }

    /** {@code find-sound}: the answer of {@code cpudl_find()} is one the reference map allows. */
    public static String findSound(int answer, long deadline, Cpumask allowed, CpudlReference ref) {
        if (ref.findAccepts(answer, deadline, allowed)) {
            return null;
        }
        return "cpudl_find(dl=" + format(deadline) + ", allowed=" + allowed + ") returns " + answer + " but the reference map "
                + ref + " gives " + ref.expectedFind(deadline, allowed);
    }

    /** {@code same-heap}: both heaps have identical slots in use, reverse index and size. */
    public static String sameHeap(Cpudl a, Cpudl b, String nameA, String nameB) {
        if (a.sameHeapAs(b)) {
            return null;
        }
        return nameA + " heap=" + a.heapString() + " idx=" + a.idxString() + " but " + nameB + " heap=" + b.heapString()
                + " idx=" + b.idxString();
    }

    private static String idxName(int i) {
        return i == IDX_INVALID ? "IDX_INVALID" : Integer.toString(i);
    }
}
