package kcheck.model;

/**
 * Deadlock freedom: in every reachable state that is not final ({@link Model#isFinal}) some step
 * is enabled.
 */
public final class Deadlock extends Property {

    public Deadlock(String id, String description) {
        super(id, description);
    }

    /** The usual property, named {@code deadlock-free}. */
    public static Deadlock standard() {
        return new Deadlock("deadlock-free", "some step is enabled until every actor has finished");
    }

    @Override
    public Kind kind() {
        return Kind.DEADLOCK;
    }
}
