package kcheck.model;

import java.util.Arrays;

/** A packed state as a hash-set or map key for tests that explore a model by hand (a copy: the caller may reuse its array). */
public record StateKey(long[] s) {
    public StateKey {
        s = s.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StateKey k && Arrays.equals(s, k.s);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(s);
    }

    @Override
    public String toString() {
        return Arrays.toString(s);
    }
}
