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
     * Partial-order reduction hook. Returns, for the enabled steps of {@code actor} in
     * {@code state}, a bitmask of the shared objects they touch ({@code 0} if they touch only the
     * actor's private state), or {@code -1} if the steps are visible to a checked property or the
     * model cannot tell. See {@link #futureFootprint}.
     */
    default long stepFootprint(long[] state, int actor) {
        return -1L;
    }

    /**
     * Partial-order reduction hook: a bitmask of every shared object {@code actor} may touch
     * from {@code state} on, in any future step ({@code -1}: anything).
     */
    default long futureFootprint(long[] state, int actor) {
        return -1L;
    }

    /**
     * Returns a copy safe for use by another thread (own scratch space). Models without mutable
     * scratch state may return {@code this}.
     */
    Model fork();
}
