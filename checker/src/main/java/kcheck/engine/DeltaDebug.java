package kcheck.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Zeller's ddmin: shrinks a failing sequence to a 1-minimal one (removing any single element
 * makes it pass). Used for random-walk counterexamples (steps) and for generated operation
 * sequences in the property suites, where a list generator alone shrinks only from the tail.
 */
public final class DeltaDebug {
    private DeltaDebug() {
    }

    /**
     * Returns a sub-sequence of {@code failing} (order kept) for which {@code fails} still holds
     * and from which no single element can be removed. {@code fails} must hold for
     * {@code failing}. At most {@code maxTests} candidates are tried.
     */
    public static <T> List<T> minimise(List<T> failing, Predicate<List<T>> fails, int maxTests) {
        return minimise(failing, fails, maxTests, () -> false);
    }

    /**
     * As {@link #minimise(List, Predicate, int)}, stopping early once {@code stop} is true (asked
     * before each candidate): the result still fails, but may not be 1-minimal.
     */
    public static <T> List<T> minimise(List<T> failing, Predicate<List<T>> fails, int maxTests, java.util.function.BooleanSupplier stop) {
        List<T> cur = new ArrayList<>(failing);
        int n = 2;
        int tests = 0;
        while (cur.size() >= 2 && tests < maxTests && !stop.getAsBoolean()) {
            int chunk = (int) Math.ceil(cur.size() / (double) n);
            boolean reduced = false;
            for (int start = 0; start < cur.size() && tests < maxTests; start += chunk) {
                if (stop.getAsBoolean()) {
                    return cur;
                }
                List<T> complement = new ArrayList<>(cur.subList(0, start));
                complement.addAll(cur.subList(Math.min(cur.size(), start + chunk), cur.size()));
                tests++;
                if (!complement.isEmpty() && fails.test(complement)) {
                    cur = complement;
                    n = Math.max(n - 1, 2);
                    reduced = true;
                    break;
                }
            }
            if (!reduced) {
                if (n >= cur.size()) {
                    break;
                }
                n = Math.min(cur.size(), n * 2);
            }
        }
        return cur;
    }

    /** The default budget of tests. */
    public static final int MAX_TESTS = 10_000;

    /** {@link #minimise(List, Predicate, int)} with a budget of {@link #MAX_TESTS} tests. */
    public static <T> List<T> minimise(List<T> failing, Predicate<List<T>> fails) {
        return minimise(failing, fails, MAX_TESTS);
    }
}
