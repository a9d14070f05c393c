package kcheck.engine.store;

/** Hands out a fresh id for a new state and records its trace link (parent id, step ordinal). */
@FunctionalInterface
public interface IdSource {
    long add(long parent, int ordinal);
}
