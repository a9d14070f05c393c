package kcheck.model.cpudl;

import static kcheck.model.cpudl.Cpudl.IDX_INVALID;
import static kcheck.model.cpudl.Deadlines.dlTimeBefore;

import kcheck.model.Kernel;

/**
 * kernel/sched/cpudeadline.c as in v6.12.117 (Debian's linux-source-6.12; line numbers cited are
 * that file's). The heap ({@code cpudl_heapify_down}, {@code cpudl_heapify_up},
 * {@code cpudl_heapify}, the body of {@code cpudl_set}) is v4.9's, unchanged. What changed:
 *
 * <ul>
 * <li>{@code cpudl_find()} returns 1 or 0 (v4.15 on) and leaves its candidates in
 * {@code later_mask}: every free CPU the task may run on, and, on a system with asymmetric CPU
 * capacities (v5.9 on), only those whose capacity fits the task
 * ({@code dl_task_fits_capacity}), or, if none fits, the one with the largest capacity
 * (preferring {@code task_cpu(p)} on a tie); the heap branch is v4.9's.</li>
 * <li>{@code cpudl_clear(cp, cpu, online)} (fix 382748c05e58, backported to 6.12.y): the free bit
 * follows the runqueue's online state, set only for an online runqueue, cleared otherwise, even
 * when the CPU had no heap entry; {@code cpudl_set_freecpu}/{@code cpudl_clear_freecpu} are gone
 * and {@code rq_online_dl}/{@code rq_offline_dl} call {@code cpudl_clear} instead.</li>
 * </ul>
 *
 * <p>v6.1.192's cpudeadline.c is the same code except that the fallback reads the capacity with
 * {@code capacity_orig_of(cpu)} ({@code rq->cpu_capacity_orig}, which is
 * {@code arch_scale_cpu_capacity(cpu)}); this port serves both.
 */
public class CpudlV612 extends CpudlV49 {

    @Override
    public String version() {
        return "v6.12";
    }

    @Override
    @Kernel(function = "cpudl_heapify_down", file = "kernel/sched/cpudeadline.c", version = "v6.12", line = 25)
    protected void cpudlHeapifyDown(Cpudl cp, int idx) {
        super.cpudlHeapifyDown(cp, idx);
    }

    @Override
    @Kernel(function = "cpudl_heapify_up", file = "kernel/sched/cpudeadline.c", version = "v6.12", line = 68)
    protected void cpudlHeapifyUp(Cpudl cp, int idx) {
        super.cpudlHeapifyUp(cp, idx);
    }

    @Override
    @Kernel(function = "cpudl_heapify", file = "kernel/sched/cpudeadline.c", version = "v6.12", line = 94)
    protected void cpudlHeapify(Cpudl cp, int idx) {
        super.cpudlHeapify(cp, idx);
    }

    /** {@code cpudl_maximum()}. */
    @Kernel(function = "cpudl_maximum", file = "kernel/sched/cpudeadline.c", version = "v6.12", line = 103)
    protected int cpudlMaximum(Cpudl cp) {
        return cp.cpu(0);
    }

    @Override
    public boolean findReturnsCpu() {
        return false;
    }

    /**
     * {@code cpudl_find(cp, p, later_mask)}: 1 if CPUs were found (in {@code later_mask}), else 0.
     * {@code later_mask == NULL} (the {@code check_preempt_equal_dl()} caller) is not modelled.
     */
    @Override
    @Kernel(function = "cpudl_find", file = "kernel/sched/cpudeadline.c", version = "v6.12", line = 116)
    public int find(Cpudl cp, DlTask p, Cpumask laterMask) {
        if (laterMask != null && Cpumask.and(laterMask, cp.freeCpus, p.cpusMask)) {
            long cap;
            long maxCap = 0;
            int maxCpu = -1;

            if (!cp.schedAsymCpucapActive()) {
                return 1;
            }

            /* Ensure the capacity of the CPUs fits the task. */
            for (int cpu = laterMask.next(-1); cpu < laterMask.nrCpus(); cpu = laterMask.next(cpu)) {
                if (!DlTask.dlTaskFitsCapacity(cp, p, cpu)) {
                    laterMask.clearCpu(cpu);

                    cap = cp.archScaleCpuCapacity(cpu);

                    if (cap > maxCap || (cpu == p.cpu && cap == maxCap)) {
                        maxCap = cap;
                        maxCpu = cpu;
                    }
                }
            }

            if (laterMask.isEmpty()) {
                laterMask.setCpu(maxCpu);
            }

            return 1;
        } else {
            int bestCpu = cpudlMaximum(cp);

            cp.warnOn(bestCpu != -1 && !cp.cpuPresent(bestCpu), CpudlFault.WARN_FIND_BEST_CPU, bestCpu);

            if (p.cpusMask.testCpu(bestCpu) && dlTimeBefore(p.deadline, cp.dl(0))) {
                if (laterMask != null) {
                    laterMask.setCpu(bestCpu);
                }

                return 1;
            }
        }
        return 0;
    }

