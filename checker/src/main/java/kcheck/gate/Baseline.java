package kcheck.gate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import kcheck.engine.Verdict;
import kcheck.trace.JsonInput;
import kcheck.model.ModelFactory;
import kcheck.model.ModelInputException;
import kcheck.model.Models;

/**
 * The expected verdicts CI gates on ({@code kcheck-baseline.json}): one entry per (model,
 * variant, bounds, property). A before-variant that stops violating is a regression of the
 * suite itself and fails the gate just like an after-variant that starts to.
 */
public record Baseline(Path file, List<Entry> entries) {

    /**
     * One expectation. {@code quick} overrides parameters for {@code verify --quick}.
     */
    public record Entry(String model, String variant, Map<String, String> params, String property, Verdict expected,
                        Map<String, String> quick, String note) {

        /** "model/variant/property [params]": how failures name the entry. */
        public String name() {
            StringBuilder b = new StringBuilder(model + "/" + variant + "/" + property);
            if (!params.isEmpty()) {
                b.append(" [");
                params.forEach((k, v) -> b.append(b.charAt(b.length() - 1) == '[' ? "" : " ").append(k).append('=').append(v));
                b.append(']');
            }
            return b.toString();
        }

        /** The parameters to run with: quick overrides applied if asked. */
        public Map<String, String> effectiveParams(boolean quickMode) {
            Map<String, String> p = new LinkedHashMap<>(params);
            if (quickMode) {
                p.putAll(quick);
            }
            return p;
        }
    }

    /**
     * The key of the search an entry belongs to: entries with the same model, variant and
     * (effective) parameters share one search.
     */
    public static String group(Entry e, boolean quickMode) {
        return e.model() + "|" + e.variant() + "|" + Models.get(e.model()).params(e.effectiveParams(quickMode));
    }

    /**
     * Shard {@code i} of {@code n} (1-based) for a CI matrix: the searches (groups of entries
     * that share one) in baseline order, dealt round-robin, so the shards 1..n together hold every
     * entry exactly once and no search runs in two shards. Deterministic: the same baseline gives
     * the same shards.
     */
    public Baseline shard(int i, int n, boolean quickMode) {
        if (n < 1 || i < 1 || i > n) {
            throw new IllegalArgumentException("shard " + i + "/" + n);
        }
        Map<String, Integer> index = new LinkedHashMap<>();
        List<Entry> out = new ArrayList<>();
        for (Entry e : entries) {
            int g = index.computeIfAbsent(group(e, quickMode), k -> index.size());
            if (g % n == i - 1) {
                out.add(e);
            }
        }
        return new Baseline(file, out);
    }

    /** Where the built-in baseline is packed (checker/pom.xml copies the repository's kcheck-baseline.json there). */
    public static final String RESOURCE = "/kcheck/kcheck-baseline.json";

    /** Reads and validates a baseline; {@link ModelInputException} (exit 2) naming the problem. */
    public static Baseline read(Path file) {
        return parse(file, JsonInput.read(file, "baseline " + file, ModelInputException::new));
    }

    /**
     * The baseline built into this kcheck (the repository's kcheck-baseline.json at build time),
     * so that {@code kcheck verify} works from any directory; {@link #file()} names it
     * {@code kcheck-baseline.json (built in)}.
     */
    public static Baseline builtIn() {
        try (java.io.InputStream in = Baseline.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new ModelInputException("this kcheck has no built-in baseline (resource " + RESOURCE + "): pass --baseline FILE");
            }
            return parse(Path.of("kcheck-baseline.json (built in)"), new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new ModelInputException("cannot read the built-in baseline: " + e.getMessage());
        }
    }

    /** Parses and validates baseline JSON text (bounded like a file, {@link JsonInput}); {@code file} names it in messages. */
    public static Baseline parse(Path file, String text) {
        return parse(file, JsonInput.parse("baseline " + file, text, ModelInputException::new));
    }

    private static Baseline parse(Path file, JsonNode root) {
        if (root == null || !root.isObject() || !root.path("entries").isArray()) {
            throw new ModelInputException("baseline " + file + ": expected an object with an \"entries\" array");
        }
        if (root.path("format").asInt(0) != 1) {
            throw new ModelInputException("baseline " + file + ": unsupported format " + root.path("format"));
        }
        List<Entry> out = new ArrayList<>();
        int i = 0;
        for (JsonNode e : root.get("entries")) {
            i++;
            String where = "baseline " + file + " entry " + i;
            String model = text(e, "model", where);
            String variant = text(e, "variant", where);
            String property = text(e, "property", where);
            String expected = text(e, "expected", where);
            Verdict v;
            try {
                v = Verdict.valueOf(expected);
            } catch (IllegalArgumentException x) {
                throw new ModelInputException(where + ": expected must be HOLDS, VIOLATED or INCOMPLETE, got '" + expected + "'");
            }
            ModelFactory f;
            try {
                f = Models.get(model);
            } catch (ModelInputException x) {
                throw new ModelInputException(where + ": " + x.getMessage());
            }
            try {
                f.variant(variant);
                f.checkProperties(java.util.Set.of(property));
                Map<String, String> params = map(e.path("params"), where);
                Map<String, String> quick = map(e.path("quick"), where);
                f.params(params);
                Map<String, String> both = new LinkedHashMap<>(params);
                both.putAll(quick);
                f.params(both);
                out.add(new Entry(model, variant, params, property, v, quick, e.path("note").asText("")));
            } catch (ModelInputException x) {
                throw new ModelInputException(where + ": " + x.getMessage());
            }
        }
        if (out.isEmpty()) {
            throw new ModelInputException("baseline " + file + " has no entries");
        }
        return new Baseline(file, out);
    }

    private static String text(JsonNode e, String field, String where) {
        JsonNode n = e.get(field);
        if (n == null || !n.isTextual() || n.asText().isBlank()) {
            throw new ModelInputException(where + ": missing \"" + field + "\"");
        }
        return n.asText();
    }

    private static Map<String, String> map(JsonNode n, String where) {
        Map<String, String> m = new LinkedHashMap<>();
        if (n.isMissingNode() || n.isNull()) {
            return m;
        }
        if (!n.isObject()) {
            throw new ModelInputException(where + ": params must be an object");
        }
        n.fields().forEachRemaining(f -> m.put(f.getKey(), f.getValue().asText()));
        return m;
    }
}
