package kcheck.model;

/** A predicate every reachable state must satisfy. */
public abstract non-sealed class Invariant extends Property {

    protected Invariant(String id, String description) {
        super(id, description);
    }

    /** True if {@code state} satisfies the invariant. Must not modify the array. */
    public abstract boolean holds(long[] state);

    /**
     * One line saying why {@code state} violates the invariant, for the trace. Called only on a
     * violating state, so it may allocate.
     */
    public String explain(long[] state) {
        return description();
    }

    @Override
    public final Kind kind() {
        return Kind.INVARIANT;
    }
}
