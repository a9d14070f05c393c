package kcheck.model;

/**
 * A property as listed by {@code kcheck list}: id, kind and statement.
 *
 * @param optIn true for a property that is not checked unless named ({@code --property}): a
 *              documented false claim, or a known gap of the fixed code. The default selection of
 *              {@code kcheck check} is every property that is not opt-in.
 */
public record PropertyInfo(String id, Property.Kind kind, String description, boolean optIn) {

    public PropertyInfo(String id, Property.Kind kind, String description) {
        this(id, kind, description, false);
    }
}
