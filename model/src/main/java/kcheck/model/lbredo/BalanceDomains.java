package kcheck.model.lbredo;

import kcheck.model.Kernel;

/**
 * The walk over the balancing CPU's domains, lowest first ({@code for_each_domain()}), that calls
 * {@code load_balance()} once per level: {@code newidle_balance()} for a newly idle CPU and
 * {@code rebalance_domains()} for the periodic balance (kernel/sched/fair.c, v5.11; v6.12 calls
 * them {@code sched_balance_newidle()} and {@code sched_balance_domains()}, unchanged in what is
 * modelled here). Not modelled: the balance intervals (every level is due), the newly idle
 * cost cut-off ({@code avg_idle} against {@code max_newidle_lb_cost}), {@code SD_SERIALIZE}.
 */
final class BalanceDomains {
    private BalanceDomains() {
    }

    /**
     * {@code newidle_balance()}: after {@code pulled_task = load_balance(...)} at one level,
     * "stop searching for tasks to pull if there are now runnable tasks on this rq"
     * ({@code if (pulled_task || this_rq->nr_running > 0) break;}); v6.12 also stops when
     * {@code should_we_balance()} cleared {@code continue_balancing}.
     */
    @Kernel(function = "newidle_balance", file = "kernel/sched/fair.c", version = "v5.11")
    static boolean newidleGoesOn(int pulledTask, Rq thisRq, boolean continueBalancing) {
        return !(pulledTask != 0 || thisRq.nrRunning > 0 || !continueBalancing);
    }

    /**
     * {@code rebalance_domains()}: the next level is balanced unless {@code should_we_balance()}
     * cleared {@code continue_balancing} ("there is another CPU in our sched group which is doing
     * load balancing more actively").
     */
    @Kernel(function = "rebalance_domains", file = "kernel/sched/fair.c", version = "v5.11")
    static boolean rebalanceGoesOn(boolean continueBalancing) {
        return continueBalancing;
    }

    /**
     * {@code rebalance_domains()}: "The LBF_DST_PINNED logic could have changed env->dst_cpu, so
     * we can't know our idle state even if we migrated tasks. Update it."
     * ({@code if (load_balance(...)) idle = idle_cpu(cpu) ? CPU_IDLE : CPU_NOT_IDLE;}).
     */
    @Kernel(function = "rebalance_domains", file = "kernel/sched/fair.c", version = "v5.11")
    static int rebalanceIdle(int idle, int ldMoved, boolean idleCpu) {
        if (ldMoved != 0) {
            return idleCpu ? LbEnv.CPU_IDLE : LbEnv.CPU_NOT_IDLE;
        }
        return idle;
    }
}
