package kcheck.litmus;

/**
 * What {@link LitmusChecker} decided for one test, in herd7's terms: the word for the final condition's
 * proposition over the allowed executions that pass the filter ({@code Always}, {@code Sometimes},
 * {@code Never}), how many of them satisfy it and how many do not, whether some allowed execution has a
 * data race ("Flag data-race"), the candidates explored, the time, and a witness: an allowed execution
 * satisfying the proposition, if there is one.
 *
 * @param explored   candidate executions checked against the model
 * @param allowed    of those, the ones the model allows
 * @param positive   allowed executions passing the filter where the proposition holds
 * @param negative   allowed executions passing the filter where it does not
 * @param witness    printed witness (per-CPU events, rf, co), or null
 */
public record LitmusResult(LitmusTest test, String word, long explored, long allowed, long positive, long negative,
        boolean dataRace, String witness, long micros) {

    /** herd7's word: Never when no allowed execution satisfies the proposition, Always when all do. */
    static String word(long positive, long negative) {
        return positive == 0 ? "Never" : negative == 0 ? "Always" : "Sometimes";
    }

    /** Whether the test's condition, as quantified, is validated (herd7's "Ok"/"No"). */
    public boolean validated() {
        return switch (test.quantifier()) {
            case "exists" -> positive > 0;
            case "~exists" -> positive == 0;
            default -> negative == 0;
        };
    }

    /**
     * Whether the result is what the test's {@code Result:} line predicts, as the kernel's judgelitmus.sh
     * judges: the word (DEADLOCK means no execution at all, "Never 0 0"; a "Never 0 0" is only right for
     * DEADLOCK), and a data race flagged exactly when DATARACE is predicted. True when nothing is predicted.
     */
    public boolean matchesExpectation() {
        String expected = test.expected();
        if (expected == null || expected.equals("Maybe")) {
            return true;
        }
        boolean none = positive == 0 && negative == 0;
        if (expected.equals("DEADLOCK")) {
            return none;
        }
        return !none && expected.equals(word) && test.expectedRace() == dataRace;
    }

    /** The expected word as printed, e.g. {@code Sometimes DATARACE}, or null. */
    public String expectedLabel() {
        return test.expected() == null ? null : test.expected() + (test.expectedRace() ? " DATARACE" : "");
    }
}
