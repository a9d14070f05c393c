package kcheck.model;

/**
 * Bad input from a user: an unknown variant, property or parameter, or a value out of range.
 * The message is one line meant for stderr; the CLI turns it into exit code 2.
 */
public class ModelInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ModelInputException(String message) {
        super(message);
    }
}
