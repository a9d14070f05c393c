package kcheck.litmus;

import java.util.Arrays;

/**
 * A binary relation over the events of one candidate execution, as a bit matrix (row {@code i} holds the
 * successors of event {@code i}); at most {@link #MAX} events. The operators are those of the cat language
 * that linux-kernel.cat and lock.cat use: {@code ;} ({@link #seq}), {@code |}, {@code &}, {@code \},
 * {@code ^-1}, {@code +}, {@code *}, {@code ?}, {@code [S]} and the checks {@code acyclic},
 * {@code irreflexive} and {@code empty}. Sets of events are {@link Bits}.
 *
 * <p>Each row is {@code w = ceil(n / 64)} words, the rows one after the other in one array: row {@code i}
 * is {@code bits[i * w .. i * w + w)}, event {@code j} bit {@code j % 64} of its word {@code j / 64}. No
 * row has a bit at or past {@code n}. The kernel's litmus tests have fewer than 64 events, one word a row:
 * {@link #seq}, {@link #plus} and {@link #restrict}, where the time goes, have a loop of their own for that
 * case.
 */
public final class Rel {
    /** The most events a relation holds. */
    public static final int MAX = 256;
    /** Every event of any relation (a row has no bit at or past its relation's {@code n}). */
    private static final Bits EVERY = Bits.first(MAX);

    final int n;
    /** Words per row. */
    private final int w;
    private final long[] bits;

    public Rel(int n) {
        this(n, new long[n * Bits.words(n)]);
    }

    private Rel(int n, long[] bits) {
        this.n = n;
        this.w = Bits.words(n);
        this.bits = bits;
    }

    public static Rel identity(int n, Bits set) {
        Rel r = new Rel(n);
        for (int i = set.first(); i >= 0 && i < n; i = set.next(i + 1)) {
            r.add(i, i);
        }
        return r;
    }

    /** {@code S * T}: every pair from a set to a set. */
    public static Rel product(int n, Bits from, Bits to) {
        Rel r = new Rel(n);
        for (int i = from.first(); i >= 0 && i < n; i = from.next(i + 1)) {
            for (int k = 0; k < r.w; k++) {
                r.bits[i * r.w + k] = to.word(k);
            }
            r.bits[i * r.w + r.w - 1] &= Bits.lastWord(n);
        }
        return r;
    }

    public void add(int i, int j) {
        bits[i * w + (j >>> 6)] |= 1L << (j & 63);
    }

    public boolean has(int i, int j) {
        return (bits[i * w + (j >>> 6)] >>> (j & 63) & 1) != 0;
    }

    /** The successors of {@code i}. */
    public Bits row(int i) {
        return Bits.wrap(Arrays.copyOfRange(bits, i * w, i * w + w));
    }

    /** Whether {@code i} has a successor in {@code s}. */
    boolean rowIntersects(int i, Bits s) {
        for (int k = 0; k < w; k++) {
            if ((bits[i * w + k] & s.word(k)) != 0) {
                return true;
            }
        }
        return false;
    }

    public Rel copy() {
        return new Rel(n, bits.clone());
    }

    /** {@code this ; o}. */
    public Rel seq(Rel o) {
        long[] out = new long[bits.length];
        if (w == 1) {
            for (int i = 0; i < n; i++) {
                long x = bits[i];
                long acc = 0;
                while (x != 0) {
                    acc |= o.bits[Long.numberOfTrailingZeros(x)];
                    x &= x - 1;
                }
                out[i] = acc;
            }
            return new Rel(n, out);
        }
        for (int row = 0; row < bits.length; row += w) {
            for (int k = 0; k < w; k++) {
                long x = bits[row + k];
                while (x != 0) {
                    int j = (k << 6) + Long.numberOfTrailingZeros(x);
                    x &= x - 1;
                    orRow(out, row, o.bits, j * w);
                }
            }
        }
        return new Rel(n, out);
    }

    /** {@code a ; b ; c ...}. */
    public static Rel seq(Rel first, Rel... rest) {
        Rel r = first;
        for (Rel o : rest) {
            r = r.seq(o);
        }
        return r;
    }

    public Rel union(Rel o) {
        long[] out = new long[bits.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = bits[c] | o.bits[c];
        }
        return new Rel(n, out);
    }

    public static Rel union(Rel first, Rel... rest) {
        Rel r = first;
        for (Rel o : rest) {
            r = r.union(o);
        }
        return r;
    }

    public Rel inter(Rel o) {
        long[] out = new long[bits.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = bits[c] & o.bits[c];
        }
        return new Rel(n, out);
    }

    public Rel minus(Rel o) {
        long[] out = new long[bits.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = bits[c] & ~o.bits[c];
        }
        return new Rel(n, out);
    }

    public Rel inverse() {
        long[] out = new long[bits.length];
        for (int i = 0; i < n; i++) {
            int column = i >>> 6;
            long bit = 1L << (i & 63);
            for (int k = 0; k < w; k++) {
                long x = bits[i * w + k];
                while (x != 0) {
                    int j = (k << 6) + Long.numberOfTrailingZeros(x);
                    x &= x - 1;
                    out[j * w + column] |= bit;
                }
            }
        }
        return new Rel(n, out);
    }

