package kcheck.engine;

/**
 * Where a property was first violated: in state {@code stateId} (invariant, deadlock, metric
 * bound), or on the step number {@code ordinal} out of {@code stateId} (step property). Depth is
 * the number of steps from an initial state to the violation.
 */
record Violation(long stateId, int ordinal, int depth, String message) {
    boolean onStep() {
        return ordinal >= 0;
    }
}
