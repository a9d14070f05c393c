package kcheck.model.cpudl;

import static kcheck.model.cpudl.Cpudl.IDX_INVALID;
import static kcheck.model.cpudl.Deadlines.dlTimeBefore;

import kcheck.model.Kernel;

/**
 * Real historical bugs of cpudeadline.c and its hotplug callers, each reintroduced into the port
 * of the version just before its mainline fix: exactly the lines the fix changed are undone, the
 * rest of the port is unchanged. Listed as {@code bug-<fix commit>} variants; see
 * docs/models/cpudl.md ("Real bugs") for the fix commits, their subjects and what catches each.
 */
public final class CpudlBugs {
    private CpudlBugs() {
    }

    /**
     * Fix 382748c05e58 ("sched/deadline: only set free_cpus for online runqueues") undone in the
     * v6.12 port: {@code cpudl_clear(cp, cpu)} without the {@code online} argument sets the free
     * bit whenever it removes an entry, also for a CPU whose runqueue is offline, and
     * {@code rq_online_dl}/{@code rq_offline_dl} manage the bit with
     * {@code cpudl_set_freecpu}/{@code cpudl_clear_freecpu} (v6.12.0 as released, before the
     * 6.12.y backport).
     */
    public static final class OnlyFreeWhenOnline extends CpudlV612 {
        @Override
        public String version() {
            return "v6.12 before 382748c05e58";
        }

