package kcheck.model.rqlock;

import kcheck.model.ModelInputException;

/**
 * The kernel configuration the code is recorded for: which lock each runqueue uses: its own ({@code core-sched=none}), or with core scheduling
 * ({@code core-sched=pairs}) the lock of its core, shared by two SMT siblings. Siblings are
 * numbered as on x86, CPU {@code i} and {@code i + cpus/2} ({@code {0,2},{1,3}} on 4 CPUs, the
 * example in the comment of {@code rq_order_less}); {@code rq->core} is the lower of the two.
 *
 * @param cpus    number of CPUs (and runqueues)
 * @param pairs   SMT siblings share one runqueue lock
 * @param preempt the kernel's {@code CONFIG_PREEMPT} / {@code CONFIG_PREEMPTION} (which body of
 *                {@code _double_lock_balance} it has)
 */
public record RqConfig(int cpus, boolean pairs, boolean preempt) {

    public RqConfig {
        if (pairs && cpus % 2 != 0) {
            throw new ModelInputException("rq-lock: core-sched=pairs needs an even number of CPUs, not " + cpus);
        }
    }

    /** Every runqueue has its own lock. */
    public static RqConfig plain(int cpus) {
        return new RqConfig(cpus, false, true);
    }

    /** The SMT sibling of {@code cpu} ({@code cpu} itself without core scheduling). */
    public int sibling(int cpu) {
        return pairs ? (cpu + cpus / 2) % cpus : cpu;
    }

    /** {@code rq->core->cpu}. */
    public int core(int cpu) {
        return Math.min(cpu, sibling(cpu));
    }

    /** {@code __rq_lockp(rq)}, as the index of the runqueue whose lock it is. */
    public int lockp(int rq) {
        return pairs ? core(rq) : rq;
    }

    /** True if runqueue lock {@code lock} is used by some runqueue. */
    public boolean used(int lock) {
        return lockp(lock) == lock;
    }
}
