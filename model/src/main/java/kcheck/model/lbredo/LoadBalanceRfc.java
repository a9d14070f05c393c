package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.LBF_ALL_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_DST_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_NEED_BREAK;
import static kcheck.model.lbredo.LbEnv.LBF_SOME_PINNED;
import static kcheck.model.lbredo.LbEnv.SCHED_NR_MIGRATE_BREAK;

import kcheck.model.Kernel;

/**
 * The {@code rfc} variant: v5.11 with "[RFC PATCH v1] sched/fair: limit load balance redo times at
 * the same sched_domain level" (Aubrey Li, 2021-01-25) applied as posted: {@code lb_env} gains
 * {@code redo_cnt} and {@code redo_max}, {@code redo_max = sched_nr_lb_redo = 1}, and the redo test
 * becomes {@code !cpumask_subset(cpus, env.dst_grpmask) && ++env.redo_cnt < env.redo_max}. On the
 * first all-pinned pass that is {@code 1 < 1}: the patch disables redo altogether.
 * {@code detach_tasks()} and {@code can_migrate_task()} are v5.11's.
 */
public class LoadBalanceRfc extends LoadBalanceV511 {

    /** {@code static const unsigned int sched_nr_lb_redo = 1;} */
    static final int SCHED_NR_LB_REDO = 1;

    @Override
    @Kernel(function = "load_balance", file = "kernel/sched/fair.c", version = "v5.11 + RFC v1 (2021-01-25)")
    public int loadBalance(LoadBalanceCall lb, Sched s) {
        LbEnv env = lb.env;
        switch (lb.at) {
            case ENTRY:
                env.clear();
                env.dstCpu = lb.thisCpu;
                env.dstGrpmask = s.schedGroupSpanOf(lb.thisCpu);
                env.idle = lb.idle;
                env.loopBreak = SCHED_NR_MIGRATE_BREAK;
                env.redoMax = SCHED_NR_LB_REDO;          /* + .redo_max = sched_nr_lb_redo, */
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
                    env.flags |= LBF_ALL_PINNED;
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
                if ((env.flags & LBF_ALL_PINNED) != 0) {
                    env.cpus = cpumaskClearCpu(lb.busiest, env.cpus);
                    if (!cpumaskSubset(env.cpus, env.dstGrpmask)
                            && ++env.redoCnt < env.redoMax) {   /* + && ++env.redo_cnt < env.redo_max) { */
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
}
