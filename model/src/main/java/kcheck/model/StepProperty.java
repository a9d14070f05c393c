package kcheck.model;

/** A predicate every reachable step (state, actor, action, next state) must satisfy. */
public abstract non-sealed class StepProperty extends Property {

    protected StepProperty(String id, String description) {
        super(id, description);
    }

    /** True if the step from {@code from} to {@code to} satisfies the property. */
    public abstract boolean holds(long[] from, int actor, int action, long[] to);

    /** One line saying why the step violates the property; called only on a violation. */
    public String explain(long[] from, int actor, int action, long[] to) {
        return description();
    }

    @Override
    public final Kind kind() {
        return Kind.STEP;
    }
}
