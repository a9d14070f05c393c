package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.CPU_NEWLY_IDLE;
import static kcheck.model.lbredo.LbEnv.CPU_NOT_IDLE;
import static kcheck.model.lbredo.LbEnv.LBF_ALL_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_DST_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_NEED_BREAK;
import static kcheck.model.lbredo.LbEnv.LBF_SOME_PINNED;
import static kcheck.model.lbredo.LbEnv.MIGRATE_TASK;
import static kcheck.model.lbredo.LbEnv.SCHED_NR_MIGRATE_BREAK;

import kcheck.model.Kernel;
import kcheck.model.ModelLimitException;

/**
 * Real kernel bugs of {@code load_balance()} / {@code detach_tasks()}, each fixed in mainline and
 * reintroduced here by undoing exactly the fix's lines in the port of the nearest version
 * (docs/models/lb-redo.md, "Real bugs", says per bug which version that is and what else the
 * version just before the fix differed in). The variants are named {@code bug-<fix commit>}.
 */
public final class LbRedoRealBugs {
    private LbRedoRealBugs() {
    }

    /**
     * {@code bug-acb4decc1e90}: v5.12, i.e. the v5.13 port without acb4decc1e90 "sched/fair:
     * Reduce long-tail newly idle balance cost": {@code detach_tasks()} has no "source run queue
     * has been emptied by another CPU" test, so a busiest emptied between the unlocked read and
     * {@code rq_lock()} leaves {@code LBF_ALL_PINNED} set (set before the read since 8a41dfcda7a3,
     * v5.12) and the call redoes.
     */
    public static final class V512 extends LoadBalanceV513 {
        @Override
        @Kernel(function = "detach_tasks", file = "kernel/sched/fair.c", version = "v5.12 (v5.13 without acb4decc1e90)")
        protected int detachTasks(LbEnv env, Sched s) {
            Rq src = s.cpuRq(env.srcCpu);
            int detached = 0;

            s.lockdepAssertHeld(src);

            /* - if (env->src_rq->nr_running <= 1) { env->flags &= ~LBF_ALL_PINNED; return 0; }  (acb4decc1e90) */

            if (env.imbalance <= 0) {
                return 0;
            }

            while (!src.listEmpty()) {
                if (env.idle != CPU_NOT_IDLE && src.nrRunning <= 1) {
                    break;
                }

                int p = src.listLastEntry();

                env.loop++;
                if (env.loop > env.loopMax) {
                    break;
                }

                if (env.loop > env.loopBreak) {
                    env.loopBreak += SCHED_NR_MIGRATE_BREAK;
                    env.flags |= LBF_NEED_BREAK;
                    break;
                }

                if (!canMigrateTask(p, env, s)) {
                    src.listMove(p);
                    continue;
                }

                if (env.migrationType != MIGRATE_TASK) {
                    throw new ModelLimitException("lb-redo: detach_tasks models migrate_task only; migration_type "
                            + env.migrationType);
                }
                env.imbalance--;

                detachTask(p, env, s);
                env.listAddTask(p);

                detached++;

                if (CONFIG_PREEMPTION && env.idle == CPU_NEWLY_IDLE) {
                    break;
                }
                if (env.imbalance <= 0) {
                    break;
                }
            }
            return detached;
        }
    }

