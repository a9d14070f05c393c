package kcheck.model.cpudl;

import static kcheck.model.cpudl.Cpudl.IDX_INVALID;
import static kcheck.model.cpudl.Cpudl.parent;
import static kcheck.model.cpudl.Deadlines.dlTimeBefore;
import static kcheck.model.cpudl.Deadlines.format;

/**
 * The properties of KERNEL.md section 2 as checks on a {@link Cpudl} (and the reference map),
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
