package kcheck.cli;

import java.util.Collection;

import kcheck.engine.Verdict;

/** The exit-code contract scripts and CI depend on. */
public final class ExitCodes {
    /** Every checked property holds (verify: every verdict as the baseline). */
    public static final int OK = 0;
    /** A property is violated (verify: a verdict differs from the baseline). */
    public static final int VIOLATED = 1;
    /** Usage or input error, an error in a variant file's code, or an internal error of kcheck: never a verdict. */
    public static final int USAGE = 2;
    /** A limit was hit, or a signal stopped the run, before every property was decided (and none was found violated). */
    public static final int INCOMPLETE = 3;

    private ExitCodes() {
    }

    /** The --json document's {@code "outcome"} for a check's exit code: HOLDS, VIOLATED, ERROR or INCOMPLETE. */
    public static String outcome(int exit) {
        return switch (exit) {
            case OK -> "HOLDS";
            case VIOLATED -> "VIOLATED";
            case INCOMPLETE -> "INCOMPLETE";
            default -> "ERROR";
        };
    }

    /** 1 if any VIOLATED (however the run ended), else 3 if any INCOMPLETE, else 0. */
    public static int of(Collection<Verdict> verdicts) {
        if (verdicts.contains(Verdict.VIOLATED)) {
            return VIOLATED;
        }
        if (verdicts.contains(Verdict.INCOMPLETE)) {
            return INCOMPLETE;
        }
        return OK;
    }
}
