package kcheck.model;

import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * How a model accepts variants written outside kcheck ({@code kcheck variant new},
 * {@code kcheck check MODEL --variant-file F.java}): the interface a variant implements, the
 * built-in implementation of each named variant (whose source {@code variant new} copies), and
 * how to build the model around any implementation. A model declares it in
 * {@link ModelFactory#variantContract()}; nothing else in kcheck needs to know the model.
 *
 * <p>For a factory that keeps its variants in a {@link Catalog Catalog<Contract>} and has
 * {@code create(String variantName, Contract impl, Params, Set<String>)}:
 * <pre>{@code
 * @Override
 * public VariantContract<?> variantContract() {
 *     return new VariantContract<>(Contract.class, CATALOG::implementation, this::create);
 * }
 * }</pre>
 *
 * <p>The source of every built-in implementation must be reachable from the class path as
 * resource {@code kcheck-sources/<package path>/<TopLevelClass>.java} (the model module's build
 * copies its sources there), and everything the built-in implementations call must be public:
 * the copy {@code variant new} writes lives outside the model's package.
 *
 * @param type    the variant contract, an interface (e.g. {@code CpudlHeap})
 * @param builtIn the implementation of a built-in variant, given a name from
 *                {@link ModelFactory#variants()}
 * @param builder builds the model for a variant name and an implementation, like
 *                {@link ModelFactory#create(String, Params, Set)}
 * @param <T>     the contract type
 */
public record VariantContract<T>(Class<T> type, Function<String, ? extends T> builtIn, Builder<T> builder) {

    /** Builds a model instance around one implementation of the contract. */
    @FunctionalInterface
    public interface Builder<T> {
        Model create(String variantName, T impl, Params params, Set<String> properties);
    }

    public VariantContract {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(builtIn, "builtIn");
        Objects.requireNonNull(builder, "builder");
    }

    /** Builds the model for {@code impl}, which must be an instance of {@link #type()}. */
    public Model create(String variantName, Object impl, Params params, Set<String> properties) {
        if (!type.isInstance(impl)) {
            throw new ModelInputException(impl.getClass().getName() + " does not implement " + type.getName());
        }
        return builder.create(variantName, type.cast(impl), params, properties);
    }

    /** The class of a built-in variant's implementation (its source is what {@code variant new} copies). */
    public Class<?> implementationClass(String variant) {
        T impl = builtIn.apply(variant);
        if (impl == null) {
            throw new ModelInputException("no implementation for variant '" + variant + "'");
        }
        return impl.getClass();
    }
}
