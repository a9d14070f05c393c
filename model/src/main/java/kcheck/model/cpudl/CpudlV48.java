package kcheck.model.cpudl;

import static kcheck.model.cpudl.Cpudl.IDX_INVALID;
import static kcheck.model.cpudl.Cpudl.leftChild;
import static kcheck.model.cpudl.Cpudl.parent;
import static kcheck.model.cpudl.Cpudl.rightChild;
import static kcheck.model.cpudl.Deadlines.dlTimeBefore;

import kcheck.model.Kernel;

/**
 * The heap as in v4.0 to v4.8: sift by swaps ({@code cpudl_exchange}), one entry point
 * {@code cpudl_set(cp, cpu, dl, is_valid)}, and the insert that stores {@code dl = 0} in the new
 * leaf before {@code cpudl_change_key()}: for {@code dl >= 2^63}, {@code dl_time_before(dl, 0)}
 * holds, so the new entry is treated as a decrease and sifted down from a leaf (the wrap-around
 * bug of the post).
 */
public class CpudlV48 implements CpudlHeap {

    @Override
    public String version() {
        return "v4.8";
    }

    /** {@code cpudl_exchange(cp, a, b)}: swaps the cpu/dl of two slots and the two CPUs' idx. */
    @Kernel(function = "cpudl_exchange", file = "kernel/sched/cpudeadline.c", version = "v4.8")
    protected void cpudlExchange(Cpudl cp, int a, int b) {
        int cpuA = cp.cpu(a);
        int cpuB = cp.cpu(b);

        /* swap(cp->elements[a].cpu, cp->elements[b].cpu); and the same for dl */
        cp.setCpu(a, cpuB);
        cp.setCpu(b, cpuA);
        long td = cp.dl(a);
        cp.setDl(a, cp.dl(b));
        cp.setDl(b, td);

        /* swap(cp->elements[cpu_a].idx, cp->elements[cpu_b].idx); */
        int ti = cp.idx(cpuA);
        cp.setIdx(cpuA, cp.idx(cpuB));
        cp.setIdx(cpuB, ti);
    }

    /** {@code cpudl_heapify(cp, idx)}: sift down by swaps (adapted from lib/prio_heap.c). */
    @Kernel(function = "cpudl_heapify", file = "kernel/sched/cpudeadline.c", version = "v4.8")
    protected void cpudlHeapify(Cpudl cp, int idx) {
        int l;
        int r;
        int largest;

        while (true) {
            l = leftChild(idx);
            r = rightChild(idx);
            largest = idx;

            if (l < cp.size && dlTimeBefore(cp.dl(idx), cp.dl(l))) {
                largest = l;
            }
            if (r < cp.size && dlTimeBefore(cp.dl(largest), cp.dl(r))) {
                largest = r;
            }
            if (largest == idx) {
                break;
            }

            /* Push idx down the heap one level and bump one up */
            cpudlExchange(cp, largest, idx);
            idx = largest;
        }
    }

    /** {@code cpudl_change_key(cp, idx, new_dl)}: store, then sift down if earlier, else up. */
    @Kernel(function = "cpudl_change_key", file = "kernel/sched/cpudeadline.c", version = "v4.8")
    protected void cpudlChangeKey(Cpudl cp, int idx, long newDl) {
        if (dlTimeBefore(newDl, cp.dl(idx))) {
            cp.setDl(idx, newDl);
            cpudlHeapify(cp, idx);
        } else {
            cp.setDl(idx, newDl);
            while (idx > 0 && dlTimeBefore(cp.dl(parent(idx)), cp.dl(idx))) {
                cpudlExchange(cp, idx, parent(idx));
                idx = parent(idx);
            }
        }
    }

    /** {@code cpudl_set(cp, cpu, dl, is_valid)}: remove ({@code !is_valid}), insert or update. */
    @Kernel(function = "cpudl_set", file = "kernel/sched/cpudeadline.c", version = "v4.8")
    public void cpudlSet(Cpudl cp, int cpu, long dl, int isValid) {
        int oldIdx;
        int newCpu;

        cp.warnOn(!cp.cpuPresent(cpu), CpudlFault.WARN_CPU_PRESENT, cpu);

        oldIdx = cp.idx(cpu);
        if (isValid == 0) {
            /* remove item */
            if (oldIdx == IDX_INVALID) {
                /* Nothing to remove if old_idx was invalid. */
                return;
            }
            newCpu = cp.cpu(cp.size - 1);
            cp.setDl(oldIdx, cp.dl(cp.size - 1));
            cp.setCpu(oldIdx, newCpu);
            cp.size--;
            cp.setIdx(newCpu, oldIdx);
            cp.setIdx(cpu, IDX_INVALID);
            while (oldIdx > 0 && dlTimeBefore(cp.dl(parent(oldIdx)), cp.dl(oldIdx))) {
                cpudlExchange(cp, oldIdx, parent(oldIdx));
                oldIdx = parent(oldIdx);
            }
            cp.freeCpus.setCpu(cpu);
            cpudlHeapify(cp, oldIdx);
            return;
        }

        if (oldIdx == IDX_INVALID) {
            cp.size++;
            cp.setDl(cp.size - 1, 0);
            cp.setCpu(cp.size - 1, cpu);
            cp.setIdx(cpu, cp.size - 1);
            cpudlChangeKey(cp, cp.size - 1, dl);
            cp.freeCpus.clearCpu(cpu);
        } else {
            cpudlChangeKey(cp, oldIdx, dl);
        }
    }

    /** {@code cpudl_set(cp, cpu, dl, 1)}. */
    @Override
    @Kernel(function = "cpudl_set", file = "kernel/sched/cpudeadline.c", version = "v4.8")
    public void set(Cpudl cp, int cpu, long dl) {
        cpudlSet(cp, cpu, dl, 1);
    }

    /** {@code cpudl_set(cp, cpu, 0, 0)}: v4.8 has no {@code cpudl_clear()}. */
    @Override
    @Kernel(function = "cpudl_set", file = "kernel/sched/cpudeadline.c", version = "v4.8")
    public void clear(Cpudl cp, int cpu) {
        cpudlSet(cp, cpu, 0, 0);
    }

    /** {@code rq_online_dl(rq)} v4.8: {@code cpudl_set_freecpu()}, then {@code cpudl_set()} if the runqueue has deadline tasks. */
    @Override
    @Kernel(function = "rq_online_dl", file = "kernel/sched/deadline.c", version = "v4.8")
    public void rqOnlineDl(Cpudl cp, int cpu, boolean dlTasks, long earliest) {
        cp.setFreecpu(cpu);
        if (dlTasks) {
            set(cp, cpu, earliest);
        }
    }

    /** {@code rq_offline_dl(rq)} v4.8: remove the CPU from the heap, then {@code cpudl_clear_freecpu()}. */
    @Override
    @Kernel(function = "rq_offline_dl", file = "kernel/sched/deadline.c", version = "v4.8")
    public void rqOfflineDl(Cpudl cp, int cpu) {
        cpudlSet(cp, cpu, 0, 0);
        cp.clearFreecpu(cpu);
    }
}
