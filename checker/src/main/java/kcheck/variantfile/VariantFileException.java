package kcheck.variantfile;

import java.util.List;

/**
 * A variant file that cannot be used: missing, does not compile, wrong class shape, makes a call a
 * variant may not make, or failed while being checked. The message is one line; {@link #details()}
 * (the compiler's diagnostics, as javac prints them) follow it on stderr. The CLI exits with 2.
 */
public class VariantFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient List<String> details;
    private final transient VariantFile.Frame frame;

    public VariantFileException(String message) {
        this(message, List.of());
    }

    public VariantFileException(String message, List<String> details) {
        this(message, details, null);
    }

    public VariantFileException(String message, List<String> details, VariantFile.Frame frame) {
        super(message);
        this.details = List.copyOf(details);
        this.frame = frame;
    }

    /** Lines to print after the message (may be empty). */
    public List<String> details() {
        return details;
    }

    /** The file, line and method of the variant the error is in (null if it is not about one line). */
    public VariantFile.Frame frame() {
        return frame;
    }
}
