package kcheck.litmus;

/**
 * A litmus file kcheck cannot decide: a syntax error, an unsupported statement or macro, or a test beyond
 * the checker's limits. The message is one line, {@code FILE:LINE: what}.
 */
public final class LitmusException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LitmusException(String message) {
        super(message);
    }

    /** {@code file:line: what}. */
    public static LitmusException at(String file, int line, String what) {
        return new LitmusException(file + ":" + line + ": " + what);
    }
}
