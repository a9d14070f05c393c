package kcheck.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The catalogue of models on the class path, found with {@link ServiceLoader}. {@link #get} loads
 * providers only until it finds the one asked for (in the order of META-INF/services), so a check
 * of one model does not initialise the other models' catalogues at start-up.
 */
public final class Models {
    /** Factories found so far, by name; a factory's catalogue is static, so one instance serves every caller. */
    private static final Map<String, ModelFactory> FOUND = new ConcurrentHashMap<>();

    private Models() {
    }

    /** Every model, in a stable order (by name). */
    public static List<ModelFactory> all() {
        List<ModelFactory> out = new ArrayList<>();
        ServiceLoader.load(ModelFactory.class, Models.class.getClassLoader()).forEach(out::add);
        out.sort(Comparator.comparing(ModelFactory::name));
        return out;
    }

    /** The model named {@code name}, or a {@link ModelInputException} listing the known ones. */
    public static ModelFactory get(String name) {
        ModelFactory known = FOUND.get(name);
        if (known != null) {
            return known;
        }
        for (ModelFactory f : ServiceLoader.load(ModelFactory.class, Models.class.getClassLoader())) {
            FOUND.putIfAbsent(f.name(), f);
            if (f.name().equals(name)) {
                return FOUND.get(name);
            }
        }
        throw new ModelInputException("unknown model '" + name + "' (known: "
                + String.join(", ", all().stream().map(ModelFactory::name).toList()) + ")");
    }
}
