package kcheck.model;

/**
 * Receives the named fields of a decoded state. {@code actor} is the index of the actor the field
 * belongs to (its column in a timeline), or {@link #SHARED} for shared data such as a lock word.
 */
@FunctionalInterface
public interface FieldSink {
    int SHARED = -1;

    void field(int actor, String name, String value);
}
