package kcheck.model.cpudl;

import kcheck.model.Kernel;

/**
 * {@code cpudl_find()} and {@code cpudl_maximum()}: unchanged by the v4.9 heap patches (and by
 * the rfc-v2 posting), so one port serves every variant. The task is reduced to what the
 * function reads: its absolute deadline ({@code p->dl.deadline}) and its affinity
 * ({@code tsk_cpus_allowed(p)}).
 */
public final class CpudlFind {
    private CpudlFind() {
    }

    /** {@code cpudl_maximum()}: the CPU in the root slot (read even when the heap is empty). */
    @Kernel(function = "cpudl_maximum", file = "kernel/sched/cpudeadline.c", version = "v4.8")
    public static int cpudlMaximum(Cpudl cp) {
        return cp.cpu(0);
    }

    /**
     * {@code cpudl_find(cp, p, later_mask)}: a free CPU the task may run on if there is one
     * ({@code cpumask_any()}: the lowest); else the heap root if the task may run there and its
     * deadline is earlier than the root's; else -1.
     */
    @Kernel(function = "cpudl_find", file = "kernel/sched/cpudeadline.c", version = "v4.8")
    public static int cpudlFind(Cpudl cp, long deadline, Cpumask allowed, Cpumask laterMask) {
        int bestCpu = -1;

        if (laterMask != null && Cpumask.and(laterMask, cp.freeCpus, allowed)) {
            bestCpu = laterMask.any();
        } else if (allowed.testCpu(cpudlMaximum(cp)) && Deadlines.dlTimeBefore(deadline, cp.dl(0))) {
            bestCpu = cpudlMaximum(cp);
            if (laterMask != null) {
                laterMask.setCpu(bestCpu);
            }
        }
        /* out: */
        cp.warnOn(bestCpu != -1 && !cp.cpuPresent(bestCpu), CpudlFault.WARN_FIND_BEST_CPU, bestCpu);
        return bestCpu;
    }
}
