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
 * {@code load_balance()} of v5.11, the {@code before} variant: {@code LBF_ALL_PINNED} is set after
 * an unlocked read finds more than one task on busiest; {@code detach_tasks()} stops without
 * looking at any task if busiest has meanwhile dropped to one task, leaving the flag set; the
 * caller then takes the all-pinned branch and redoes the whole search.
 */
public class LoadBalanceV511 extends FairLoadBalance {

    @Override
    @Kernel(function = "load_balance", file = "kernel/sched/fair.c", version = "v5.11")
    public int loadBalance(LoadBalanceCall lb, Sched s) {
        LbEnv env = lb.env;
        switch (lb.at) {
            case ENTRY:
                /*
                 * struct lb_env env = { .sd = sd, .dst_cpu = this_cpu, .dst_rq = this_rq,
                 *     .dst_grpmask = sched_group_span(sd->groups), .idle = idle,
                 *     .loop_break = sched_nr_migrate_break, .cpus = cpus, .fbq_type = all, };
                 */
                env.clear();
                env.dstCpu = lb.thisCpu;
                env.dstGrpmask = s.schedGroupSpanOf(lb.thisCpu);
                env.idle = lb.idle;
                env.loopBreak = SCHED_NR_MIGRATE_BREAK;
                /* cpumask_and(cpus, sched_domain_span(sd), cpu_active_mask); */
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
                return NR_RUNNING;
            }
            case NR_RUNNING: {
                Rq busiest = s.cpuRq(lb.busiest);
                if (busiest.nrRunning > 1) {
                    /*
                     * Attempt to move tasks. If find_busiest_group has found
                     * an imbalance but busiest->nr_running <= 1, the group is
                     * still unbalanced. ld_moved simply stays zero, so it is
                     * correctly treated as an imbalance.
                     */
                    env.flags |= LBF_ALL_PINNED;
                    env.loopMax = Math.min(s.sysctlSchedNrMigrate(), busiest.nrRunning);
                    return MORE_BALANCE;
                }
                /* if (!ld_moved): need_active_balance() and the interval tuning end the call */
                return OUT;
            }
            case MORE_BALANCE: {
                Rq busiest = s.cpuRq(lb.busiest);
                s.rqLock(busiest);
                /* update_rq_clock(busiest); */
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
                /* Revisit (affine) tasks on src_cpu that couldn't be moved to us ... */
                if ((env.flags & LBF_DST_PINNED) != 0 && env.imbalance > 0) {
                    /* Prevent to re-select dst_cpu via env's CPUs */
                    env.cpus = cpumaskClearCpu(env.dstCpu, env.cpus);
                    env.dstCpu = env.newDstCpu;
                    env.flags &= ~LBF_DST_PINNED;
                    env.loop = 0;
                    env.loopBreak = SCHED_NR_MIGRATE_BREAK;
                    return MORE_BALANCE;
                }
                /* We failed to reach balance because of affinity. */
                if (s.sdParent()) {
                    /* int *group_imbalance = &sd_parent->groups->sgc->imbalance; */
                    if ((env.flags & LBF_SOME_PINNED) != 0 && env.imbalance > 0) {
                        s.setSdParentGroupImbalance(true);
                    }
                }
                /* All tasks on this runqueue were pinned by CPU affinity */
                if ((env.flags & LBF_ALL_PINNED) != 0) {
                    env.cpus = cpumaskClearCpu(lb.busiest, env.cpus);
                    /*
                     * Attempting to continue load balancing at the current
                     * sched_domain level only makes sense if there are
                     * active CPUs remaining as possible busiest CPUs to
                     * pull load from which are not contained within the
                     * destination group that is receiving any migrated
                     * load.
                     */
                    if (!cpumaskSubset(env.cpus, env.dstGrpmask)) {
                        env.loop = 0;
                        env.loopBreak = SCHED_NR_MIGRATE_BREAK;
                        return REDO;
                    }
                    return OUT_ALL_PINNED;
                }
                /* if (!ld_moved) ... need_active_balance(): not modelled, the call ends */
                return OUT;
            default:
                throw new IllegalStateException("load_balance resumed at " + lb.at);
        }
    }

