package kcheck.engine;

import java.util.List;

/**
 * A path of concrete states as the engine found it: {@code states[0]} is initial and step
 * {@code i} (1-based) takes {@code states[i-1]} to {@code states[i]} by
 * ({@code actors[i-1]}, {@code actions[i-1]}). With {@code loopStart >= 0} the path is a lasso:
 * after the last step the run is back in a state equivalent to {@code states[loopStart]} and
 * repeats forever.
 *
 * @param violationStep the step that violates (a step property), or {@code states.size()-1} for a
 *                      state that violates (an invariant, a deadlock, a metric witness)
 * @param message       one line saying what went wrong (or what the witness shows)
 * @param before        for a minimised random-walk trace, its length before minimisation; else -1
 */
public record RawTrace(List<long[]> states, int[] actors, int[] actions, int loopStart, int violationStep,
                       String message, int before) {

    /** Number of steps. */
    public int length() {
        return actors.length;
    }
}