    /** {@code [from] ; this ; [to]}. */
    public Rel restrict(Bits from, Bits to) {
        long[] out = new long[bits.length];
        if (w == 1) {
            long rows = from.word(0);
            long keep = to.word(0);
            for (int i = 0; i < n; i++) {
                if ((rows >>> i & 1) != 0) {
                    out[i] = bits[i] & keep;
                }
            }
            return new Rel(n, out);
        }
        for (int i = 0; i < n; i++) {
            if (from.has(i)) {
                for (int k = 0; k < w; k++) {
                    out[i * w + k] = bits[i * w + k] & to.word(k);
                }
            }
        }
        return new Rel(n, out);
    }

    /** {@code [s] ; this}. */
    public Rel from(Bits s) {
        return restrict(s, EVERY);
    }

    /** {@code this ; [s]}. */
    public Rel to(Bits s) {
        return restrict(EVERY, s);
    }

    /** {@code this+}: transitive closure (Warshall). */
    public Rel plus() {
        int[] order = sinksFirst();
        if (order == null) {
            return warshall();
        }
        /* acyclic: a node's closure is its successors and their closures, each final before it (sinks first) */
        long[] out = new long[bits.length];
        for (int v : order) {
            int row = v * w;
            for (int j = nextSet(row, 0); j >= 0; j = nextSet(row, j + 1)) {
                out[row + (j >>> 6)] |= 1L << (j & 63);
                orRow(out, row, out, j * w);
            }
        }
        return new Rel(n, out);
    }

    /** The transitive closure of a relation with cycles (Warshall). */
    private Rel warshall() {
        long[] out = bits.clone();
        for (int k = 0; k < n; k++) {
            int column = k >>> 6;
            long bit = 1L << (k & 63);
            for (int row = 0; row < out.length; row += w) {
                if ((out[row + column] & bit) != 0) {
                    orRow(out, row, out, k * w);
                }
            }
        }
        return new Rel(n, out);
    }

    /** The first pair {@code (row's event, j)} with {@code j >= from}, or -1 ({@code row}: the row's offset in {@link #bits}). */
    private int nextSet(int row, int from) {
        int k = from >>> 6;
        if (k >= w) {
            return -1;
        }
        long x = bits[row + k] & (-1L << (from & 63));
        while (true) {
            if (x != 0) {
                int j = (k << 6) + Long.numberOfTrailingZeros(x);
                return j < n ? j : -1;
            }
            if (++k == w) {
                return -1;
            }
            x = bits[row + k];
        }
    }

    /**
     * The events in an order where each comes after every event it relates to (a depth-first post-order: sinks
     * first), or null if the relation has a cycle.
     */
    private int[] sinksFirst() {
        int[] order = new int[n];
        int len = 0;
        byte[] state = new byte[n]; /* 0: not seen, 1: on the depth-first path, 2: done */
        int[] cursor = new int[n];
        int[] stack = new int[n];
        for (int s = 0; s < n; s++) {
            if (state[s] != 0) {
                continue;
            }
            int sp = 0;
            stack[sp++] = s;
            state[s] = 1;
            while (sp > 0) {
                int v = stack[sp - 1];
                int j = nextSet(v * w, cursor[v]);
                if (j < 0) {
                    state[v] = 2;
                    order[len++] = v;
                    sp--;
                    continue;
                }
                cursor[v] = j + 1;
                if (state[j] == 1) {
                    return null;
                }
                if (state[j] == 0) {
                    state[j] = 1;
                    stack[sp++] = j;
                }
            }
        }
        return order;
    }

    /** {@code this*}: reflexive-transitive closure over every event. */
    public Rel star() {
        return plus().opt();
    }

    /** {@code this?}: reflexive closure over every event. */
    public Rel opt() {
        long[] out = bits.clone();
        for (int i = 0, row = 0; i < n; i++, row += w) {
            out[row + (i >>> 6)] |= 1L << (i & 63);
        }
        return new Rel(n, out);
    }

    public Bits domain() {
        long[] out = new long[w];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < w; k++) {
                if (bits[i * w + k] != 0) {
                    out[i >>> 6] |= 1L << (i & 63);
                    break;
                }
            }
        }
        return Bits.wrap(out);
    }

    public Bits range() {
        long[] out = new long[w];
        for (int row = 0; row < bits.length; row += w) {
            orRow(out, 0, bits, row);
        }
        return Bits.wrap(out);
    }

    public boolean isEmpty() {
        for (long x : bits) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    public boolean irreflexive() {
        for (int i = 0, row = 0; i < n; i++, row += w) {
            if ((bits[row + (i >>> 6)] >>> (i & 63) & 1) != 0) {
                return false;
            }
        }
        return true;
    }

    public boolean acyclic() {
        return sinksFirst() != null;
    }

    /** The pairs of this relation with no intermediate step: {@code r \ (r ; r)}. */
    public Rel immediate() {
        return minus(seq(this));
    }

    /** {@code dst[d .. d + w) |= src[s .. s + w)}. */
    private void orRow(long[] dst, int d, long[] src, int s) {
        for (int k = 0; k < w; k++) {
            dst[d + k] |= src[s + k];
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Rel r && r.n == n && Arrays.equals(r.bits, bits);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bits);
    }
}
