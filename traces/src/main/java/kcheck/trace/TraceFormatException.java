package kcheck.trace;

/** A trace file that cannot be read: malformed, truncated, from a newer format, or inconsistent. One-line message. */
public class TraceFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TraceFormatException(String message) {
        super(message);
    }
}
