package kcheck.simulate;

import java.util.Locale;

/** Number formatting for the simulation's tables and files. */
final class Format {
    private Format() {
    }

    /** A plain number: integers without decimals, else up to 4 significant digits. */
    static String number(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.format(Locale.ROOT, "%d", (long) v);
        }
        return String.format(Locale.ROOT, "%.4g", v);
    }

    /**
     * A value of {@code unit} for a table: nanoseconds shown in microseconds (3 significant
     * digits), fractions as percentages, other units with 3 significant digits.
     */
    static String value(double v, String unit) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return switch (unit) {
            case "ns" -> sig(v / 1000.0);
            case "fraction" -> String.format(Locale.ROOT, "%.2f%%", 100 * v);
            default -> sig(v);
        };
    }

    /** The unit as shown by {@link #value}. */
    static String shownUnit(String unit) {
        return switch (unit) {
            case "ns" -> "us";
            case "fraction" -> "%";
            default -> unit;
        };
    }

    /** The factor {@link #value} divides by (for plots). */
    static double scale(String unit) {
        return switch (unit) {
            case "ns" -> 1000.0;
            case "fraction" -> 0.01;
            default -> 1.0;
        };
    }

    static String sig(double v) {
        double a = Math.abs(v);
        if (a == 0) {
            return "0";
        }
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }
}
