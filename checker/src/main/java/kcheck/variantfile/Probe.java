package kcheck.variantfile;

import java.util.Arrays;

/**
 * Line probes of a variant file, used on the error path only: when the model refuses what the
 * variant's code did after that code has returned (a value too wide for its packed field, a flag
 * it never expects), no frame of the variant is left on the stack. kcheck then compiles a copy of
 * the file with a call {@code Probe.at(site)} inserted before each statement (on the same line,
 * so line numbers stay), re-runs the failing call on the same state with that copy, and names the
 * statement that last assigned the field the model complains about, else the last statement of
 * the variant that ran. The classes that are checked are never instrumented.
 */
public final class Probe {
    /** Per thread: a clock, and the clock value at which each site last ran. */
    private static final class Ticks {
        long now;
        long[] at = new long[64];
        int last = -1;
    }

    private static final ThreadLocal<Ticks> TICKS = ThreadLocal.withInitial(Ticks::new);

    private Probe() {
    }

    /** Called by the instrumented copy before each statement: {@code site} indexes the copy's table of sites. */
    public static void at(int site) {
        Ticks t = TICKS.get();
        if (site >= t.at.length) {
            t.at = Arrays.copyOf(t.at, Math.max(site + 1, t.at.length * 2));
        }
        t.at[site] = ++t.now;
        t.last = site;
    }

    static void reset() {
        TICKS.remove();
    }

    /** The site that ran last, or -1. */
    static int last() {
        return TICKS.get().last;
    }

    /** When {@code site} last ran (0: never); larger is later. */
    static long ranAt(int site) {
        Ticks t = TICKS.get();
        return site < t.at.length ? t.at[site] : 0;
    }
}