    /**
     * {@code bug-65a4433aebe3}: the v5.11 port with 65a4433aebe3 "sched/fair: Fix load_balance()
     * affinity redo path" undone: {@code cpus} starts as every active CPU
     * ({@code cpumask_copy(cpus, cpu_active_mask)}, not intersected with the domain span) and the
     * all-pinned branch redoes while {@code cpus} is not empty ({@code !cpumask_empty(cpus)}), not
     * while it holds a CPU outside the destination group. So the redo considers CPUs outside the
     * domain and {@code dst_cpu} itself: once every CPU that could be busiest is dropped it redoes
     * once more, with nothing left to pull from, and ends balanced.
     */
    public static final class AffinityRedoPath extends LoadBalanceV511 {
        @Override
        @Kernel(function = "load_balance", file = "kernel/sched/fair.c", version = "v5.11 without 65a4433aebe3")
        public int loadBalance(LoadBalanceCall lb, Sched s) {
            LbEnv env = lb.env;
            switch (lb.at) {
                case ENTRY:
                    env.clear();
                    env.dstCpu = lb.thisCpu;
                    env.dstGrpmask = s.schedGroupSpanOf(lb.thisCpu);
                    env.idle = lb.idle;
                    env.loopBreak = SCHED_NR_MIGRATE_BREAK;
                    /* - cpumask_and(cpus, sched_domain_span(sd), cpu_active_mask);  + cpumask_copy(cpus, cpu_active_mask); */
                    env.cpus = s.cpuActiveMask();
                    /* fall through to redo: */
                case REDO: {
                    if (!shouldWeBalance(env, s)) {
                        lb.continueBalancing = false;
                        return outBalanced(env, s);
                    }
                    int group = findBusiestGroup(env, s);
                    if (group < 0) {
                        return outBalanced(env, s);
                    }
                    lb.busiest = findBusiestQueue(env, group, s);
                    if (lb.busiest < 0) {
                        return outBalanced(env, s);
                    }
                    s.warnOnOnce(lb.busiest == env.dstCpu, LbCheck.WARN_BUSIEST_IS_DST);   /* BUG_ON(busiest == env.dst_rq); */
                    env.srcCpu = lb.busiest;
                    lb.ldMoved = 0;
                    return NR_RUNNING;
                }
                case AFTER_DETACH:
                    if ((env.flags & LBF_NEED_BREAK) != 0) {
                        env.flags &= ~LBF_NEED_BREAK;
                        return MORE_BALANCE;
                    }
                    if ((env.flags & LBF_DST_PINNED) != 0 && env.imbalance > 0) {
                        env.cpus = cpumaskClearCpu(env.dstCpu, env.cpus);
                        env.dstCpu = env.newDstCpu;
                        env.flags &= ~LBF_DST_PINNED;
                        env.loop = 0;
                        env.loopBreak = SCHED_NR_MIGRATE_BREAK;
                        return MORE_BALANCE;
                    }
                    if (s.sdParent()) {
                        if ((env.flags & LBF_SOME_PINNED) != 0 && env.imbalance > 0) {
                            s.setSdParentGroupImbalance(true);
                        }
                    }
                    if ((env.flags & LBF_ALL_PINNED) != 0) {
                        env.cpus = cpumaskClearCpu(lb.busiest, env.cpus);
                        /* - if (!cpumask_subset(cpus, env.dst_grpmask)) {  + if (!cpumask_empty(cpus)) { */
                        if (env.cpus != 0) {
                            env.loop = 0;
                            env.loopBreak = SCHED_NR_MIGRATE_BREAK;
                            return REDO;
                        }
                        return OUT_ALL_PINNED;
                    }
                    return OUT;
                default:
                    return super.loadBalance(lb, s);
            }
        }
    }

    /**
     * {@code bug-f6cad8df6b30}: the v5.11 port with f6cad8df6b30 "sched/fair: Fix imbalance due to
     * CPU affinity" undone: {@code out_balanced} clears {@code sd_parent}'s group imbalance flag
     * although {@code LBF_ALL_PINNED} is still set, i.e. although no other task got a chance to
     * move: a redo after an all-pinned busiest that finds the rest balanced erases the flag the
     * same call set for the parent level.
     */
    public static final class ImbalanceCleared extends LoadBalanceV511 {
        @Override
        @Kernel(function = "load_balance", file = "kernel/sched/fair.c", version = "v5.11 without f6cad8df6b30")
        protected int outBalanced(LbEnv env, Sched s) {
            /* - if (sd_parent && !(env.flags & LBF_ALL_PINNED)) {  + if (sd_parent) { */
            if (s.sdParent()) {
                if (s.sdParentGroupImbalance()) {
                    s.setSdParentGroupImbalance(false);
                }
            }
            return OUT_BALANCED;
        }
    }

