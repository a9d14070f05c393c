package kcheck.model.cpudl;

import static kcheck.model.cpudl.Cpudl.IDX_INVALID;
import static kcheck.model.cpudl.Cpudl.leftChild;
import static kcheck.model.cpudl.Cpudl.parent;
import static kcheck.model.cpudl.Cpudl.rightChild;
import static kcheck.model.cpudl.Deadlines.dlTimeBefore;

import kcheck.model.Kernel;

/**
 * The heap from v4.9 on (unchanged through v6.x), after Tommaso Cucinotta's series
 * ("sched/deadline: Make CPU heap faster avoiding real swaps on heapify" and the
 * {@code cpudl_set}/{@code cpudl_clear} split): {@code heapify_up}/{@code heapify_down} move a
 * hole instead of swapping, comparing against the original (cpu, dl) saved at the start and
 * writing it once at the end; the insert appends the real deadline and sifts it up.
 */
public class CpudlV49 implements CpudlHeap {

    @Override
    public String version() {
        return "v4.9";
    }

    /** {@code cpudl_heapify_down(cp, idx)}: pull the later child up until the original fits. */
    @Kernel(function = "cpudl_heapify_down", file = "kernel/sched/cpudeadline.c", version = "v4.9")
    protected void cpudlHeapifyDown(Cpudl cp, int idx) {
        int l;
        int r;
        int largest;

        int origCpu = cp.cpu(idx);
        long origDl = cp.dl(idx);

        if (leftChild(idx) >= cp.size) {
            return;
        }

        /* adapted from lib/prio_heap.c */
        while (true) {
            long largestDl;

            l = leftChild(idx);
            r = rightChild(idx);
            largest = idx;
            largestDl = origDl;

            if (l < cp.size && dlTimeBefore(origDl, cp.dl(l))) {
                largest = l;
                largestDl = cp.dl(l);
            }
            if (r < cp.size && dlTimeBefore(largestDl, cp.dl(r))) {
                largest = r;
            }

            if (largest == idx) {
                break;
            }

            /* pull largest child onto idx */
            cp.setCpu(idx, cp.cpu(largest));
            cp.setDl(idx, cp.dl(largest));
            cp.setIdx(cp.cpu(idx), idx);
            idx = largest;
        }
        /* actual push down of saved original values orig_* */
        cp.setCpu(idx, origCpu);
        cp.setDl(idx, origDl);
        cp.setIdx(cp.cpu(idx), idx);
    }

    /** {@code cpudl_heapify_up(cp, idx)}: pull parents down while the original is not earlier (ties climb). */
    @Kernel(function = "cpudl_heapify_up", file = "kernel/sched/cpudeadline.c", version = "v4.9")
    protected void cpudlHeapifyUp(Cpudl cp, int idx) {
        int p;

        int origCpu = cp.cpu(idx);
        long origDl = cp.dl(idx);

        if (idx == 0) {
            return;
        }

        do {
            p = parent(idx);
            if (dlTimeBefore(origDl, cp.dl(p))) {
                break;
            }
            /* pull parent onto idx */
            cp.setCpu(idx, cp.cpu(p));
            cp.setDl(idx, cp.dl(p));
            cp.setIdx(cp.cpu(idx), idx);
            idx = p;
        } while (idx != 0);
        /* actual push up of saved original values orig_* */
        cp.setCpu(idx, origCpu);
        cp.setDl(idx, origDl);
        cp.setIdx(cp.cpu(idx), idx);
    }

    /** {@code cpudl_heapify(cp, idx)}: up if the parent is earlier, else down. */
    @Kernel(function = "cpudl_heapify", file = "kernel/sched/cpudeadline.c", version = "v4.9")
    protected void cpudlHeapify(Cpudl cp, int idx) {
        if (idx > 0 && dlTimeBefore(cp.dl(parent(idx)), cp.dl(idx))) {
            cpudlHeapifyUp(cp, idx);
        } else {
            cpudlHeapifyDown(cp, idx);
        }
    }

    /**
     * {@code cpudl_clear(cp, cpu)}: move the last slot into the CPU's slot, shrink, fix both
     * indices (in this order: when the CPU is the last slot, its idx is first set to its own
     * old slot and then invalidated) and re-heapify from the slot (which is {@code size} then).
     */
    @Override
    @Kernel(function = "cpudl_clear", file = "kernel/sched/cpudeadline.c", version = "v4.9")
    public void clear(Cpudl cp, int cpu) {
        int oldIdx;
        int newCpu;

        cp.warnOn(!cp.cpuPresent(cpu), CpudlFault.WARN_CPU_PRESENT, cpu);

        oldIdx = cp.idx(cpu);
        if (oldIdx == IDX_INVALID) {
            /* Nothing to remove if old_idx was invalid. */
        } else {
            newCpu = cp.cpu(cp.size - 1);
            cp.setDl(oldIdx, cp.dl(cp.size - 1));
            cp.setCpu(oldIdx, newCpu);
            cp.size--;
            cp.setIdx(newCpu, oldIdx);
            cp.setIdx(cpu, IDX_INVALID);
            cpudlHeapify(cp, oldIdx);

            cp.freeCpus.setCpu(cpu);
        }
    }

    /** {@code cpudl_set(cp, cpu, dl)}: append and sift up, or store and re-heapify. */
    @Override
    @Kernel(function = "cpudl_set", file = "kernel/sched/cpudeadline.c", version = "v4.9")
    public void set(Cpudl cp, int cpu, long dl) {
        int oldIdx;

        cp.warnOn(!cp.cpuPresent(cpu), CpudlFault.WARN_CPU_PRESENT, cpu);

        oldIdx = cp.idx(cpu);
        if (oldIdx == IDX_INVALID) {
            int newIdx = cp.size++;

            cp.setDl(newIdx, dl);
            cp.setCpu(newIdx, cpu);
            cp.setIdx(cpu, newIdx);
            cpudlHeapifyUp(cp, newIdx);
            cp.freeCpus.clearCpu(cpu);
        } else {
            cp.setDl(oldIdx, dl);
            cpudlHeapify(cp, oldIdx);
        }
    }

    /** {@code rq_online_dl(rq)} v4.9: {@code cpudl_set_freecpu()}, then {@code cpudl_set()} if the runqueue has deadline tasks. */
    @Override
    @Kernel(function = "rq_online_dl", file = "kernel/sched/deadline.c", version = "v4.9")
    public void rqOnlineDl(Cpudl cp, int cpu, boolean dlTasks, long earliest) {
        cp.setFreecpu(cpu);
        if (dlTasks) {
            set(cp, cpu, earliest);
        }
    }

    /** {@code rq_offline_dl(rq)} v4.9: remove the CPU from the heap, then {@code cpudl_clear_freecpu()}. */
    @Override
    @Kernel(function = "rq_offline_dl", file = "kernel/sched/deadline.c", version = "v4.9")
    public void rqOfflineDl(Cpudl cp, int cpu) {
        clear(cp, cpu);
        cp.clearFreecpu(cpu);
    }
}
