package kcheck.model;

/** A property as listed by {@code kcheck list}: id, kind and statement. */
public record PropertyInfo(String id, Property.Kind kind, String description) {
}
