package kcheck.model;

import java.util.Objects;

/**
 * A property a model checks. Each is of one kind, which tells the engine how to check it:
 * {@link Invariant} (a predicate on a state), {@link StepProperty} (a predicate on a step),
 * {@link Metric} (a number per state, maximised), {@link Progress} (no cycle without progress
 * steps) or {@link Deadlock} (some step is enabled in every non-final state).
 *
 * <p>History a property needs lives in the state as monitor variables, so checking stays a plain
 * reachability search.
 *
 * <p>Predicates are called from several worker threads at once: they must not use shared
 * scratch space (read the state and immutable tables only).
 */
public abstract sealed class Property permits Invariant, StepProperty, Metric, Progress, Deadlock {

    /** The kinds, as printed by {@code kcheck list}. */
    public enum Kind { INVARIANT, STEP, METRIC, PROGRESS, DEADLOCK }

    private final String id;
    private final String description;

    protected Property(String id, String description) {
        this.id = Objects.requireNonNull(id);
        this.description = Objects.requireNonNull(description);
    }

    /** Identifier as on the command line, e.g. {@code fifo-entry}. */
    public final String id() {
        return id;
    }

    /** One sentence: what the property states. */
    public final String description() {
        return description;
    }

    public abstract Kind kind();

    @Override
    public String toString() {
        return id;
    }
}
