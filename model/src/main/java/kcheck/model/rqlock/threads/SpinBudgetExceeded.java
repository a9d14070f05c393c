package kcheck.model.rqlock.threads;

/** A spin loop ran out of its budget: the CPU would spin forever (a deadlock or a lost unlock). */
public final class SpinBudgetExceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SpinBudgetExceeded(int cpu, int rq, long spins) {
        super("CPU " + cpu + " spun " + spins + " times for rq[" + rq + "] without getting it (spin budget exhausted)");
    }
}
