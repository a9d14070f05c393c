package kcheck.variantfile;

import java.util.List;

/**
 * A variant file that cannot be used: missing, does not compile, wrong class shape, or failed
 * while being checked. The message is one line; {@link #details()} (the compiler's diagnostics,
 * as javac prints them) follow it on stderr. The CLI exits with 2.
 */
public class VariantFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient List<String> details;

    public VariantFileException(String message) {
        this(message, List.of());
    }

    public VariantFileException(String message, List<String> details) {
        super(message);
        this.details = List.copyOf(details);
    }

    /** Lines to print after the message (may be empty). */
    public List<String> details() {
        return details;
    }
}
