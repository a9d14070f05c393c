package kcheck.properties.gen;

import java.util.ArrayList;
import java.util.List;

import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Generators for the suites. QuickTheories rarely emits edge values on its own, so the u64
 * generators mix them in: 0, 1, 2^63-1, 2^63, 2^63+1, 2^64-1 (as Java longs: -1), and the edges
 * of the window around a clock.
 */
public final class Gens {
    /** The u64 edge values every deadline generator must reach. */
    public static final List<Long> U64_EDGES = List.of(0L, 1L, Long.MAX_VALUE - 1, Long.MAX_VALUE, Long.MIN_VALUE,
            Long.MIN_VALUE + 1, -2L, -1L);

    private Gens() {
    }

    /** Integers in {@code [lo, hi]}. */
    public static Gen<Integer> ints(int lo, int hi) {
        return Generate.range(lo, hi);
    }

    /** Any u64 (as a long), one in four an edge value. */
    public static Gen<Long> u64() {
        return Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE).mix(Generate.pick(U64_EDGES), 25);
    }

    /**
     * A clock anywhere in u64 (one in four an edge value), as deadlines are: {@code clock + offset}
     * with small offsets, so live keys stay within one window of 2^63.
     */
    public static Gen<Long> clock() {
        return u64();
    }

    /** Lists of {@code element} with a length in {@code [min, max]}. */
    public static <T> Gen<List<T>> lists(Gen<T> element, int min, int max) {
        return in -> {
            int n = (int) Generate.range(min, max).generate(in).intValue();
            List<T> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(element.generate(in));
            }
            return out;
        };
    }
}
