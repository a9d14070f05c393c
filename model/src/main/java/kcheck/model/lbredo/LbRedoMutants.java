package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.LBF_ALL_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_DST_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_NEED_BREAK;
import static kcheck.model.lbredo.LbEnv.LBF_SOME_PINNED;
import static kcheck.model.lbredo.LbEnv.SCHED_NR_MIGRATE_BREAK;

import kcheck.model.Kernel;

/**
 * Seeded mutants: one deliberate, realistic bug each, to show that a property catches what it
 * claims to catch. Each differs from its base in one place, named in its comment; the rest is
 * inherited.
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
            if (lb.at != AFTER_DETACH || (lb.env.flags & LBF_NEED_BREAK) != 0
                    || (lb.env.flags & LBF_DST_PINNED) != 0 && lb.env.imbalance > 0) {
                return super.loadBalance(lb, s);
            }
            LbEnv env = lb.env;
            if (s.sdParent() && (env.flags & LBF_SOME_PINNED) != 0 && env.imbalance > 0) {
                s.setSdParentGroupImbalance(true);
            }
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
            if (lb.at != AFTER_DETACH || (lb.env.flags & LBF_NEED_BREAK) != 0
                    || (lb.env.flags & LBF_DST_PINNED) != 0 && lb.env.imbalance > 0) {
                return super.loadBalance(lb, s);
            }
            LbEnv env = lb.env;
            if (s.sdParent() && (env.flags & LBF_SOME_PINNED) != 0 && env.imbalance > 0) {
                s.setSdParentGroupImbalance(true);
            }
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

    /**
     * v6.12 whose {@code detach_tasks()} stops one task late ({@code loop > loop_max + 1}, an
     * off-by-one): with every task pinned it examines {@code loop_max + 1} tasks, one of them
     * twice. Breaks {@code scan-bounded}.
     */
    public static final class ScanOnePast extends SchedBalanceRqV612 {
        @Override
        @Kernel(function = "detach_tasks", file = "kernel/sched/fair.c", version = "v6.12 (mutant: loop > loop_max + 1)")
        protected int detachTasks(LbEnv env, Sched s) {
            int max = env.loopMax;
            env.loopMax = max + 1;
            try {
                return super.detachTasks(env, s);
            } finally {
                env.loopMax = max;
            }
        }
    }

    /**
     * v6.12 whose {@code out_all_pinned} path also clears {@code sd_parent}'s group imbalance flag
     * (as if the label sat above the clearing code of {@code out_balanced}). Breaks
     * {@code imbalance-kept}.
     */
    public static final class AllPinnedClearsImbalance extends SchedBalanceRqV612 {
        @Override
        @Kernel(function = "sched_balance_rq", file = "kernel/sched/fair.c", version = "v6.12 (mutant: out_all_pinned clears sgc->imbalance)")
        protected int schedBalanceRq(LoadBalanceCall lb, Sched s) {
            int ret = super.schedBalanceRq(lb, s);
            if (ret == OUT_ALL_PINNED && s.sdParent()) {
                s.setSdParentGroupImbalance(false);
            }
            return ret;
        }
    }

    /**
     * v5.13 whose {@code can_migrate_task()} looks for a {@code new_dst_cpu} on a newly idle
     * balance too (without the {@code env->idle == CPU_NEWLY_IDLE ||} test): a task pinned away
     * from the CPU going idle is moved to another CPU of its group. Breaks
     * {@code newidle-pulls-here} once a mask allows such a CPU ({@code masks=local}).
     */
    public static final class NewidleNewDst extends LoadBalanceV513 {
        @Override
        @Kernel(function = "can_migrate_task", file = "kernel/sched/fair.c", version = "v5.13 (mutant: new_dst_cpu on NEWLY_IDLE)")
        protected boolean canMigrateTask(int p, LbEnv env, Sched s) {
            if ((s.cpusPtr(p) & (1L << env.dstCpu)) == 0 && env.idle == LbEnv.CPU_NEWLY_IDLE) {
                int idle = env.idle;
                env.idle = LbEnv.CPU_IDLE;      /* the test "env->idle == CPU_NEWLY_IDLE ||" is gone */
                try {
                    return super.canMigrateTask(p, env, s);
                } finally {
                    env.idle = idle;
                }
            }
            return super.canMigrateTask(p, env, s);
        }
    }

    /* ---- one mutant per kernel check / sanity rule (LbCheck), each showing its property can fail ---- */

    /** v6.12 whose {@code more_balance} runs {@code detach_tasks()} without {@code rq_lock(busiest)}: {@code warn-rq-held}. */
    public static final class DetachUnlocked extends SchedBalanceRqV612 {
        @Override
        @Kernel(function = "sched_balance_rq", file = "kernel/sched/fair.c", version = "v6.12 (mutant: busiest not locked)")
        protected int schedBalanceRq(LoadBalanceCall lb, Sched s) {
            if (lb.at != MORE_BALANCE) {
                return super.schedBalanceRq(lb, s);
            }
            int curLdMoved = detachTasks(lb.env, s);
            if (curLdMoved != 0) {
                attachTasks(lb.env, s);
                lb.ldMoved += curLdMoved;
            }
            return AFTER_DETACH;
        }
    }

    /** v6.12 whose {@code more_balance} takes {@code rq_lock(busiest)} twice: {@code warn-rq-lock-recursion}. */
    public static final class LockTwice extends SchedBalanceRqV612 {
        @Override
        @Kernel(function = "sched_balance_rq", file = "kernel/sched/fair.c", version = "v6.12 (mutant: busiest locked twice)")
        protected int schedBalanceRq(LoadBalanceCall lb, Sched s) {
            if (lb.at == MORE_BALANCE) {
                s.rqLock(s.cpuRq(lb.busiest));
            }
            return super.schedBalanceRq(lb, s);
        }
    }

    /** v6.12 whose {@code sched_balance_find_src_rq()} answers {@code dst_cpu}: {@code warn-busiest-is-dst}. */
    public static final class BusiestIsDst extends SchedBalanceRqV612 {
        @Override
        @Kernel(function = "sched_balance_find_src_rq", file = "kernel/sched/fair.c", version = "v6.12 (mutant: returns dst_cpu)")
        protected int schedBalanceFindSrcRq(LbEnv env, int group, Sched s) {
            int busiest = super.schedBalanceFindSrcRq(env, group, s);
            return busiest < 0 ? busiest : env.dstCpu;
        }
    }

    /** v6.12 whose {@code attach_tasks()} attaches to the source runqueue: {@code warn-attach-task-rq}. */
    public static final class AttachToSrc extends SchedBalanceRqV612 {
        @Override
        @Kernel(function = "attach_tasks", file = "kernel/sched/fair.c", version = "v6.12 (mutant: attaches to src_rq)")
        protected void attachTasks(LbEnv env, Sched s) {
            Rq src = s.cpuRq(env.srcCpu);
            s.rqLock(src);
            while (env.nrTasks > 0) {
                attachTask(src, env.tasks[--env.nrTasks], s);
            }
            s.rqUnlock(src);
        }
    }

    /** v6.12 whose {@code detach_task()} migrates to {@code src_cpu}: {@code no-self-migration}. */
    public static final class DetachToSelf extends SchedBalanceRqV612 {
        @Override
        @Kernel(function = "detach_task", file = "kernel/sched/fair.c", version = "v6.12 (mutant: set_task_cpu(p, src_cpu))")
        protected void detachTask(int p, LbEnv env, Sched s) {
            Rq src = s.cpuRq(env.srcCpu);
            s.lockdepAssertHeld(src);
            s.deactivateTask(src, p);
            s.setTaskCpu(p, env.srcCpu);
        }
    }

    /** v6.12 whose {@code detach_task()} dequeues the task twice: {@code no-task-after-left}. */
    public static final class DetachTwice extends SchedBalanceRqV612 {
        @Override
        @Kernel(function = "detach_task", file = "kernel/sched/fair.c", version = "v6.12 (mutant: deactivate_task twice)")
        protected void detachTask(int p, LbEnv env, Sched s) {
            Rq src = s.cpuRq(env.srcCpu);
            s.deactivateTask(src, p);
            super.detachTask(p, env, s);
        }
    }

    /** v6.12 that sets {@code sd_parent}'s group imbalance for an all-pinned busiest without testing {@code sd_parent}: {@code no-null-sd-parent}. */
    public static final class NoParentTest extends SchedBalanceRqV612 {
        @Override
        @Kernel(function = "sched_balance_rq", file = "kernel/sched/fair.c", version = "v6.12 (mutant: if (sd_parent) dropped)")
        protected int schedBalanceRq(LoadBalanceCall lb, Sched s) {
            LbEnv env = lb.env;
            if (lb.at == AFTER_DETACH && (env.flags & LBF_NEED_BREAK) == 0
                    && !((env.flags & LBF_DST_PINNED) != 0 && env.imbalance > 0)
                    && (env.flags & LBF_ALL_PINNED) != 0 && env.imbalance > 0) {
                s.setSdParentGroupImbalance(true);
            }
            return super.schedBalanceRq(lb, s);
        }
    }

    /** v6.12 that starts {@code env->cpus} as every bit ({@code cpumask_setall}): {@code cpus-exist}. */
    public static final class CpusSetall extends SchedBalanceRqV612 {
        @Override
        @Kernel(function = "sched_balance_rq", file = "kernel/sched/fair.c", version = "v6.12 (mutant: cpus = all bits)")
        protected int schedBalanceRq(LoadBalanceCall lb, Sched s) {
            int ret = super.schedBalanceRq(lb, s);
            if (ret == NR_RUNNING) {
                lb.env.cpus = -1L;
            }
            return ret;
        }
    }

    /**
     * v5.13 without the line of "sched/fair: Fix load_balance redo for !imbalance" (its subject is
     * confirmed from an Android cherry-pick, be3b0459aa58; the mainline id is not, so this is a
     * mutant, not a {@code bug-} variant): {@code find_busiest_group()} returns the busiest group
     * although {@code calculate_imbalance()} computed 0, {@code detach_tasks()} returns at once with
     * {@code LBF_ALL_PINNED} still set, and the call drops busiest and redoes.
     */
    public static final class RedoZeroImbalance extends LoadBalanceV513 {
        @Override
        @Kernel(function = "find_busiest_group", file = "kernel/sched/fair.c", version = "v5.13 (without the !imbalance fix)")
        protected int findBusiestGroup(LbEnv env, Sched s) {
            int busiest = s.updateSdLbStats(env);
            if (busiest < 0) {
                env.imbalance = 0;
                return -1;
            }
            env.migrationType = kcheck.model.lbredo.LbEnv.MIGRATE_TASK;
            env.imbalance = s.calculateImbalance();
            /* - return env->imbalance ? sds.busiest : NULL;  + return sds.busiest; */
            return s.groupOf(busiest);
        }
    }
}
