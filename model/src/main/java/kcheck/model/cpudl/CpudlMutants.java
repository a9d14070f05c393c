package kcheck.model.cpudl;

import static kcheck.model.cpudl.Cpudl.IDX_INVALID;

import kcheck.model.Kernel;

/**
 * Seeded mutants of the v4.9 heap: one deliberate, realistic one-line bug each, to show that a
 * property catches what it claims to catch. Listed as variants ({@code --variant mutant-...}),
 * not part of the verdict catalogue.
 */
public final class CpudlMutants {
    private CpudlMutants() {
    }

    /**
     * {@code cpudl_clear()} with its two index stores in the other order: when the CPU is the last
     * slot, {@code new_cpu == cpu} and the CPU keeps {@code idx == size}, a slot outside the heap.
     * Breaks {@code index-consistent}.
     */
    public static final class ClearIndexOrder extends CpudlV49 {
        @Override
        public String version() {
            return "v4.9 (mutant: index stores swapped)";
        }

        @Override
        @Kernel(function = "cpudl_clear", file = "kernel/sched/cpudeadline.c", version = "v4.9 (mutant: index stores swapped)")
        public void clear(Cpudl cp, int cpu) {
            int oldIdx;
            int newCpu;

            oldIdx = cp.idx(cpu);
            if (oldIdx != IDX_INVALID) {
                newCpu = cp.cpu(cp.size - 1);
                cp.setDl(oldIdx, cp.dl(cp.size - 1));
                cp.setCpu(oldIdx, newCpu);
                cp.size--;
                cp.setIdx(cpu, IDX_INVALID);
                cp.setIdx(newCpu, oldIdx);
                cpudlHeapify(cp, oldIdx);

                cp.freeCpus.setCpu(cpu);
            }
        }
    }

    /**
     * {@code cpudl_set()} that forgets {@code cpumask_clear_cpu(cpu, cp->free_cpus)} on insert: a
     * CPU running a deadline task stays "free" and {@code cpudl_find()} keeps offering it. Breaks
     * {@code free-cpus} (and {@code find-sound}).
     */
    public static final class KeepsFreeBit extends CpudlV49 {
        @Override
        public String version() {
            return "v4.9 (mutant: free bit kept)";
        }

        @Override
        @Kernel(function = "cpudl_set", file = "kernel/sched/cpudeadline.c", version = "v4.9 (mutant: free bit kept)")
        public void set(Cpudl cp, int cpu, long dl) {
            int oldIdx;

            oldIdx = cp.idx(cpu);
            if (oldIdx == IDX_INVALID) {
                int newIdx = cp.size++;

                cp.setDl(newIdx, dl);
                cp.setCpu(newIdx, cpu);
                cp.setIdx(cpu, newIdx);
                cpudlHeapifyUp(cp, newIdx);
            } else {
                cp.setDl(oldIdx, dl);
                cpudlHeapify(cp, oldIdx);
            }
        }
    }

    /**
     * v6.12's {@code cpudl_find()} that skips the capacity check ({@code if (true ||
     * !sched_asym_cpucap_active())}): every free allowed CPU is a candidate, also one too small for
     * the task while a big one is free. Breaks {@code find-capacity}.
     */
    public static final class FindIgnoresCapacity extends CpudlV612 {
        @Override
        public String version() {
            return "v6.12 (mutant: capacity not checked)";
        }

        @Override
        @Kernel(function = "cpudl_find", file = "kernel/sched/cpudeadline.c", version = "v6.12 (mutant: capacity not checked)")
        public int find(Cpudl cp, DlTask p, Cpumask laterMask) {
            if (laterMask != null && Cpumask.and(laterMask, cp.freeCpus, p.cpusMask)) {
                return 1;
            }
            return super.find(cp, p, laterMask);
        }
    }

    /**
     * {@code cpudl_heapify_up()} that pulls the parent down but forgets {@code idx = p}: the loop
     * stays on the same slot and never ends once an entry has to climb (in the kernel: a CPU spinning
     * forever with {@code cp->lock} held and interrupts off). Breaks {@code bounded-work}.
     */
    public static final class HeapifyUpLoops extends CpudlV49 {
        @Override
        public String version() {
            return "v4.9 (mutant: heapify_up does not climb)";
        }