    /**
     * {@code detach_tasks()}: tries to detach up to imbalance tasks from busiest. Only the
     * {@code migrate_task} case of the migration switch is reached (see
     * {@link #findBusiestGroup}); the other cases refuse a task after {@code can_migrate_task()}
     * has already cleared {@code LBF_ALL_PINNED}, so they cannot change the redo decision.
     */
    @Kernel(function = "detach_tasks", file = "kernel/sched/fair.c", version = "v5.11")
    protected int detachTasks(LbEnv env, Sched s) {
        Rq src = s.cpuRq(env.srcCpu);
        int detached = 0;

        s.lockdepAssertHeld(src);

        if (env.imbalance <= 0) {
            return 0;
        }

        while (!src.listEmpty()) {
            /*
             * We don't want to steal all, otherwise we may be treated likewise,
             * which could at worst lead to a livelock crash.
             */
            if (env.idle != CPU_NOT_IDLE && src.nrRunning <= 1) {
                break;
            }

            int p = src.listLastEntry();

            env.loop++;
            /* We've more or less seen every task there is, call it quits */
            if (env.loop > env.loopMax) {
                break;
            }

            /* take a breather every nr_migrate tasks */
            if (env.loop > env.loopBreak) {
                env.loopBreak += SCHED_NR_MIGRATE_BREAK;
                env.flags |= LBF_NEED_BREAK;
                break;
            }

            if (!canMigrateTask(p, env, s)) {
                /* next: */
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

            /*
             * NEWIDLE balancing is a source of latency, so preemptible
             * kernels will stop after the first task is detached to minimize
             * the critical section.
             */
            if (CONFIG_PREEMPTION && env.idle == CPU_NEWLY_IDLE) {
                break;
            }

            /* We only want to steal up to the prescribed amount of load/util/tasks. */
            if (env.imbalance <= 0) {
                break;
            }
        }
        /* schedstat_add(env->sd->lb_gained[env->idle], detached); */
        return detached;
    }

    /**
     * {@code can_migrate_task()}: may task p from busiest be migrated to {@code dst_cpu}? Not
     * modelled: {@code throttled_lb_pair()} (no CFS bandwidth), NUMA locality and cache hotness
     * (every task is cache-cold).
     */
    @Kernel(function = "can_migrate_task", file = "kernel/sched/fair.c", version = "v5.11")
    protected boolean canMigrateTask(int p, LbEnv env, Sched s) {
        s.lockdepAssertHeld(s.cpuRq(env.srcCpu));

        /* if (throttled_lb_pair(task_group(p), env->src_cpu, env->dst_cpu)) return 0; */

        if (!cpumaskTestCpu(env.dstCpu, s.cpusPtr(p))) {
            s.schedstatInc(p, Sched.NR_FAILED_MIGRATIONS_AFFINE);

            env.flags |= LBF_SOME_PINNED;

            /*
             * Remember if this task can be migrated to any other CPU in
             * our sched_group. We may want to revisit it if we couldn't
             * meet load balance goals by pulling other tasks on src_cpu.
             *
             * Avoid computing new_dst_cpu for NEWLY_IDLE or if we have
             * already computed one in current iteration.
             */
            if (env.idle == CPU_NEWLY_IDLE || (env.flags & LBF_DST_PINNED) != 0) {
                return false;
            }

            /* Prevent to re-select dst_cpu via env's CPUs: */
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

        /* Record that we found atleast one task that could run on dst_cpu */
        env.flags &= ~LBF_ALL_PINNED;

        if (s.taskRunning(s.cpuRq(env.srcCpu), p)) {
            s.schedstatInc(p, Sched.NR_FAILED_MIGRATIONS_RUNNING);
            return false;
        }

        /* tsk_cache_hot = migrate_degrades_locality(p, env); if (tsk_cache_hot == -1) tsk_cache_hot = task_hot(p, env); */
        int tskCacheHot = s.taskHot(p);
        if (tskCacheHot <= 0) {
            return true;
        }
        s.schedstatInc(p, Sched.NR_FAILED_MIGRATIONS_HOT);
        return false;
    }
}
