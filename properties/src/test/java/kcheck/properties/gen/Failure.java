package kcheck.properties.gen;

import java.util.List;

/**
 * A falsified property: the first failing input found, the minimised one, and the failure
 * message on the minimised input.
 */
public record Failure<T>(String property, long seed, List<T> original, List<T> minimised, String message) {

    /** "property failed (seed S): 37 ops minimised to 2: [op, op]; message". */
    public String describe(java.util.function.Function<T, String> show) {
        StringBuilder b = new StringBuilder(property + " failed (seed " + seed + ", repeat with -Dkcheck.seed=" + seed + "): "
                + original.size() + " ops minimised to " + minimised.size() + ":\n");
        for (int i = 0; i < minimised.size(); i++) {
            b.append("  ").append(i + 1).append(". ").append(show.apply(minimised.get(i))).append('\n');
        }
        return b.append(message).toString();
    }
}
