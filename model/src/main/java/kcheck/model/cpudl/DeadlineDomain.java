package kcheck.model.cpudl;

import static kcheck.model.cpudl.Deadlines.TWO_63;
import static kcheck.model.cpudl.Deadlines.U64_MAX;

import java.util.List;
import java.util.StringJoiner;

/**
 * The finite set of u64 deadlines the exhaustive model draws arguments from (parameter
 * {@code keys}). The order is the enumeration order of steps (so it decides which of several
 * shortest counterexamples BFS reports first).
 *
 * <ul>
 * <li>{@code edge} (default): 0, 2^63, 2^63+1, 2^63+2, 2^63-1, 2^64-1, 2^64-2, 1, 2, 3: the
 * edges the original specification names, and small offsets around the two window bases where u64 order and
 * {@code dl_time_before} order part (2^63 and 2^64 = 0).</li>
 * <li>{@code small}: 1..5 (no wrap-around: the keys of the rfc-v2 bug).</li>
 * <li>{@code wrap}: 2^64-2, 2^64-1, 0, 1, 2 (a window across the u64 wrap to 0).</li>
 * </ul>
 */
public final class DeadlineDomain {
    private final String name;
    private final long[] values;
    /** okAfter[b]: bit x set iff values[x] lies in the window [values[b], values[b] + 2^63). */
    private final long[] okAfter;

    private DeadlineDomain(String name, long... values) {
        this.name = name;
        this.values = values.clone();
        if (values.length > 63) {
            throw new IllegalArgumentException("at most 63 deadlines");
        }
        this.okAfter = new long[values.length];
        for (int b = 0; b < values.length; b++) {
            for (int x = 0; x < values.length; x++) {
                if (values[x] - values[b] >= 0) {
                    okAfter[b] |= 1L << x;
                }
            }
        }
    }

    /** The choices of parameter {@code keys}, the default first. */
    public static List<String> names() {
        return List.of("edge", "small", "wrap");
    }

    public static DeadlineDomain named(String name) {
        return switch (name) {
            case "edge" -> new DeadlineDomain(name, 0L, TWO_63, TWO_63 + 1, TWO_63 + 2, TWO_63 - 1, U64_MAX, U64_MAX - 1, 1L, 2L, 3L);
            case "small" -> new DeadlineDomain(name, 1L, 2L, 3L, 4L, 5L);
            case "wrap" -> new DeadlineDomain(name, U64_MAX - 1, U64_MAX, 0L, 1L, 2L);
            default -> throw new IllegalArgumentException("unknown deadline domain " + name);
        };
    }

    public String name() {
        return name;
    }

    public int size() {
        return values.length;
    }

    public long value(int i) {
        return values[i];
    }

    /** Index of {@code v}, or -1. */
    public int indexOf(long v) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == v) {
                return i;
            }
        }
        return -1;
    }

    /**
     * True if the deadlines with indices in {@code mask} lie in one window [b, b + 2^63) for some
     * b among them (the empty set does).
     */
    public boolean windowed(long mask) {
        if (mask == 0) {
            return true;
        }
        for (long m = mask; m != 0; m &= m - 1) {
            int b = Long.numberOfTrailingZeros(m);
            if ((mask & ~okAfter[b]) == 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(", ", name + " {", "}");
        for (long v : values) {
            j.add(Deadlines.format(v));
        }
        return j.toString();
    }
}