    /**
     * {@code bug-2feab2492deb}: v6.9, i.e. the v6.12 port with b0defa7ae03e "sched/fair: Make sure
     * to try to detach at least one movable task" (v6.1) back in, which 2feab2492deb 'Revert
     * "sched/fair: Make sure to try to detach at least one movable task"' (v6.10) removed:
     * {@code detach_tasks()} ignores {@code loop_max} while every task seen so far was pinned, and
     * {@code sched_balance_rq()} stops the breathers only once {@code loop} reaches
     * {@code nr_running}. With every task pinned, the scan goes round the runqueue until
     * {@code loop_break}: O(n) with the runqueue lock held, the hard lockups of the revert.
     */
    public static final class DetachAtLeastOne extends SchedBalanceRqV612 {
        @Override
        @Kernel(function = "sched_balance_rq", file = "kernel/sched/fair.c", version = "v6.12 with b0defa7ae03e (v6.9)")
        protected int schedBalanceRq(LoadBalanceCall lb, Sched s) {
            LbEnv env = lb.env;
            if (lb.at == AFTER_DETACH && (env.flags & LBF_NEED_BREAK) != 0) {
                env.flags &= ~LBF_NEED_BREAK;
                /* + Stop if we tried all running tasks */
                /* + if (env.loop < busiest->nr_running) */
                if (env.loop < s.cpuRq(lb.busiest).nrRunning) {
                    return MORE_BALANCE;
                }
                lb.at = AFTER_DETACH;      /* fall through to the rest of the post-detach tests */
            }
            return super.schedBalanceRq(lb, s);
        }

        @Override
        @Kernel(function = "detach_tasks", file = "kernel/sched/fair.c", version = "v6.12 with b0defa7ae03e (v6.9)")
        protected int detachTasks(LbEnv env, Sched s) {
            Rq src = s.cpuRq(env.srcCpu);
            int detached = 0;

            s.lockdepAssertHeld(src);

            if (src.nrRunning <= 1) {
                env.flags &= ~LBF_ALL_PINNED;
                return 0;
            }

            if (env.imbalance <= 0) {
                return 0;
            }

            while (!src.listEmpty()) {
                if (env.idle != CPU_NOT_IDLE && src.nrRunning <= 1) {
                    break;
                }

                env.loop++;
                /*
                 * + We've more or less seen every task there is, call it quits
                 * + unless we haven't found any movable task yet.
                 */
                if (env.loop > env.loopMax && (env.flags & LBF_ALL_PINNED) == 0) {
                    break;
                }

                if (env.loop > env.loopBreak) {
                    env.loopBreak += s.schedNrMigrateBreak();
                    env.flags |= LBF_NEED_BREAK;
                    break;
                }

                int p = src.listLastEntry();

                if (!canMigrateTask(p, env, s)) {
                    src.listMove(p);
                    continue;
                }

                if (env.migrationType != MIGRATE_TASK) {
                    throw new ModelLimitException("lb-redo: detach_tasks models migrate_task only; migration_type "
                            + env.migrationType);
                }
                env.imbalance--;

                detachTask(p, env, s);
                env.listAddTask(p);

                detached++;

                if (CONFIG_PREEMPTION && env.idle == CPU_NEWLY_IDLE) {
                    break;
                }
                if (env.imbalance <= 0) {
                    break;
                }
            }
            return detached;
        }
    }

    /**
     * {@code bug-7aff2e3a56b7}: the v6.12 port with 7aff2e3a56b7 "sched/balancing: Prevent the
     * reselection of a previous env.dst_cpu if some tasks are pinned" (v3.12) undone: the
     * {@code LBF_DST_PINNED} retry clears the <em>new</em> {@code dst_cpu} from {@code env->cpus}
     * (the clear comes after the assignment), so the old one stays selectable and the new one is
     * not in {@code env->cpus}.
     */
    public static final class ReselectDst extends SchedBalanceRqV612 {
        @Override
        @Kernel(function = "sched_balance_rq", file = "kernel/sched/fair.c", version = "v6.12 without 7aff2e3a56b7")
        protected int schedBalanceRq(LoadBalanceCall lb, Sched s) {
            LbEnv env = lb.env;
            if (lb.at == AFTER_DETACH && (env.flags & LBF_NEED_BREAK) == 0
                    && (env.flags & LBF_DST_PINNED) != 0 && env.imbalance > 0) {
                /* - __cpumask_clear_cpu(env.dst_cpu, env.cpus);  (before the assignment) */
                env.dstCpu = env.newDstCpu;     /* env.dst_rq = cpu_rq(env.new_dst_cpu); */
                /* + Prevent to re-select dst_cpu via env's cpus: cpumask_clear_cpu(env.dst_cpu, env.cpus); */
                env.cpus = cpumaskClearCpu(env.dstCpu, env.cpus);
                env.flags &= ~LBF_DST_PINNED;
                env.loop = 0;
                env.loopBreak = s.schedNrMigrateBreak();
                return MORE_BALANCE;
            }
            return super.schedBalanceRq(lb, s);
        }
    }

