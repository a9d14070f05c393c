package kcheck.model;

import java.util.List;

/**
 * One model instance, fixed by (model name, variant, parameters): the thing the engine explores.
 *
 * <p>States are packed into {@link #width()} {@code long}s. The engine owns the arrays it stores
 * states in and hands the model a copy of exactly {@link #width()} longs; the model writes
 * successors into a scratch array of its own that it passes to {@link StepSink#step}. Nothing here allocates per
 * state, so the engine's inner loop stays primitive.
 *
 * <p>A model knows nothing of search order, parallelism or reductions the engine applies; it
 * only declares what the engine may use ({@link #canonicalize}, {@link #stepFootprint}).
 * Instances may be used from several threads at once: implementations keep per-thread scratch
 * space (see {@link #fork()}).
 */
public interface Model {

    /** Model name as on the command line, e.g. {@code rq-lock}. */
    String name();

    /** Variant name, e.g. {@code before}, {@code after}, {@code rfc-v2}. */
    String variant();

    /** The parameters this instance was built with, including defaults. */
    Params params();

    /** Number of {@code long}s in one packed state. Fixed per instance. */
    int width();

    /** Emits each initial state. */
    void initial(StateSink out);

    /**
     * Emits every enabled step of {@code state} (an array of exactly {@link #width()} longs that
     * the model must not modify).
     * The order of emission must be deterministic: traces name a step by its position.
     */
    void successors(long[] state, StepSink out);

    /** True if {@code state} is a legitimate end (every actor has finished): no deadlock there. */
    boolean isFinal(long[] state);

    /** The properties this instance checks (the selection it was created with). */
    List<Property> properties();

    /** Column names of traces: one per actor ("CPU 0", "reader 1", "caller"). */
    List<String> actors();

    /** Describes one step: its label and the kernel function and version it mirrors. */
    StepInfo describe(int actor, int action);

    /** Writes the named fields of a state, for traces (e.g. {@code cpu1.pc}, {@code rq[0].next}). */
    void decode(long[] state, FieldSink out);

    /**
     * Writes who holds and who waits for each lock in {@code state}, for the lock lane chart of
     * traces. Optional: a model without locks (or that does not describe them) writes nothing.
     */
    default void locks(long[] state, LockSink out) {
    }

    /**
     * Reductions this model supports, each described in one line for the run's output
     * (e.g. "ticket-shift: ticket counters stored relative to owner (a bisimulation)").
     * Empty if {@link #canonicalize} is the identity.
     */
    default List<String> reductions() {
        return List.of();
    }

    /**
     * Rewrites a state into the canonical representative of its equivalence class (symmetry,
     * counter shifting). Must map bisimilar states to one representative, and every property of
     * this instance must give the same answer on a state and on its canonical form. The engine
     * calls it only when reductions are on.
     */
    default void canonicalize(long[] state) {
    }

    /**
     * True if this model declares footprints for partial-order reduction ({@link #footprints}).
     * The engine then explores, where it can, only the enabled steps of one actor (an ample set)
     * instead of all of them.
     */
    default boolean partialOrder() {
        return false;
    }

    /**
     * Partial-order reduction, for every actor {@code a} at once. {@code step[a]}: the shared
     * objects (a bitmask of up to 64 model-defined objects, such as a lock's {@code next}
     * counter) that {@code a}'s currently enabled steps read or write, {@code 0} if they touch
     * only {@code a}'s private state, or {@code -1} if any of them is visible: it changes what a
     * selected property observes, at this state or wherever the reduction may move it.
     * {@code future[a]}: every shared object {@code a} may read or write in any step from here on
     * ({@code -1}: anything). The engine takes {@code p}'s steps alone only if no other actor's
     * future meets {@code p}'s step footprint.
     */
    default void footprints(long[] state, long[] step, long[] future) {
        java.util.Arrays.fill(step, -1L);
        java.util.Arrays.fill(future, -1L);
    }

    /**
     * True if the state graph has no cycles (every step advances a measure no step decreases),
     * which makes the cycle proviso of partial-order reduction unnecessary.
     */
    default boolean acyclic() {
        return false;
    }

    /**
     * A grading of the state graph, or -1 if the model claims none. A model that returns a rank
     * claims that all its initial states have one rank and that every step from a state of rank
     * {@code r} leads to a state of rank {@code r + 1}. Then a state is found at one BFS depth only,
     * and the disk search remembers the keys of the level it is building and no older ones. The
     * engine checks the claim on every state it expands, and a search in which it fails
     * ends INCOMPLETE.
     */
    default long rank(long[] state) {
        return -1;
    }

    /**
     * Returns a copy safe for use by another thread (own scratch space). Models without mutable
     * scratch state may return {@code this}.
     */
    Model fork();
}
