package kcheck.model.threads;

/** A spin loop ran out of its budget: the thread would spin forever (a deadlock, a lost unlock or a lost wake-up). */
public final class SpinBudgetExceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** {@code who} spun {@code spins} times {@code where} (e.g. "for rq[1]", "in osq_lock"). */
    public SpinBudgetExceeded(String who, String where, long spins) {
        super(who + " spun " + spins + " times " + where + " without getting it (spin budget exhausted)");
    }
}
