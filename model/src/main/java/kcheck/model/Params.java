package kcheck.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Resolved parameters of a model instance: every declared parameter with its value, in declaration order. */
public final class Params {
    private final Map<String, String> values;
    /** What a run prints and records: {@link #values} without the quiet parameters at their defaults. */
    private final Map<String, String> shown;

    private Params(Map<String, String> values, Map<String, String> shown) {
        this.values = Collections.unmodifiableMap(values);
        this.shown = Collections.unmodifiableMap(shown);
    }

    /**
     * Validates {@code given} against {@code specs} and fills in defaults. Unknown names and bad
     * values throw {@link ModelInputException}.
     */
    public static Params resolve(String model, List<ParamSpec> specs, Map<String, String> given) {
        Map<String, String> out = new LinkedHashMap<>();
        Map<String, String> shown = new LinkedHashMap<>();
        for (String key : given.keySet()) {
            if (specs.stream().noneMatch(s -> s.name().equals(key))) {
                throw new ModelInputException(model + ": unknown parameter '" + key + "' (known: "
                        + String.join(", ", specs.stream().map(ParamSpec::name).toList()) + ")");
            }
        }
        for (ParamSpec s : specs) {
            String v = given.getOrDefault(s.name(), s.defaultValue());
            String value = s.validate(model, v);
            out.put(s.name(), value);
            if (!s.quiet() || !value.equals(s.defaultValue())) {
                shown.put(s.name(), value);
            }
        }
        return new Params(out, shown);
    }

    public int integer(String name) {
        return Integer.parseInt(get(name));
    }

    public String get(String name) {
        String v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("no parameter " + name);
        }
        return v;
    }

    /**
     * The parameters as a run prints and records them: every one, but a quiet one only when not
     * at its default ({@link ParamSpec#quiet}); passing them back gives the same {@code Params}.
     */
    public Map<String, String> asMap() {
        return shown;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        shown.forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Params p && p.values.equals(values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }
}
