package kcheck.model;

/**
 * A liveness-style property checked as the absence of non-progress cycles: a reachable cycle of
 * steps none of which is a progress step is a violation (for instance a spinner that can spin
 * forever), reported as a lasso trace: a prefix and the repeating cycle.
 */
public abstract non-sealed class Progress extends Property {

    protected Progress(String id, String description) {
        super(id, description);
    }

    /** True if the step makes progress; cycles made only of other steps are violations. */
    public abstract boolean isProgress(long[] from, int actor, int action, long[] to);

    /**
     * True if only fair cycles count (strong fairness over step classes): a cycle of non-progress
     * steps is a violation only if every class {@link #owed} in some state of the cycle is taken by
     * some step of the cycle. Off by default: any cycle of non-progress steps counts.
     */
    public boolean fair() {
        return false;
    }

    /**
     * The step classes (bits 0..63) {@code state} owes under {@link #fair()} (e.g. one bit per actor
     * that can take a step there and must be scheduled eventually).
     */
    public long owed(long[] state) {
        return 0L;
    }

    /** The class (0..63) of a step under {@link #fair()}; by default its actor. */
    public int stepClass(int actor, int action) {
        return actor;
    }

    @Override
    public final Kind kind() {
        return Kind.PROGRESS;
    }
}
