package kcheck.engine;

/** 64-bit hashing of packed states: the fingerprint in fingerprint mode, the table index in both. */
public final class Hashing {
    private Hashing() {
    }

    /** A well-mixed 64-bit hash of {@code s[off .. off+w)}. Never 0. */
    public static long hash(long[] s, int off, int w) {
        long h = 0x9E3779B97F4A7C15L ^ w;
        for (int i = 0; i < w; i++) {
            h = mix(h ^ s[off + i]) + 0x632BE59BD9B4E019L;
        }
        h = mix(h);
        return h == 0 ? 1 : h;
    }

    /** Stafford's variant 13 of the SplitMix64 finaliser. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
