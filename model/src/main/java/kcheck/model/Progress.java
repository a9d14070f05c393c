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

    @Override
    public final Kind kind() {
        return Kind.PROGRESS;
    }
}
