package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.CPU_NEWLY_IDLE;
import static kcheck.model.lbredo.LbEnv.CPU_NOT_IDLE;
import static kcheck.model.lbredo.LbEnv.LBF_ACTIVE_LB;
import static kcheck.model.lbredo.LbEnv.LBF_ALL_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_DST_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_NEED_BREAK;
import static kcheck.model.lbredo.LbEnv.LBF_SOME_PINNED;
import static kcheck.model.lbredo.LbEnv.MIGRATE_TASK;

import kcheck.model.Kernel;
import kcheck.model.ModelLimitException;

/**
 * {@code sched_balance_rq()} of v6.12 (kernel/sched/fair.c of v6.12.117; {@code load_balance()}
 * was renamed in v6.10, with {@code find_busiest_group()} and {@code find_busiest_queue()} becoming
 * {@code sched_balance_find_src_group()} and {@code sched_balance_find_src_rq()}), with its
 * {@code should_we_balance()}, {@code detach_tasks()}, {@code can_migrate_task()},
 * {@code detach_task()}, {@code attach_task()} and {@code attach_tasks()}.
 *
 * <p>What changed since v5.13 in the parts that bear on the redo and affinity paths, and how each is
 * treated here (docs/models/lb-redo.md, "v6.12"):
 * <ul>
 * <li>{@code .dst_grpmask = group_balance_mask(sd->groups)} (52c3a18973d0, v6.5): equal to the
 * group span for the non-overlapping groups modelled;</li>
 * <li>{@code .loop_break = SCHED_NR_MIGRATE_BREAK} (8 with {@code CONFIG_PREEMPT_RT}), and
 * {@code sysctl_sched_nr_migrate} defaults to it: both from {@link Sched};</li>
 * <li>{@code detach_tasks()} reads {@code list_last_entry()} after the loop tests; the v6.1
 * "detach at least one movable task" change (b0defa7ae03e) and its v6.10 revert (2feab2492deb)
 * leave the v5.13 loop as it was;</li>
 * <li>{@code should_we_balance()}: a newly idle CPU that already has a task does not balance, and
 * a periodic balance above the SMT level prefers an idle core to an idle SMT sibling of a busy
 * core;</li>
 * <li>{@code can_migrate_task()}: {@code LBF_ACTIVE_LB} (set only by the active balance's own
 * {@code lb_env}, never on this path), per-CPU kthreads, {@code p->sched_task_hot} (tasks are
 * cache-cold here);</li>
 * <li>{@code enum cpu_idle_type} starts at {@code __CPU_NOT_IDLE = 0}, so {@code if (env->idle && ...)}
 * is the v5.x {@code env->idle != CPU_NOT_IDLE} (this port keeps the v5.x numbering of {@link LbEnv}).</li>
 * </ul>
 */
public class SchedBalanceRqV612 extends FairLoadBalance {

    @Override
    public int loadBalance(LoadBalanceCall lb, Sched s) {
        return schedBalanceRq(lb, s);
    }

