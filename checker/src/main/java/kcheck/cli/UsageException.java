package kcheck.cli;

/** Bad input from the user: printed as one line on stderr, exit code 2. */
public class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
