package kcheck.model.cpudl;

import kcheck.model.Kernel;

/**
 * Absolute deadlines: u64 nanoseconds held in a Java {@code long} (unsigned meaning), compared
 * with the kernel's wrap-aware {@code dl_time_before()}, and printed for people
 * ({@code 2^63+1}, {@code 2^64-1}, {@code 5}).
 */
public final class Deadlines {
    /** 2^63 as a u64 held in a long. */
    public static final long TWO_63 = Long.MIN_VALUE;
    /** 2^64 - 1 as a u64 held in a long. */
    public static final long U64_MAX = -1L;

    private static final long NEAR = 1L << 20;

    private Deadlines() {
    }

    /** {@code dl_time_before(a, b)}: {@code (s64)(a - b) < 0}, "a is earlier than b", wrap-aware. */
    @Kernel(function = "dl_time_before", file = "include/linux/sched/deadline.h", version = "v4.8")
    public static boolean dlTimeBefore(long a, long b) {
        return a - b < 0;
    }

    /**
     * A deadline for people: small values in decimal, values near a power of two (2^k, k >= 20)
     * as {@code 2^k+d} or {@code 2^k-d}, anything else in hex. "Near" is {@code -2^20 <= d < 2^20},
     * but at most a quarter of 2^k below it, so that a value between 2^20 and 2^21 is written
     * relative to the nearer of the two ({@code 2^20+5}, {@code 2^21-5}).
     */
    public static String format(long v) {
        if (v >= 0 && v < NEAR) {
            return Long.toString(v);
        }
        if (v < 0 && v >= -NEAR) {
            return "2^64-" + (-v);
        }
        for (int k = 63; k >= 20; k--) {
            long p = 1L << k;
            long d = v - p;
            if (d >= -Math.min(NEAR, p >>> 2) && d < NEAR) {
                return d == 0 ? "2^" + k : d > 0 ? "2^" + k + "+" + d : "2^" + k + "-" + (-d);
            }
        }
        return "0x" + Long.toHexString(v);
    }

    /**
     * Parses what {@link #format} prints, plus plain unsigned decimals and {@code 0x} hex:
     * {@code 2^63+1}, {@code 2^64-1}, {@code 18446744073709551615}, {@code 0xff}.
     */
    public static long parse(String s) {
        String t = s.trim();
        if (t.startsWith("2^")) {
            int sign = Math.max(t.indexOf('+'), t.indexOf('-'));
            int k = Integer.parseInt(sign < 0 ? t.substring(2) : t.substring(2, sign));
            if (k < 0 || k > 64) {
                throw new NumberFormatException("exponent out of range: " + s);
            }
            long base = k == 64 ? 0L : 1L << k;
            long d = sign < 0 ? 0 : Long.parseUnsignedLong(t.substring(sign + 1));
            return t.charAt(Math.max(sign, 0)) == '-' ? base - d : base + d;
        }
        if (t.startsWith("0x")) {
            return Long.parseUnsignedLong(t.substring(2), 16);
        }
        return Long.parseUnsignedLong(t);
    }
}
