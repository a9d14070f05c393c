package kcheck.litmus;

import java.util.Arrays;

/**
 * A binary relation over the events of one candidate execution, as a bit matrix (row {@code i} holds the
 * successors of event {@code i}); at most {@link #MAX} events. The operators are those of the cat language
 * that linux-kernel.cat and lock.cat use: {@code ;} ({@link #seq}), {@code |}, {@code &}, {@code \},
 * {@code ^-1}, {@code +}, {@code *}, {@code ?}, {@code [S]} and the checks {@code acyclic},
 * {@code irreflexive} and {@code empty}. Sets of events are {@code long} masks.
 */
public final class Rel {
    /** The most events a relation holds. */
    public static final int MAX = 64;

    final int n;
    final long[] rows;

    public Rel(int n) {
        this.n = n;
        this.rows = new long[n];
    }

    private Rel(int n, long[] rows) {
        this.n = n;
        this.rows = rows;
    }

    public static Rel identity(int n, long set) {
        Rel r = new Rel(n);
        for (int i = 0; i < n; i++) {
            if ((set >>> i & 1) != 0) {
                r.rows[i] = 1L << i;
            }
        }
        return r;
    }

    /** {@code S * T}: every pair from a set to a set. */
    public static Rel product(int n, long from, long to) {
        Rel r = new Rel(n);
        for (int i = 0; i < n; i++) {
            if ((from >>> i & 1) != 0) {
                r.rows[i] = to;
            }
        }
        return r;
    }

    public void add(int i, int j) {
        rows[i] |= 1L << j;
    }

    public boolean has(int i, int j) {
        return (rows[i] >>> j & 1) != 0;
    }

    public long row(int i) {
        return rows[i];
    }

    public Rel copy() {
        return new Rel(n, rows.clone());
    }

    /** {@code this ; o}. */
    public Rel seq(Rel o) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            long r = rows[i];
            long acc = 0;
            while (r != 0) {
                int j = Long.numberOfTrailingZeros(r);
                r &= r - 1;
                acc |= o.rows[j];
            }
            out[i] = acc;
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
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = rows[i] | o.rows[i];
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
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = rows[i] & o.rows[i];
        }
        return new Rel(n, out);
    }

    public Rel minus(Rel o) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = rows[i] & ~o.rows[i];
        }
        return new Rel(n, out);
    }

    public Rel inverse() {
        Rel r = new Rel(n);
        for (int i = 0; i < n; i++) {
            long x = rows[i];
            while (x != 0) {
                int j = Long.numberOfTrailingZeros(x);
                x &= x - 1;
                r.rows[j] |= 1L << i;
            }
        }
        return r;
    }

    /** {@code [from] ; this ; [to]}. */
    public Rel restrict(long from, long to) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = (from >>> i & 1) != 0 ? rows[i] & to : 0;
        }
        return new Rel(n, out);
    }

    /** {@code [s] ; this}. */
    public Rel from(long s) {
        return restrict(s, -1L);
    }

    /** {@code this ; [s]}. */
    public Rel to(long s) {
        return restrict(-1L, s);
    }

    /** {@code this+}: transitive closure (Warshall). */
    public Rel plus() {
        long[] out = rows.clone();
        for (int k = 0; k < n; k++) {
            long bit = 1L << k;
            long rk = out[k];
            for (int i = 0; i < n; i++) {
                if ((out[i] & bit) != 0) {
                    out[i] |= rk;
                }
            }
        }
        return new Rel(n, out);
    }

    /** {@code this*}: reflexive-transitive closure over every event. */
    public Rel star() {
        return plus().opt();
    }

    /** {@code this?}: reflexive closure over every event. */
    public Rel opt() {
        long[] out = rows.clone();
        for (int i = 0; i < n; i++) {
            out[i] |= 1L << i;
        }
        return new Rel(n, out);
    }

    public long domain() {
        long d = 0;
        for (int i = 0; i < n; i++) {
            if (rows[i] != 0) {
                d |= 1L << i;
            }
        }
        return d;
    }

    public long range() {
        long r = 0;
        for (long x : rows) {
            r |= x;
        }
        return r;
    }

    public boolean isEmpty() {
        for (long x : rows) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    public boolean irreflexive() {
        for (int i = 0; i < n; i++) {
            if ((rows[i] >>> i & 1) != 0) {
                return false;
            }
        }
        return true;
    }

    public boolean acyclic() {
        return plus().irreflexive();
    }

    /** The pairs of this relation with no intermediate step: {@code r \ (r ; r)}. */
    public Rel immediate() {
        return minus(seq(this));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Rel r && r.n == n && Arrays.equals(r.rows, rows);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(rows);
    }
}
