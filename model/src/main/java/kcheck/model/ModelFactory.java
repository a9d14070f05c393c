package kcheck.model;

import java.util.List;
import java.util.Set;

/**
 * Builds instances of one model. Implementations are found with {@link java.util.ServiceLoader}
 * (see {@link Models}), so adding a model touches no central code.
 */
public interface ModelFactory {

    /** Name on the command line, e.g. {@code rq-lock}. */
    String name();

    /** One line: what the model is about, with kernel file and versions. */
    String title();

    List<VariantInfo> variants();

    List<ParamSpec> params();

    /** Every property this model can check. */
    List<PropertyInfo> properties();

    /**
     * Builds the instance for {@code variant} with {@code params}, checking {@code properties}
     * (ids from {@link #properties()}; never empty). A model may drop monitor variables that only
     * unselected properties need.
     *
     * @throws ModelInputException for an unknown variant or property
     */
    Model create(String variant, Params params, Set<String> properties);

    /**
     * What this model assumes of a variant's behaviour, one sentence each, in words a variant
     * author can act on (e.g. "env.loop is packed in 4 bits: loop_break must be a multiple of 32").
     * A variant that breaks one gets {@link ModelLimitException} at the point the assumption is
     * made. Printed by {@code kcheck list} and written into the header of {@code kcheck variant new}.
     */
    default List<String> limits() {
        return List.of();
    }

    /**
     * The environment contract: every input the ported kernel code takes from outside the
     * mechanism, at each call site, and how the model covers it (a choice, a parameter, or an
     * assumption with its reason). Printed by {@code kcheck list}; docs/models/NAME.md carries the
     * same table with the audit behind it.
     */
    default List<EnvironmentInput> environment() {
        return List.of();
    }

    /**
     * The variant whose code fixes what {@code variant} gets wrong: a counterexample of
     * {@code variant} must be refused there (the regression corpus checks it). {@code after} unless
     * a model says otherwise (e.g. a real bug of a later kernel, fixed by that kernel's port).
     */
    default String fixOf(String variant) {
        return "after";
    }

    /**
     * The notation of this model's traces, one line each, for the legend every text output that
     * uses it prints (e.g. {@code "rqN.serving: the ticket rq N serves now (not a CPU id)"}).
     * Empty if the fields need no explanation.
     */
    default List<String> legend() {
        return List.of();
    }

    /**
     * The variant contract, if this model accepts variants from a source file
     * ({@code kcheck variant new}, {@code --variant-file}); {@code null} if it does not. See
     * {@link VariantContract} for the one-line implementation.
     */
    default VariantContract<?> variantContract() {
        return null;
    }

    /** Resolves user-given parameters against {@link #params()}. */
    default Params params(java.util.Map<String, String> given) {
        return Params.resolve(name(), params(), given);
    }

    /** Throws {@link ModelInputException} unless {@code variant} is one of {@link #variants()}. */
    default VariantInfo variant(String variant) {
        return variants().stream().filter(v -> v.name().equals(variant)).findFirst()
                .orElseThrow(() -> new ModelInputException(name() + ": unknown variant '" + variant + "' (known: "
                        + String.join(", ", variants().stream().map(VariantInfo::name).toList()) + ")"));
    }

    /**
     * What {@link #create} checks: at least one property, and every id one of
     * {@link #properties()}; throws {@link ModelInputException} otherwise.
     */
    default void checkSelection(Set<String> ids) {
        checkProperties(ids);
        if (ids.isEmpty()) {
            throw new ModelInputException(name() + ": no property selected");
        }
    }

    /** Throws {@link ModelInputException} unless every id is one of {@link #properties()}. */
    default void checkProperties(Set<String> ids) {
        for (String id : ids) {
            if (properties().stream().noneMatch(p -> p.id().equals(id))) {
                throw new ModelInputException(name() + ": unknown property '" + id + "' (known: "
                        + String.join(", ", properties().stream().map(PropertyInfo::id).toList()) + ")");
            }
        }
    }
}
