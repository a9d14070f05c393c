package kcheck.model.cpudl;

import static kcheck.model.cpudl.Cpudl.IDX_INVALID;
import static kcheck.model.cpudl.Cpudl.parent;
import static kcheck.model.cpudl.Deadlines.dlTimeBefore;

import kcheck.model.Kernel;

/**
 * The heap as posted for review in July 2016 ("SCHED_DEADLINE cpudeadline.{h,c} fixup", v2 of
 * the series, 19 July 2016), fixed before merge. Source: the kernel file with the series applied
 * as kept in the benchmark repository the cover letter links to (github.com/tomcucinotta/
 * cpudl-bench, {@code cpudeadline-bugfix-fast-orig.c}, commit 26b581f2): its
 * {@code cpudl_heapify_up()} compares the slot's <em>current</em> dl
 * ({@code cp->elements[idx].dl}) with the parent's instead of the saved original; after the
 * first pull that slot holds the parent's old entry, so the loop stops: an entry climbs one
 * level only. Its {@code cpudl_clear()} also differs from v4.9: it shrinks first and moves the
 * last slot (and re-heapifies) only when the removed CPU was not the last slot.
 * {@code cpudl_heapify_down()} and {@code cpudl_set()} are as in v4.9.
 */
public class CpudlRfcV2 extends CpudlV49 {

    @Override
    public String version() {
        return "rfc-v2 (July 2016)";
    }

    /** {@code cpudl_heapify_up(cp, idx)} as posted: compares the current slot, not the original. */
    @Override
    @Kernel(function = "cpudl_heapify_up", file = "kernel/sched/cpudeadline.c", version = "rfc-v2 (July 2016)")
    protected void cpudlHeapifyUp(Cpudl cp, int idx) {
        int p;

        int origCpu = cp.cpu(idx);
        long origDl = cp.dl(idx);

        if (idx == 0) {
            return;
        }

        do {
            p = parent(idx);
            if (dlTimeBefore(cp.dl(idx), cp.dl(p))) {
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

    /** {@code cpudl_heapify(cp, idx)} as posted (returns on an invalid index). */
    @Override
    @Kernel(function = "cpudl_heapify", file = "kernel/sched/cpudeadline.c", version = "rfc-v2 (July 2016)")
    protected void cpudlHeapify(Cpudl cp, int idx) {
        if (idx == IDX_INVALID) {
            return;
        }
        if (idx > 0 && dlTimeBefore(cp.dl(parent(idx)), cp.dl(idx))) {
            cpudlHeapifyUp(cp, idx);
        } else {
            cpudlHeapifyDown(cp, idx);
        }
    }

    /** {@code cpudl_clear(cp, cpu)} as posted: shrink, invalidate, then move the last slot if it is another one. */
    @Override
    @Kernel(function = "cpudl_clear", file = "kernel/sched/cpudeadline.c", version = "rfc-v2 (July 2016)")
    public void clear(Cpudl cp, int cpu) {
        int oldIdx;
        int newCpu;

        cp.warnOn(!cp.cpuPresent(cpu), CpudlFault.WARN_CPU_PRESENT, cpu);

        oldIdx = cp.idx(cpu);
        if (oldIdx == IDX_INVALID) {
            /* Nothing to remove if old_idx was invalid. */
        } else {
            /* remove item */
            cp.size--;
            cp.setIdx(cpu, IDX_INVALID);
            if (oldIdx != cp.size) {
                newCpu = cp.cpu(cp.size);
                cp.setDl(oldIdx, cp.dl(cp.size));
                cp.setCpu(oldIdx, newCpu);
                cp.setIdx(newCpu, oldIdx);
                cpudlHeapify(cp, oldIdx);
            }
            cp.freeCpus.setCpu(cpu);
        }
    }

    /** {@code cpudl_set(cp, cpu, dl)} as posted (same code as v4.9). */
    @Override
    @Kernel(function = "cpudl_set", file = "kernel/sched/cpudeadline.c", version = "rfc-v2 (July 2016)")
    public void set(Cpudl cp, int cpu, long dl) {
        super.set(cp, cpu, dl);
    }
}
