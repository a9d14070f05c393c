package kcheck.engine;

import java.time.Duration;

/** Parses and prints durations as users write them: {@code 90s}, {@code 5m}, {@code 1h}, {@code 250ms}. */
public final class Durations {
    private Durations() {
    }

    /** Parses "250ms", "90s", "5m", "1h" or a bare number of seconds; throws IllegalArgumentException. */
    public static Duration parse(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        try {
            if (t.endsWith("ms")) {
                return positive(Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2))), text);
            }
            if (t.endsWith("s")) {
                return positive(Duration.ofMillis((long) (Double.parseDouble(t.substring(0, t.length() - 1)) * 1000)), text);
            }
            if (t.endsWith("m")) {
                return positive(Duration.ofMillis((long) (Double.parseDouble(t.substring(0, t.length() - 1)) * 60_000)), text);
            }
            if (t.endsWith("h")) {
                return positive(Duration.ofMillis((long) (Double.parseDouble(t.substring(0, t.length() - 1)) * 3_600_000)), text);
            }
            return positive(Duration.ofMillis((long) (Double.parseDouble(t) * 1000)), text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad duration '" + text + "' (examples: 250ms, 90s, 5m, 1h)");
        }
    }

    /** Longest duration accepted: a deadline further away would overflow the nanosecond clock. */
    static final Duration MAX = Duration.ofDays(365);

    private static Duration positive(Duration d, String text) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("bad duration '" + text + "': must be positive");
        }
        if (d.compareTo(MAX) > 0) {
            throw new IllegalArgumentException("bad duration '" + text + "': at most 365 days (8760h)");
        }
        return d;
    }

    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }
}
