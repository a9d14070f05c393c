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

/**
 * {@code load_balance()} of v5.13, the {@code after} variant, with the fix that landed,
 * acb4decc1e90 "sched/fair: Reduce long-tail newly idle balance cost": {@code detach_tasks()}
 * starts by checking whether busiest has been emptied by another CPU, and if so clears
 * {@code LBF_ALL_PINNED} (no task will be tested) and returns. v5.13 also carries 8a41dfcda7a3
 * (v5.12): {@code LBF_ALL_PINNED} is set before the unlocked {@code nr_running} test.
 */
public class LoadBalanceV513 extends FairLoadBalance {

    @Override
    @Kernel(function = "load_balance", file = "kernel/sched/fair.c", version = "v5.13")
    public int loadBalance(LoadBalanceCall lb, Sched s) {
        LbEnv env = lb.env;
        switch (lb.at) {
            case ENTRY:
                env.clear();
                env.dstCpu = lb.thisCpu;
                env.dstGrpmask = s.schedGroupSpanOf(lb.thisCpu);
                env.idle = lb.idle;
                env.loopBreak = SCHED_NR_MIGRATE_BREAK;
                env.cpus = s.schedDomainSpan() & s.cpuActiveMask();
                /* fall through to redo: */
            case REDO: {
                if (!shouldWeBalance(env, s)) {
                    lb.continueBalancing = false;   /* *continue_balancing = 0; */
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
                /* Clear this flag as soon as we find a pullable task */
                env.flags |= LBF_ALL_PINNED;
                return NR_RUNNING;
            }
            case NR_RUNNING: {
                Rq busiest = s.cpuRq(lb.busiest);
                if (busiest.nrRunning > 1) {
                    env.loopMax = Math.min(s.sysctlSchedNrMigrate(), busiest.nrRunning);
                    return MORE_BALANCE;
                }
                return OUT;
            }
            case MORE_BALANCE: {
                Rq busiest = s.cpuRq(lb.busiest);
                s.rqLock(busiest);
                int curLdMoved = detachTasks(env, s);
                s.rqUnlock(busiest);
                if (curLdMoved != 0) {
                    attachTasks(env, s);
                    lb.ldMoved += curLdMoved;
                }
                return AFTER_DETACH;
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
                /* We failed to reach balance because of affinity. */
                if (s.sdParent()) {
                    if ((env.flags & LBF_SOME_PINNED) != 0 && env.imbalance > 0) {
                        s.setSdParentGroupImbalance(true);
                    }
                }
                /* All tasks on this runqueue were pinned by CPU affinity */
                if ((env.flags & LBF_ALL_PINNED) != 0) {
                    env.cpus = cpumaskClearCpu(lb.busiest, env.cpus);
                    if (!cpumaskSubset(env.cpus, env.dstGrpmask)) {
                        env.loop = 0;
                        env.loopBreak = SCHED_NR_MIGRATE_BREAK;
                        return REDO;
                    }
                    return OUT_ALL_PINNED;
                }
                return OUT;
            default:
                throw new IllegalStateException("load_balance resumed at " + lb.at);
        }
    }

    @Kernel(function = "detach_tasks", file = "kernel/sched/fair.c", version = "v5.13", commit = "acb4decc1e90")
    protected int detachTasks(LbEnv env, Sched s) {
        Rq src = s.cpuRq(env.srcCpu);
        int detached = 0;

        s.lockdepAssertHeld(src);

        /*
         * Source run queue has been emptied by another CPU, clear
         * LBF_ALL_PINNED flag as we will not test any task.
         */
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
                throw new kcheck.model.ModelLimitException("lb-redo: detach_tasks models migrate_task only; migration_type "
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

    /**
     * {@code can_migrate_task()} of v5.13. Its v5.12 addition, "disregard per-CPU kthreads", is not
     * modelled (no kthreads), so the modelled part equals v5.11's.
     */
    @Kernel(function = "can_migrate_task", file = "kernel/sched/fair.c", version = "v5.13")
    protected boolean canMigrateTask(int p, LbEnv env, Sched s) {
        s.lockdepAssertHeld(s.cpuRq(env.srcCpu));

        /* if (throttled_lb_pair(task_group(p), env->src_cpu, env->dst_cpu)) return 0; */
        /* if (kthread_is_per_cpu(p)) return 0; */

        if (!cpumaskTestCpu(env.dstCpu, s.cpusPtr(p))) {
            s.schedstatInc(p, Sched.NR_FAILED_MIGRATIONS_AFFINE);
            env.flags |= LBF_SOME_PINNED;
            if (env.idle == CPU_NEWLY_IDLE || (env.flags & LBF_DST_PINNED) != 0) {
                return false;
            }
            for (long m = env.dstGrpmask & env.cpus; m != 0; m &= m - 1) {
                int cpu = Long.numberOfTrailingZeros(m);
                if (cpumaskTestCpu(cpu, s.cpusPtr(p))) {
                    env.flags |= LBF_DST_PINNED;
                    env.newDstCpu = cpu;
                    break;
                }
            }
            return false;
        }

        /* Record that we found at least one task that could run on dst_cpu */
        env.flags &= ~LBF_ALL_PINNED;

        if (s.taskRunning(s.cpuRq(env.srcCpu), p)) {
            s.schedstatInc(p, Sched.NR_FAILED_MIGRATIONS_RUNNING);
            return false;
        }

        int tskCacheHot = s.taskHot(p);   /* migrate_degrades_locality(p, env), then task_hot(p, env) */
        if (tskCacheHot <= 0) {
            return true;
        }
        s.schedstatInc(p, Sched.NR_FAILED_MIGRATIONS_HOT);
        return false;
    }
}
