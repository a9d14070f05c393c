package kcheck.litmus;

import java.util.function.IntPredicate;

/**
 * An immutable set of event indices (the cat language's event sets: {@code R}, {@code W}, {@code Marked}...),
 * as a bitset of 64-bit words: event {@code i} is bit {@code i % 64} of word {@code i / 64}. Only the words
 * up to the last non-zero one count, so equal sets compare equal whatever array they came in; a word past
 * the end reads as zero, so sets of different lengths combine freely.
 */
public final class Bits {
    public static final Bits EMPTY = new Bits(new long[0]);

    private final long[] words;
    /** The number of words up to the last non-zero one; those past it are zero or absent. */
    private final int len;

    /** Takes ownership of {@code words}. */
    private Bits(long[] words) {
        int l = words.length;
        while (l > 0 && words[l - 1] == 0) {
            l--;
        }
        this.words = words;
        this.len = l;
    }

    /** Wraps words the caller will not touch again. */
    static Bits wrap(long[] words) {
        return new Bits(words);
    }

    public static Bits of(int... indices) {
        int max = -1;
        for (int i : indices) {
            max = Math.max(max, i);
        }
        long[] w = new long[words(max + 1)];
        for (int i : indices) {
            w[i >>> 6] |= 1L << (i & 63);
        }
        return new Bits(w);
    }

    /** {@code {0, 1, ..., n-1}}. */
    public static Bits first(int n) {
        return range(0, n);
    }

    /** {@code {from, from+1, ..., to-1}}. */
    public static Bits range(int from, int to) {
        if (from >= to) {
            return EMPTY;
        }
        long[] w = new long[words(to)];
        for (int k = from >>> 6; k < w.length; k++) {
            w[k] = -1L;
        }
        w[from >>> 6] &= -1L << (from & 63);
        w[w.length - 1] &= lastWord(to);
        return new Bits(w);
    }

    /** The bits of the last of the words that {@code n} bits take. */
    static long lastWord(int n) {
        return (n & 63) == 0 ? -1L : (1L << (n & 63)) - 1;
    }

    /** {@code a | b | ...}. */
    public static Bits union(Bits... sets) {
        int len = 0;
        for (Bits s : sets) {
            len = Math.max(len, s.len);
        }
        long[] w = new long[len];
        for (Bits s : sets) {
            for (int k = 0; k < s.len; k++) {
                w[k] |= s.words[k];
            }
        }
        return new Bits(w);
    }

    /** The indices {@code i < n} for which {@code p} holds. */
    public static Bits where(int n, IntPredicate p) {
        long[] w = new long[words(n)];
        for (int i = 0; i < n; i++) {
            if (p.test(i)) {
                w[i >>> 6] |= 1L << (i & 63);
            }
        }
        return new Bits(w);
    }

    /** The number of 64-bit words that {@code n} bits take. */
    static int words(int n) {
        return (n + 63) >>> 6;
    }

    /** Word {@code k} ({@code 0} past the end). */
    long word(int k) {
        return k < len ? words[k] : 0;
    }

    /** The number of words up to the last non-zero one. */
    int length() {
        return len;
    }

    public boolean has(int i) {
        int k = i >>> 6;
        return k < len && (words[k] >>> (i & 63) & 1) != 0;
    }

    public boolean isEmpty() {
        return len == 0;
    }

    public int cardinality() {
        int c = 0;
        for (int k = 0; k < len; k++) {
            c += Long.bitCount(words[k]);
        }
        return c;
    }

    public Bits and(Bits o) {
        long[] w = new long[Math.min(len, o.len)];
        for (int k = 0; k < w.length; k++) {
            w[k] = words[k] & o.words[k];
        }
        return new Bits(w);
    }

    public Bits or(Bits o) {
        long[] w = new long[Math.max(len, o.len)];
        for (int k = 0; k < w.length; k++) {
            w[k] = word(k) | o.word(k);
        }
        return new Bits(w);
    }

    /** {@code this \ o}. */
    public Bits andNot(Bits o) {
        long[] w = new long[len];
        for (int k = 0; k < w.length; k++) {
            w[k] = words[k] & ~o.word(k);
        }
        return new Bits(w);
    }

    public boolean intersects(Bits o) {
        for (int k = 0; k < Math.min(len, o.len); k++) {
            if ((words[k] & o.words[k]) != 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The least index {@code >= from} in the set, or {@code -1}; the members in order are
     * {@code for (int i = s.first(); i >= 0; i = s.next(i + 1))}.
     */
    public int next(int from) {
        int k = from >>> 6;
        if (k >= len) {
            return -1;
        }
        long x = words[k] & (-1L << (from & 63));
        while (x == 0) {
            if (++k == len) {
                return -1;
            }
            x = words[k];
        }
        return (k << 6) + Long.numberOfTrailingZeros(x);
    }

    /** The least index in the set, or {@code -1}. */
    public int first() {
        return next(0);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Bits b) || b.len != len) {
            return false;
        }
        for (int k = 0; k < len; k++) {
            if (words[k] != b.words[k]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (int k = 0; k < len; k++) {
            h = 31 * h + Long.hashCode(words[k]);
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        for (int i = first(); i >= 0; i = next(i + 1)) {
            b.append(b.length() == 1 ? "" : ", ").append(i);
        }
        return b.append('}').toString();
    }
}
