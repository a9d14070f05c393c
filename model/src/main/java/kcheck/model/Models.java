package kcheck.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** The catalogue of models on the class path, found with {@link ServiceLoader}. */
public final class Models {
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
        List<ModelFactory> all = all();
        return all.stream().filter(f -> f.name().equals(name)).findFirst()
                .orElseThrow(() -> new ModelInputException("unknown model '" + name + "' (known: "
                        + String.join(", ", all.stream().map(ModelFactory::name).toList()) + ")"));
    }
}
