package kcheck.model;

/**
 * A named variant of a model: {@code before}, {@code after}, a named known bug such as
 * {@code rfc-v2}, or a seeded mutant (a deliberate one-line bug used to show that a property
 * catches what it claims to catch; mutants are listed but not part of the verdict catalogue).
 */
public record VariantInfo(String name, String description, boolean mutant) {

    public static VariantInfo of(String name, String description) {
        return new VariantInfo(name, description, false);
    }

    public static VariantInfo mutant(String name, String description) {
        return new VariantInfo(name, description, true);
    }
}
