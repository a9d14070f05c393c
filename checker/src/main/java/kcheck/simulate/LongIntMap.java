package kcheck.simulate;

import java.util.Arrays;

/** A small open-addressing map from {@code long} keys to {@code int} values (the simulator's per-step caches). */
final class LongIntMap {
    private static final long EMPTY = Long.MIN_VALUE;
    private long[] keys = new long[64];
    private int[] vals = new int[64];
    private int size;

    LongIntMap() {
        Arrays.fill(keys, EMPTY);
    }

    /** The value of {@code key}, or {@code missing}. */
    int get(long key, int missing) {
        int mask = keys.length - 1;
        for (int i = mix(key) & mask;; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                return vals[i];
            }
            if (k == EMPTY) {
                return missing;
            }
        }
    }

    void put(long key, int value) {
        if (key == EMPTY) {
            throw new IllegalArgumentException("reserved key");
        }
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        for (int i = mix(key) & mask;; i = (i + 1) & mask) {
            if (keys[i] == key) {
                vals[i] = value;
                return;
            }
            if (keys[i] == EMPTY) {
                keys[i] = key;
                vals[i] = value;
                size++;
                return;
            }
        }
    }

    private void grow() {
        long[] ok = keys;
        int[] ov = vals;
        keys = new long[ok.length * 2];
        vals = new int[ok.length * 2];
        Arrays.fill(keys, EMPTY);
        size = 0;
        for (int i = 0; i < ok.length; i++) {
            if (ok[i] != EMPTY) {
                put(ok[i], ov[i]);
            }
        }
    }

    private static int mix(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
