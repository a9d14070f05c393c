package kcheck.model.cpudl;

import static kcheck.model.cpudl.Cpudl.IDX_INVALID;
import static kcheck.model.cpudl.Cpudl.parent;
import static kcheck.model.cpudl.Deadlines.dlTimeBefore;

import kcheck.model.Kernel;

/**
 * The swap-based heap as released in v4.8: {@link CpudlV48} with fix a23eadfae2fd
 * ("sched/deadline: Fix wrap-around in DL heap", mainline v4.8-rc2) applied: the new leaf of an
 * insert holds the real deadline, not 0, before {@code cpudl_change_key()} compares with it, so
 * the insert always sifts up. {@link CpudlV48} (the {@code before} variant) is the code before that
 * fix (v4.0 to v4.8-rc1), which is also {@code bug-a23eadfae2fd}.
 */
public class CpudlV48Rc2 extends CpudlV48 {

    @Override
    public String version() {
        return "v4.8-rc2";
    }

    /** {@code cpudl_set(cp, cpu, dl, is_valid)} with the insert storing {@code dl} (fix a23eadfae2fd). */
    @Override
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
            cp.setDl(cp.size - 1, dl);
            cp.setCpu(cp.size - 1, cpu);
            cp.setIdx(cpu, cp.size - 1);
            cpudlChangeKey(cp, cp.size - 1, dl);
            cp.freeCpus.clearCpu(cpu);
        } else {
            cpudlChangeKey(cp, oldIdx, dl);
        }
    }
}
