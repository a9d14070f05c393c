package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.CPU_NEWLY_IDLE;

import kcheck.model.Kernel;

/**
 * {@code load_balance()} of v6.1 (kernel/sched/fair.c of Debian's 6.1.192): the v6.12 port's body (the function
 * was renamed {@code sched_balance_rq()} in v6.10, {@code find_busiest_group()} and {@code find_busiest_queue()}
 * with it; the redo, affinity and detach paths are the same text, stable having taken the newly idle bail-out of
 * {@code should_we_balance()} and the revert of b0defa7ae03e) with v6.1's {@code should_we_balance()}, which
 * elects the first idle CPU of the group's balance mask without preferring an idle core: the idle-core preference
 * came with b1bfeab9b002 "sched/fair: Consider the idle state of the whole core for load balance" (v6.6).
 *
 * <p>{@code kcheck conform lb-redo} compares a tree older than v6.6 with this port (docs/conform.md); it is not a
 * variant of {@code kcheck check}.
 */
public class LoadBalanceV61 extends SchedBalanceRqV612 {

    @Override
    @Kernel(function = "should_we_balance", file = "kernel/sched/fair.c", version = "v6.1", line = 10502)
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
        /* Try to find first idle CPU: for_each_cpu_and(cpu, group_balance_mask(sg), env->cpus) */
        long balanceMask = s.groupBalanceMaskOf(env.dstCpu);
        for (long m = balanceMask & env.cpus; m != 0; m &= m - 1) {
            int cpu = Long.numberOfTrailingZeros(m);
            if (!s.idleCpu(cpu)) {
                continue;
            }
            /* Are we the first idle CPU? */
            return cpu == env.dstCpu;
        }
        /* Are we the first CPU of this group ? (group_balance_cpu(sg)) */
        return Long.numberOfTrailingZeros(balanceMask) == env.dstCpu;
    }
}