    /**
     * {@code bug-52c3a18973d0}: the v6.12 port with 52c3a18973d0 "sched/fair: Don't balance task
     * to its current running CPU" (v6.5) undone: {@code .dst_grpmask = sched_group_span(sd->groups)}
     * instead of {@code group_balance_mask(sd->groups)}. With overlapping (NUMA) groups the local
     * group's span holds CPUs of another group, busiest among them, so {@code new_dst_cpu} can be
     * the source CPU itself (needs {@code topology=overlap}, a periodic balance).
     */
    public static final class DstGrpmaskSpan extends SchedBalanceRqV612 {
        @Override
        @Kernel(function = "sched_balance_rq", file = "kernel/sched/fair.c", version = "v6.12 without 52c3a18973d0")
        protected int schedBalanceRq(LoadBalanceCall lb, Sched s) {
            LbEnv env = lb.env;
            if (lb.at == ENTRY) {
                env.clear();
                env.dstCpu = lb.thisCpu;
                /* - .dst_grpmask = group_balance_mask(sd->groups),  + .dst_grpmask = sched_group_span(sd->groups), */
                env.dstGrpmask = s.schedGroupSpanOf(lb.thisCpu);
                env.idle = lb.idle;
                env.loopBreak = s.schedNrMigrateBreak();
                env.cpus = s.schedDomainSpan() & s.cpuActiveMask();
                lb.at = REDO;   /* fall through to redo: */
            }
            return super.schedBalanceRq(lb, s);
        }
    }

    /**
     * {@code bug-6d7e4782bcf5}: the v6.12 port with 6d7e4782bcf5 "sched/fair: Fix the decision for
     * load balance" (v6.7; Fixes b1bfeab9b002, v6.6) undone in {@code should_we_balance()}: after
     * the search for an idle core, the first idle CPU with busy siblings returns true, but every
     * other CPU falls through to "the first CPU of the group", so a busy {@code group_balance_cpu}
     * balances too: two CPUs of the group return true ([0,1] [2,3] busy busy idle busy: CPUs 0 and
     * 2). Needs SMT siblings in a local group ({@code topology=smt-llc}) and a periodic balance.
     */
    public static final class SwbFirstIdleSmt extends SchedBalanceRqV612 {
        @Override
        @Kernel(function = "should_we_balance", file = "kernel/sched/fair.c", version = "v6.12 without 6d7e4782bcf5")
        protected boolean shouldWeBalance(LbEnv env, Sched s) {
            if (!cpumaskTestCpu(env.dstCpu, env.cpus)) {
                return false;
            }
            if (env.idle == CPU_NEWLY_IDLE) {
                return s.cpuRq(env.dstCpu).nrRunning <= 0;
            }
            long swbCpus = s.groupBalanceMaskOf(env.dstCpu);
            int idleSmt = -1;
            for (int cpu = 0; cpu < s.nrCpus; cpu++) {
                if (!cpumaskTestCpu(cpu, swbCpus & env.cpus)) {
                    continue;
                }
                if (!s.idleCpu(cpu)) {
                    continue;
                }
                if (!s.sdShareCpuCapacity() && !s.isCoreIdle(cpu)) {
                    if (idleSmt == -1) {
                        idleSmt = cpu;
                    }
                    swbCpus &= ~s.cpuSmtMask(cpu);
                    continue;
                }
                /* - Are we the first idle CPU?  (the comment 6d7e4782bcf5 rewrote) */
                return cpu == env.dstCpu;
            }
            /* - if (idle_smt == env->dst_cpu)      + if (idle_smt != -1)                       */
            /* -         return true;               +         return idle_smt == env->dst_cpu;  */
            if (idleSmt == env.dstCpu) {
                return true;
            }
            /* Are we the first CPU of this group ? */
            return Long.numberOfTrailingZeros(s.groupBalanceMaskOf(env.dstCpu)) == env.dstCpu;
        }
    }
}