        /** {@code cpudl_clear(cp, cpu)} before the fix: the runqueue's online state is not passed. */
        @Override
        @Kernel(function = "cpudl_clear", file = "kernel/sched/cpudeadline.c", version = "v6.12 before 382748c05e58")
        public void clear(Cpudl cp, int cpu, boolean online) {
            int oldIdx;
            int newCpu;

            oldIdx = cp.idx(cpu);
            if (oldIdx == IDX_INVALID) {
                /*
                 * Nothing to remove if old_idx was invalid.
                 * This could happen if a rq_offline_dl is
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

                cp.freeCpus.setCpu(cpu);
            }
        }

        @Override
        @Kernel(function = "rq_online_dl", file = "kernel/sched/deadline.c", version = "v6.12 before 382748c05e58")
        public void rqOnlineDl(Cpudl cp, int cpu, boolean dlTasks, long earliest) {
            cp.setFreecpu(cpu);
            if (dlTasks) {
                set(cp, cpu, earliest);
            }
        }

        @Override
        @Kernel(function = "rq_offline_dl", file = "kernel/sched/deadline.c", version = "v6.12 before 382748c05e58")
        public void rqOfflineDl(Cpudl cp, int cpu) {
            clear(cp, cpu, true);
            cp.clearFreecpu(cpu);
        }
    }

    /**
     * Fix 16b269436b72 ("sched/deadline: Modify cpudl::free_cpus to reflect rd->online") undone in
     * the v4.8 port, as the code stood in v3.14: {@code cpudl_init()} sets every CPU in
     * {@code free_cpus} ({@code cpumask_setall}), {@code rq_online_dl}/{@code rq_offline_dl} do not
     * touch it (they only insert or remove the heap entry), and {@code cpudl_find()} masks the free
     * CPUs with {@code cpu_active_mask} (the check 9659e1eeee28 later removed on the premise of this
     * fix). A runqueue that leaves the root domain while its CPU stays active keeps its free bit, and
     * {@code cpudl_find()} offers it. (v3.14 keeps the reverse index in a separate
     * {@code cpu_to_idx[]}; the heap operations are v4.8's.)
     */
    public static final class FreeCpusReflectOnline extends CpudlV48 {
        @Override
        public String version() {
            return "v4.8 before 16b269436b72";
        }

        /** {@code cpudl_find()} as in v3.14: free CPUs masked with the task's affinity and {@code cpu_active_mask}. */
        @Override
        @Kernel(function = "cpudl_find", file = "kernel/sched/cpudeadline.c", version = "v3.14")
        public int find(Cpudl cp, long deadline, Cpumask allowed, Cpumask laterMask) {
            int bestCpu = -1;

            if (laterMask != null && Cpumask.and(laterMask, cp.freeCpus, allowed)
                    && Cpumask.and(laterMask, laterMask, cp.cpuActiveMask)) {
                bestCpu = laterMask.any();
            } else if (allowed.testCpu(CpudlFind.cpudlMaximum(cp)) && dlTimeBefore(deadline, cp.dl(0))) {
                bestCpu = CpudlFind.cpudlMaximum(cp);
                if (laterMask != null) {
                    laterMask.setCpu(bestCpu);
                }
            }
            return bestCpu;
        }

        /** {@code rq_online_dl()} as in v3.14: insert the earliest deadline, nothing else. */
        @Override
        @Kernel(function = "rq_online_dl", file = "kernel/sched/deadline.c", version = "v3.14")
        public void rqOnlineDl(Cpudl cp, int cpu, boolean dlTasks, long earliest) {
            if (dlTasks) {
                cpudlSet(cp, cpu, earliest, 1);
            }
        }

        /** {@code rq_offline_dl()} as in v3.14: remove the entry (which sets the free bit if there was one). */
        @Override
        @Kernel(function = "rq_offline_dl", file = "kernel/sched/deadline.c", version = "v3.14")
        public void rqOfflineDl(Cpudl cp, int cpu) {
            cpudlSet(cp, cpu, 0, 0);
        }
    }

    /**
     * Fix 23e71d8ba429 ("sched/deadline: Implement fallback mechanism for !fit case") undone in the
     * v6.12 port: the capacity-aware {@code cpudl_find()} of b4118988fdcb ("sched/deadline: Make DL
     * capacity-aware"), which returns 0 when free CPUs exist but none has the capacity the task
     * needs (the heap is not consulted either), so the task is not pushed to any idle CPU.
     */
    public static final class NoFitFallback extends CpudlV612 {
        @Override
        public String version() {
            return "v6.12 before 23e71d8ba429";
        }

        @Override
        @Kernel(function = "cpudl_find", file = "kernel/sched/cpudeadline.c", version = "v6.12 before 23e71d8ba429")
        public int find(Cpudl cp, DlTask p, Cpumask laterMask) {
            if (laterMask != null && Cpumask.and(laterMask, cp.freeCpus, p.cpusMask)) {
                if (!cp.schedAsymCpucapActive()) {
                    return 1;
                }

                /* Ensure the capacity of the CPUs fits the task. */
                for (int cpu = laterMask.next(-1); cpu < laterMask.nrCpus(); cpu = laterMask.next(cpu)) {
                    if (!DlTask.dlTaskFitsCapacity(cp, p, cpu)) {
                        laterMask.clearCpu(cpu);
                    }
                }

                if (!laterMask.isEmpty()) {
                    return 1;
                }
            } else {
                int bestCpu = cpudlMaximum(cp);

                if (p.cpusMask.testCpu(bestCpu) && dlTimeBefore(p.deadline, cp.dl(0))) {
                    if (laterMask != null) {
                        laterMask.setCpu(bestCpu);
                    }

                    return 1;
                }
            }
            return 0;
        }
    }

    /**
     * Fix a23eadfae2fd ("sched/deadline: Fix wrap-around in DL heap", mainline v4.8-rc2) undone in
     * the v4.8 port ({@link CpudlV48Rc2}): the insert stores {@code dl = 0} in the new leaf, so
     * {@code cpudl_change_key()} compares the real deadline with 0, and a deadline at or above
     * 2^63 (negative as s64) counts as earlier than 0: the new entry is sifted down from a leaf
     * instead of up. This is exactly {@link CpudlV48}, the {@code before} variant.
     */
    public static final class WrapAroundInsert extends CpudlV48 {
        @Override
        public String version() {
            return "v4.8 before a23eadfae2fd";
        }
    }
}