    @Kernel(function = "sched_balance_rq", file = "kernel/sched/fair.c", version = "v6.12", line = 11795)
    protected int schedBalanceRq(LoadBalanceCall lb, Sched s) {
        LbEnv env = lb.env;
        switch (lb.at) {
            case ENTRY:
                /*
                 * struct lb_env env = { .sd = sd, .dst_cpu = this_cpu, .dst_rq = this_rq,
                 *     .dst_grpmask = group_balance_mask(sd->groups), .idle = idle,
                 *     .loop_break = SCHED_NR_MIGRATE_BREAK, .cpus = cpus, .fbq_type = all, };
                 */
                env.clear();
                env.dstCpu = lb.thisCpu;
                env.dstGrpmask = s.groupBalanceMaskOf(lb.thisCpu);
                env.idle = lb.idle;
                env.loopBreak = s.schedNrMigrateBreak();
                /* cpumask_and(cpus, sched_domain_span(sd), cpu_active_mask); */
                env.cpus = s.schedDomainSpan() & s.cpuActiveMask();
                /* fall through to redo: */
            case REDO: {
                if (!shouldWeBalance(env, s)) {
                    lb.continueBalancing = false;   /* *continue_balancing = 0; */
                    return outBalanced(env, s);
                }
                int group = schedBalanceFindSrcGroup(env, s);
                if (group < 0) {
                    return outBalanced(env, s);
                }
                lb.busiest = schedBalanceFindSrcRq(env, group, s);
                if (lb.busiest < 0) {
                    return outBalanced(env, s);
                }
                s.warnOnOnce(lb.busiest == env.dstCpu, LbCheck.WARN_BUSIEST_IS_DST);   /* WARN_ON_ONCE(busiest == env.dst_rq); */
                env.srcCpu = lb.busiest;
                lb.ldMoved = 0;
                /* Clear this flag as soon as we find a pullable task */
                env.flags |= LBF_ALL_PINNED;
                return NR_RUNNING;
            }
            case NR_RUNNING: {
                Rq busiest = s.cpuRq(lb.busiest);
                if (busiest.nrRunning > 1) {
                    /*
                     * Attempt to move tasks. If sched_balance_find_src_group has found
                     * an imbalance but busiest->nr_running <= 1, the group is
                     * still unbalanced. ld_moved simply stays zero, so it is
                     * correctly treated as an imbalance.
                     */
                    env.loopMax = Math.min(s.sysctlSchedNrMigrate(), busiest.nrRunning);
                    return MORE_BALANCE;
                }
                /* if (!ld_moved): need_active_balance() and the interval tuning end the call */
                return OUT;
            }
            case MORE_BALANCE: {
                /* more_balance: */
                Rq busiest = s.cpuRq(lb.busiest);
                s.rqLock(busiest);
                /* update_rq_clock(busiest); */
                int curLdMoved = detachTasks(env, s);
                s.rqUnlock(busiest);
                if (curLdMoved != 0) {
                    attachTasks(env, s);
                    lb.ldMoved += curLdMoved;
                }
                /* local_irq_restore(rf.flags); */
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
                    env.dstCpu = env.newDstCpu;     /* env.dst_rq = cpu_rq(env.new_dst_cpu); */
                    env.flags &= ~LBF_DST_PINNED;
                    env.loop = 0;
                    env.loopBreak = s.schedNrMigrateBreak();
                    /* Go back to "more_balance" rather than "redo" since we need to continue with same src_cpu. */
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
                        env.loopBreak = s.schedNrMigrateBreak();
                        return REDO;
                    }
                    return OUT_ALL_PINNED;
                }
                /* if (!ld_moved) ... need_active_balance(): not modelled, the call ends */
                return OUT;
            default:
                throw new IllegalStateException("sched_balance_rq resumed at " + lb.at);
        }
    }

    /** The {@code out_balanced:} label of {@code sched_balance_rq()}: as v5.11 (f6cad8df6b30). */
    @Override
    @Kernel(function = "sched_balance_rq", file = "kernel/sched/fair.c", version = "v6.12", line = 11795)
    protected int outBalanced(LbEnv env, Sched s) {
        if (s.sdParent() && (env.flags & LBF_ALL_PINNED) == 0) {
            if (s.sdParentGroupImbalance()) {
                s.setSdParentGroupImbalance(false);
            }
        }
        return OUT_BALANCED;
    }

    @Override
    @Kernel(function = "should_we_balance", file = "kernel/sched/fair.c", version = "v6.12", line = 11725)
    protected boolean shouldWeBalance(LbEnv env, Sched s) {
        /*
         * Ensure the balancing environment is consistent; can happen
         * when the softirq triggers 'during' hotplug.
         */
        if (!cpumaskTestCpu(env.dstCpu, env.cpus)) {
            return false;
        }
        /*
         * In the newly idle case, we will allow all the CPUs
         * to do the newly idle load balance.
         *
         * However, we bail out if we already have tasks or a wakeup pending,
         * to optimize wakeup latency.
         */
        if (env.idle == CPU_NEWLY_IDLE) {
            /* || env->dst_rq->ttwu_pending: no wake-ups are modelled */
            return s.cpuRq(env.dstCpu).nrRunning <= 0;
        }
        long swbCpus = s.groupBalanceMaskOf(env.dstCpu);   /* cpumask_copy(swb_cpus, group_balance_mask(sg)); */
        int idleSmt = -1;
        /* Try to find first idle CPU */
        for (int cpu = 0; cpu < s.nrCpus; cpu++) {          /* for_each_cpu_and(cpu, swb_cpus, env->cpus) */
            if (!cpumaskTestCpu(cpu, swbCpus & env.cpus)) {
                continue;
            }
            if (!s.idleCpu(cpu)) {
                continue;
            }
            /*
             * Don't balance to idle SMT in busy core right away when
             * balancing cores, but remember the first idle SMT CPU for
             * later consideration.  Find CPU on an idle core first.
             */
            if (!s.sdShareCpuCapacity() && !s.isCoreIdle(cpu)) {
                if (idleSmt == -1) {
                    idleSmt = cpu;
                }
                /* #ifdef CONFIG_SCHED_SMT: cpumask_andnot(swb_cpus, swb_cpus, cpu_smt_mask(cpu)); */
                swbCpus &= ~s.cpuSmtMask(cpu);
                continue;
            }
            /*
             * Are we the first idle core in a non-SMT domain or higher,
             * or the first idle CPU in a SMT domain?
             */
            return cpu == env.dstCpu;
        }
        /* Are we the first idle CPU with busy siblings? */
        if (idleSmt != -1) {
            return idleSmt == env.dstCpu;
        }
        /* Are we the first CPU of this group ? (group_balance_cpu(sg)) */
        return Long.numberOfTrailingZeros(s.groupBalanceMaskOf(env.dstCpu)) == env.dstCpu;
    }

    /**
     * {@code sched_balance_find_src_group()}: the statistics pass and the busiest choice,
     * abstracted as for v5.11 ({@link Sched#updateSdLbStats}); the imbalance is one task.
     */
    @Kernel(function = "sched_balance_find_src_group", file = "kernel/sched/fair.c", version = "v6.12", line = 11376)
    protected int schedBalanceFindSrcGroup(LbEnv env, Sched s) {
        return findBusiestGroup(env, s);
    }

    /** {@code sched_balance_find_src_rq()}: the CPU the statistics pass settled on. */
    @Kernel(function = "sched_balance_find_src_rq", file = "kernel/sched/fair.c", version = "v6.12", line = 11514)
    protected int schedBalanceFindSrcRq(LbEnv env, int group, Sched s) {
        return findBusiestQueue(env, group, s);
    }

    @Kernel(function = "detach_tasks", file = "kernel/sched/fair.c", version = "v6.12", line = 9616)
    protected int detachTasks(LbEnv env, Sched s) {
        Rq src = s.cpuRq(env.srcCpu);
        int detached = 0;

        s.lockdepAssertHeld(src);   /* lockdep_assert_rq_held(env->src_rq); */

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
            /*
             * We don't want to steal all, otherwise we may be treated likewise,
             * which could at worst lead to a livelock crash.
             */
            if (env.idle != CPU_NOT_IDLE && src.nrRunning <= 1) {     /* if (env->idle && ...) */
                break;
            }

            env.loop++;
            /* We've more or less seen every task there is, call it quits */
            if (env.loop > env.loopMax) {
                break;
            }

            /* take a breather every nr_migrate tasks */
            if (env.loop > env.loopBreak) {
                env.loopBreak += s.schedNrMigrateBreak();
                env.flags |= LBF_NEED_BREAK;
                break;
            }

            int p = src.listLastEntry();

            if (!canMigrateTask(p, env, s)) {
                /* next: list_move(&p->se.group_node, tasks); */
                src.listMove(p);
                continue;
            }

            /* switch (env->migration_type): only migrate_task is reached (find_busiest_group is abstracted) */
            if (env.migrationType != MIGRATE_TASK) {
                throw new ModelLimitException("lb-redo: detach_tasks models migrate_task only; migration_type "
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
     * {@code can_migrate_task()} of v6.12. Not modelled: {@code throttled_lb_pair()} (no CFS
     * bandwidth), per-CPU kthreads, NUMA locality and cache hotness (every task is cache-cold,
     * so {@code p->sched_task_hot} stays 0).
     */
    @Kernel(function = "can_migrate_task", file = "kernel/sched/fair.c", version = "v6.12", line = 9474)
    protected boolean canMigrateTask(int p, LbEnv env, Sched s) {
        s.lockdepAssertHeld(s.cpuRq(env.srcCpu));

        /* if (throttled_lb_pair(task_group(p), env->src_cpu, env->dst_cpu)) return 0; */
        /* if (kthread_is_per_cpu(p)) return 0; */

        if (!cpumaskTestCpu(env.dstCpu, s.cpusPtr(p))) {
            s.schedstatInc(p, Sched.NR_FAILED_MIGRATIONS_AFFINE);

            env.flags |= LBF_SOME_PINNED;

            /*
             * Remember if this task can be migrated to any other CPU in
             * our sched_group. We may want to revisit it if we couldn't
             * meet load balance goals by pulling other tasks on src_cpu.
             *
             * Avoid computing new_dst_cpu
             * - for NEWLY_IDLE
             * - if we have already computed one in current iteration
             * - if it's an active balance
             */
            if (env.idle == CPU_NEWLY_IDLE || (env.flags & (LBF_DST_PINNED | LBF_ACTIVE_LB)) != 0) {
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

        /* Record that we found at least one task that could run on dst_cpu */
        env.flags &= ~LBF_ALL_PINNED;

        if (s.taskRunning(s.cpuRq(env.srcCpu), p)) {   /* task_on_cpu(env->src_rq, p) */
            s.schedstatInc(p, Sched.NR_FAILED_MIGRATIONS_RUNNING);
            return false;
        }

        /* Aggressive migration if: 1) active balance ... */
        if ((env.flags & LBF_ACTIVE_LB) != 0) {
            return true;
        }

        /* tsk_cache_hot = migrate_degrades_locality(p, env); if (tsk_cache_hot == -1) tsk_cache_hot = task_hot(p, env); */
        int tskCacheHot = s.taskHot(p);
        if (tskCacheHot <= 0) {
            return true;
        }
        s.schedstatInc(p, Sched.NR_FAILED_MIGRATIONS_HOT);
        return false;
    }

    /** {@code detach_task()}: detach the task for the migration specified in env. */
    @Override
    @Kernel(function = "detach_task", file = "kernel/sched/fair.c", version = "v6.12", line = 9565)
    protected void detachTask(int p, LbEnv env, Sched s) {
        Rq src = s.cpuRq(env.srcCpu);
        s.lockdepAssertHeld(src);
        /* if (p->sched_task_hot) { ... }: tasks are cache-cold */
        s.deactivateTask(src, p);
        s.setTaskCpu(p, env.dstCpu);
    }

    /** {@code attach_task()}: attach the task detached by {@code detach_task()} to its new rq. */
    @Override
    @Kernel(function = "attach_task", file = "kernel/sched/fair.c", version = "v6.12", line = 9754)
    protected void attachTask(Rq rq, int p, Sched s) {
        s.lockdepAssertHeld(rq);
        s.warnOnOnce(s.taskCpu(p) != rq.cpu, LbCheck.WARN_ATTACH_TASK_RQ);   /* WARN_ON_ONCE(task_rq(p) != rq); */
        s.activateTask(rq, p);
        /* wakeup_preempt(rq, p, 0); */
    }

    /** {@code attach_tasks()}: attaches all tasks detached by {@code detach_tasks()} to their new rq. */
    @Override
    @Kernel(function = "attach_tasks", file = "kernel/sched/fair.c", version = "v6.12", line = 9781)
    protected void attachTasks(LbEnv env, Sched s) {
        super.attachTasks(env, s);
    }
}
