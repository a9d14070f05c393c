package kcheck.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a model factory lists: its properties (id, kind, statement, in listing order) and its
 * variants, each with the reference implementation behind it. One table per model, so the
 * property kinds and statements, the variant list and the implementations cannot drift apart.
 *
 * <pre>{@code
 * static final Catalog<CpudlHeap> CATALOG = new Catalog<CpudlHeap>(NAME)
 *         .property("heap-order", Kind.INVARIANT, "...")
 *         .variant(VariantInfo.of("before", "v4.8: ..."), CpudlV48::new);
 * }</pre>
 *
 * @param <I> the model's variant contract (the interface its reference implementations implement)
 */
public final class Catalog<I> {
    private final String model;
    private final List<PropertyInfo> properties = new ArrayList<>();
    private final List<VariantInfo> variants = new ArrayList<>();
    private final Map<String, Supplier<? extends I>> implementations = new LinkedHashMap<>();

    public Catalog(String model) {
        this.model = model;
    }

    /** Adds a property; listing order is the order of these calls. */
    public Catalog<I> property(String id, Property.Kind kind, String description) {
        properties.add(new PropertyInfo(id, kind, description));
        return this;
    }

    /**
     * Adds an opt-in property: checked only when named, never in the default selection (a
     * documented false claim, or a known gap of the fixed code).
     */
    public Catalog<I> optInProperty(String id, Property.Kind kind, String description) {
        properties.add(new PropertyInfo(id, kind, description, true));
        return this;
    }

    /** Adds a variant and the reference implementation it runs (a fresh instance per call). */
    public Catalog<I> variant(VariantInfo info, Supplier<? extends I> implementation) {
        variants.add(info);
        implementations.put(info.name(), implementation);
        return this;
    }

    /** The statement of property {@code id}, or null if there is none. */
    public String describe(String id) {
        return properties.stream().filter(p -> p.id().equals(id)).map(PropertyInfo::description).findFirst().orElse(null);
    }

    public List<PropertyInfo> properties() {
        return Collections.unmodifiableList(properties);
    }

    public List<VariantInfo> variants() {
        return Collections.unmodifiableList(variants);
    }

    /**
     * A fresh instance of the reference implementation behind {@code variant}.
     *
     * @throws ModelInputException for a variant this catalogue does not list
     */
    public I implementation(String variant) {
        Supplier<? extends I> s = implementations.get(variant);
        if (s == null) {
            throw new ModelInputException(model + ": unknown variant '" + variant + "' (known: "
                    + String.join(", ", implementations.keySet()) + ")");
        }
        return s.get();
    }
}