        @Override
        @Kernel(function = "cpudl_heapify_up", file = "kernel/sched/cpudeadline.c", version = "v4.9 (mutant: heapify_up does not climb)")
        protected void cpudlHeapifyUp(Cpudl cp, int idx) {
            int p;

            int origCpu = cp.cpu(idx);
            long origDl = cp.dl(idx);

            if (idx == 0) {
                return;
            }

            do {
                p = Cpudl.parent(idx);
                if (Deadlines.dlTimeBefore(origDl, cp.dl(p))) {
                    break;
                }
                /* pull parent onto idx */
                cp.setCpu(idx, cp.cpu(p));
                cp.setDl(idx, cp.dl(p));
                cp.setIdx(cp.cpu(idx), idx);
            } while (idx != 0);
            /* actual push up of saved original values orig_* */
            cp.setCpu(idx, origCpu);
            cp.setDl(idx, origDl);
            cp.setIdx(cp.cpu(idx), idx);
        }
    }

    /**
     * v6.12's {@code rq_offline_dl()} with an off-by-one CPU id ({@code cpudl_clear(cp, rq->cpu + 1,
     * false)}): the last CPU's neighbour is not a present CPU. Fires {@code WARN_ON(!cpu_present(cpu))}
     * in {@code cpudl_clear()}: {@code warn-cpu-present}.
     */
    public static final class OfflineOffByOne extends CpudlV612 {
        @Override
        public String version() {
            return "v6.12 (mutant: rq_offline_dl off by one cpu)";
        }

        @Override
        @Kernel(function = "rq_offline_dl", file = "kernel/sched/deadline.c", version = "v6.12 (mutant: cpu + 1)")
        public void rqOfflineDl(Cpudl cp, int cpu) {
            clear(cp, cpu + 1, false);
        }
    }

    /**
     * v4.9's {@code cpudl_clear()} that poisons the slot it vacates with {@code nr_cpu_ids} (the "no
     * CPU" value of the cpumask iterators) after {@code cp->size--}. Once the heap is empty its root
     * is that poison, and {@code cpudl_find()} reads the root unconditionally: {@code
     * WARN_ON(best_cpu != -1 && !cpu_present(best_cpu))}, {@code warn-find-best-cpu}.
     */
    public static final class ClearPoisonsVacatedSlot extends CpudlV49 {
        @Override
        public String version() {
            return "v4.9 (mutant: vacated slot poisoned)";
        }

        @Override
        @Kernel(function = "cpudl_clear", file = "kernel/sched/cpudeadline.c", version = "v4.9 (mutant: vacated slot poisoned)")
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
                cp.setCpu(cp.size, cp.nrCpus());     /* the mutation: poison the vacated slot */
                cp.setIdx(newCpu, oldIdx);
                cp.setIdx(cpu, IDX_INVALID);
                cpudlHeapify(cp, oldIdx);

                cp.freeCpus.setCpu(cpu);
            }
        }
    }

    /**
     * v4.9's {@code cpudl_clear()} with {@code cp->size--} moved above the {@code old_idx ==
     * IDX_INVALID} check: clearing a CPU that has no entry still shrinks the heap, and on an empty
     * heap {@code cp->size} goes to -1. Breaks {@code sanity-fields}.
     */
    public static final class ClearShrinksWithoutEntry extends CpudlV49 {
        @Override
        public String version() {
            return "v4.9 (mutant: size-- above the IDX_INVALID check)";
        }

        @Override
        @Kernel(function = "cpudl_clear", file = "kernel/sched/cpudeadline.c", version = "v4.9 (mutant: size-- hoisted)")
        public void clear(Cpudl cp, int cpu) {
            int oldIdx;
            int newCpu;

            cp.warnOn(!cp.cpuPresent(cpu), CpudlFault.WARN_CPU_PRESENT, cpu);

            oldIdx = cp.idx(cpu);
            cp.size--;                               /* the mutation: was inside the else branch */
            if (oldIdx == IDX_INVALID) {
                /* Nothing to remove if old_idx was invalid. */
            } else {
                newCpu = cp.cpu(cp.size);
                cp.setDl(oldIdx, cp.dl(cp.size));
                cp.setCpu(oldIdx, newCpu);
                cp.setIdx(newCpu, oldIdx);
                cp.setIdx(cpu, IDX_INVALID);
                cpudlHeapify(cp, oldIdx);

                cp.freeCpus.setCpu(cpu);
            }
        }
    }
}
