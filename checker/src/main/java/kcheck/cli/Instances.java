package kcheck.cli;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.Params;
import kcheck.model.PropertyInfo;
import kcheck.variantfile.VariantFile;

/** Builds model instances from what the user asked for (model, variant, parameters, properties). */
public final class Instances {
    private Instances() {
    }

    /** The named property set meaning every property of the model, opt-in ones included ({@code --property all}). */
    public static final String ALL = "all";

    /**
     * The model instance for these choices. {@code cpus} (may be null) is the {@code --cpus}
     * shorthand for {@code --param cpus=N}; empty {@code properties} means the default selection
     * (every property that is not opt-in, see {@link #selection}).
     */
    public static Model create(String model, String variant, Integer cpus, Map<String, String> params, List<String> properties) {
        return create(model, variant, null, cpus, params, properties);
    }

    /**
     * As {@link #create(String, String, Integer, Map, List)}; with a {@code variantFile} (may be
     * null) the instance runs that file's variant and {@code variant} is ignored.
     */
    public static Model create(String model, String variant, VariantFile variantFile, Integer cpus, Map<String, String> params,
                               List<String> properties) {
        ModelFactory f = Models.get(model);
        Map<String, String> given = given(f, cpus, params);
        if (variantFile == null) {
            f.variant(variant);
        }
        Params p = f.params(given);
        Set<String> props = selection(f, properties);
        f.checkProperties(props);
        return variantFile != null ? variantFile.create(p, props) : f.create(variant, p, props);
    }

    /** The parameters given with {@code --param}, with the {@code --cpus} shorthand (may be null) folded in. */
    public static Map<String, String> given(ModelFactory f, Integer cpus, Map<String, String> params) {
        Map<String, String> given = new LinkedHashMap<>(params == null ? Map.of() : params);
        if (cpus != null) {
            if (f.params().stream().noneMatch(p -> p.name().equals("cpus"))) {
                throw new UsageException(f.name() + " has no CPU count: --cpus does not apply");
            }
            if (given.containsKey("cpus") && !given.get("cpus").equals(cpus.toString())) {
                throw new UsageException("--cpus " + cpus + " contradicts --param cpus=" + given.get("cpus"));
            }
            given.put("cpus", cpus.toString());
        }
        return given;
    }

    /**
     * The properties to check: those named; none named means the default selection, every
     * property the variant is expected to satisfy, which leaves out the opt-in ones (documented
     * false claims, known gaps of the fixed code: {@link PropertyInfo#optIn()}); the named set
     * {@code all} means every property.
     */
    public static Set<String> selection(ModelFactory f, List<String> named) {
        Set<String> props = new LinkedHashSet<>();
        if (named == null || named.isEmpty()) {
            f.properties().stream().filter(p -> !p.optIn()).map(PropertyInfo::id).forEach(props::add);
        } else {
            for (String n : named) {
                if (n.equals(ALL)) {
                    f.properties().stream().map(PropertyInfo::id).forEach(props::add);
                } else {
                    props.add(n);
                }
            }
        }
        return props;
    }
}
