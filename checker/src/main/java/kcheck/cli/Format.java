package kcheck.cli;

import java.util.Locale;

/** Number formatting for tables. */
final class Format {
    private Format() {
    }

    static String bytes(long b) {
        if (b >= 1L << 30) {
            return String.format(Locale.ROOT, "%.1f GiB", b / (double) (1L << 30));
        }
        if (b >= 1L << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", b / (double) (1L << 20));
        }
        return String.format(Locale.ROOT, "%.1f KiB", b / 1024.0);
    }

    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    static String seconds(double s) {
        return String.format(Locale.ROOT, s < 10 ? "%.2f" : "%.1f", s);
    }

    static String rate(double r) {
        return String.format(Locale.ROOT, "%,.0f", r);
    }
}
