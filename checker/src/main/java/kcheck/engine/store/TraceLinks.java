package kcheck.engine.store;

/** Read side of trace links: what a counterexample is rebuilt from ({@link Links} in RAM, {@link DiskLinks} on disk). */
public interface TraceLinks {
    /** Parent of {@code id}, or -1 for an initial state. */
    long parent(long id);

    /** Position of the step from the parent among the parent's enumerated successors (for an initial state: its index). */
    int ordinal(long id);
}
