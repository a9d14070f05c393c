package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.LBF_ALL_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_DST_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_NEED_BREAK;
import static kcheck.model.lbredo.LbEnv.SCHED_NR_MIGRATE_BREAK;

import kcheck.model.Kernel;

/**
 * Seeded mutants: one deliberate, realistic bug each, to show that a property catches what it
 * claims to catch. They differ from their base only after {@code detach_tasks()} (the
 * {@link LoadBalance#AFTER_DETACH} part of {@code load_balance()}); the rest is inherited.
 */
public final class LbRedoMutants {
    private LbRedoMutants() {
    }

    /**
     * v5.11 that forgets {@code __cpumask_clear_cpu(cpu_of(busiest), cpus)} in the all-pinned
     * branch: the same pinned busiest is found again and again. Breaks {@code terminates}.
     */
    public static final class KeepsBusiest extends LoadBalanceV511 {
        @Override
        @Kernel(function = "load_balance", file = "kernel/sched/fair.c", version = "v5.11 (mutant: busiest kept in cpus)")
        public int loadBalance(LoadBalanceCall lb, Sched s) {
            if (lb.at != AFTER_DETACH || (lb.env.flags & (LBF_NEED_BREAK | LBF_DST_PINNED)) != 0) {
                return super.loadBalance(lb, s);
            }
            LbEnv env = lb.env;
            if ((env.flags & LBF_ALL_PINNED) != 0) {
                if (!cpumaskSubset(env.cpus & ~(1L << lb.busiest), env.dstGrpmask)) {
                    env.loop = 0;
                    env.loopBreak = SCHED_NR_MIGRATE_BREAK;
                    return REDO;
                }
                return OUT_ALL_PINNED;
            }
            return OUT;
        }
    }

    /**
     * v5.13 that forgets {@code env.loop = 0} before {@code goto redo}: on the next busiest,
     * {@code detach_tasks()} finds {@code loop > loop_max} at once and examines nothing, so
     * {@code LBF_ALL_PINNED} survives without a race. Breaks {@code all-pinned-sound} and
     * {@code no-spurious-redo} (the latter needs three CPUs outside the local group).
     */
    public static final class NoLoopReset extends LoadBalanceV513 {
        @Override
        @Kernel(function = "load_balance", file = "kernel/sched/fair.c", version = "v5.13 (mutant: loop not reset on redo)")
        public int loadBalance(LoadBalanceCall lb, Sched s) {
            if (lb.at != AFTER_DETACH || (lb.env.flags & (LBF_NEED_BREAK | LBF_DST_PINNED)) != 0) {
                return super.loadBalance(lb, s);
            }
            LbEnv env = lb.env;
            if ((env.flags & LBF_ALL_PINNED) != 0) {
                env.cpus = cpumaskClearCpu(lb.busiest, env.cpus);
                if (!cpumaskSubset(env.cpus, env.dstGrpmask)) {
                    env.loopBreak = SCHED_NR_MIGRATE_BREAK;
                    return REDO;
                }
                return OUT_ALL_PINNED;
            }
            return OUT;
        }
    }
}
