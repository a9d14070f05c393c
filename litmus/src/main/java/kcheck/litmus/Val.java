package kcheck.litmus;

/**
 * A value a litmus test computes with: an integer, or the address of a shared location ({@code &x}, or
 * {@code y=x} in the initial state). Pointer arithmetic is not modelled.
 */
public record Val(String loc, long num) {
    public static final Val ZERO = new Val(null, 0);

    public static Val of(long n) {
        return n == 0 ? ZERO : new Val(null, n);
    }

    public static Val address(String loc) {
        return new Val(loc, 0);
    }

    public boolean isAddress() {
        return loc != null;
    }

    /** C truth: a non-zero integer or any address. */
    public boolean truthy() {
        return loc != null || num != 0;
    }

    @Override
    public String toString() {
        return loc != null ? loc : Long.toString(num);
    }
}