    /** The v4.x signature has no task: a task on CPU 0 with zero density (fits everywhere). */
    @Override
    public int find(Cpudl cp, long deadline, Cpumask allowed, Cpumask laterMask) {
        return find(cp, new DlTask(deadline, allowed, 0, 0), laterMask);
    }

    /**
     * {@code cpudl_clear(cp, cpu, online)}: remove the CPU's entry if it has one; then the free bit
     * follows {@code online}.
     */
    @Override
    @Kernel(function = "cpudl_clear", file = "kernel/sched/cpudeadline.c", version = "v6.12", line = 174)
    public void clear(Cpudl cp, int cpu, boolean online) {
        int oldIdx;
        int newCpu;

        cp.warnOn(!cp.cpuPresent(cpu), CpudlFault.WARN_CPU_PRESENT, cpu);

        oldIdx = cp.idx(cpu);
        if (oldIdx == IDX_INVALID) {
            /*
             * Nothing to remove if old_idx was invalid.
             * This could happen if rq_online_dl or rq_offline_dl is
             * called for a CPU without -dl tasks running.
             */
        } else {
            newCpu = cp.cpu(cp.size - 1);
            cp.setDl(oldIdx, cp.dl(cp.size - 1));
            cp.setCpu(oldIdx, newCpu);
            cp.size--;
            cp.setIdx(newCpu, oldIdx);
            cp.setIdx(cpu, IDX_INVALID);
            cpudlHeapify(cp, oldIdx);
        }
        if (online) {
            cp.freeCpus.setCpu(cpu);
        } else {
            cp.freeCpus.clearCpu(cpu);
        }
    }

    /** {@code cpudl_clear(cp, cpu, rq->online)} from {@code dec_dl_deadline()} on an online runqueue. */
    @Override
    public void clear(Cpudl cp, int cpu) {
        clear(cp, cpu, true);
    }

    /** {@code cpudl_set(cp, cpu, dl)}: v4.9's body ({@code __cpumask_clear_cpu} for the free bit). */
    @Override
    @Kernel(function = "cpudl_set", file = "kernel/sched/cpudeadline.c", version = "v6.12", line = 217)
    public void set(Cpudl cp, int cpu, long dl) {
        super.set(cp, cpu, dl);
    }

    /** {@code rq_online_dl(rq)}: {@code cpudl_set()} if the runqueue has deadline tasks, else {@code cpudl_clear(cp, cpu, true)}. */
    @Override
    @Kernel(function = "rq_online_dl", file = "kernel/sched/deadline.c", version = "v6.12", line = 3148)
    public void rqOnlineDl(Cpudl cp, int cpu, boolean dlTasks, long earliest) {
        if (dlTasks) {
            set(cp, cpu, earliest);
        } else {
            clear(cp, cpu, true);
        }
    }

    /** {@code rq_offline_dl(rq)}: {@code cpudl_clear(cp, cpu, false)}. */
    @Override
    @Kernel(function = "rq_offline_dl", file = "kernel/sched/deadline.c", version = "v6.12", line = 3160)
    public void rqOfflineDl(Cpudl cp, int cpu) {
        clear(cp, cpu, false);
    }
}
