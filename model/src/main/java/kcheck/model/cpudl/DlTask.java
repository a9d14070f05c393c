package kcheck.model.cpudl;

import kcheck.model.Kernel;

/**
 * The part of a {@code struct task_struct} that {@code cpudl_find()} reads: the absolute deadline
 * ({@code p->dl.deadline}), the affinity ({@code p->cpus_mask}, {@code tsk_cpus_allowed(p)} before
 * v5.3), the CPU the task is on ({@code task_cpu(p)}) and its bandwidth density
 * ({@code p->dl.dl_density}, runtime/deadline in units of 2^-20, {@code BW_SHIFT}). Mutable so that
 * the model's inner loop can reuse one instance.
 */
public final class DlTask {
    /** {@code BW_SHIFT} (kernel/sched/sched.h): densities are fixed point with 20 fractional bits. */
    public static final int BW_SHIFT = 20;
    /** {@code SCHED_CAPACITY_SHIFT} (include/linux/sched.h). */
    public static final int SCHED_CAPACITY_SHIFT = 10;

    /** {@code p->dl.deadline}. */
    public long deadline;
    /** {@code p->cpus_mask}. */
    public Cpumask cpusMask;
    /** {@code task_cpu(p)}. */
    public int cpu;
    /** {@code p->dl.dl_density}. */
    public long dlDensity;

    public DlTask(long deadline, Cpumask cpusMask, int cpu, long dlDensity) {
        this.deadline = deadline;
        this.cpusMask = cpusMask;
        this.cpu = cpu;
        this.dlDensity = dlDensity;
    }

    /** {@code dl_task_fits_capacity(p, cpu)}: the CPU's capacity covers the task's density. */
    @Kernel(function = "dl_task_fits_capacity", file = "kernel/sched/sched.h", version = "v6.12", line = 3347)
    public static boolean dlTaskFitsCapacity(Cpudl cp, DlTask p, int cpu) {
        long cap = cp.archScaleCpuCapacity(cpu);

        return cap >= p.dlDensity >>> (BW_SHIFT - SCHED_CAPACITY_SHIFT);
    }

    @Override
    public String toString() {
        return "dl=" + Deadlines.format(deadline) + ", allowed=" + cpusMask + ", cpu=" + cpu + ", density=" + densityName(dlDensity);
    }

    /** {@code 0.75} for 3 * 2^18. */
    public static String densityName(long d) {
        double v = d / (double) (1L << BW_SHIFT);
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
