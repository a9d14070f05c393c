package kcheck.crosscheck;

/** A property monitor saw its property broken; the message starts with the property id. */
final class Violation extends AssertionError {
    private static final long serialVersionUID = 1L;

    final String property;

    Violation(String property, String explanation) {
        super(property + ": " + explanation);
        this.property = property;
    }
}
