package kcheck.model;

/**
 * A variant did something the model cannot represent: a value outside the range packed into the
 * state, a flag the model never expects, a loop bound it does not support. This is not a
 * violation of any property and not a bug of kcheck: it is a limit of the model, reached by this
 * variant's code. The message says the limit in words, e.g. "lb-redo packs env.loop in 4 bits:
 * this variant reached 33". The CLI reports it as an input error (exit 2) naming the variant's
 * file, line and method from the stack.
 *
 * <p>Models throw it at the point where the assumption is made (the packing code), never later.
 */
public class ModelLimitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ModelLimitException(String message) {
        super(message);
    }
}
