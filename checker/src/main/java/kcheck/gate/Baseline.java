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

    /** The keys of the file and of an entry: any other is refused (a misspelt "expected" would otherwise be ignored). */
    private static final List<String> FILE_KEYS = List.of("format", "entries");
    private static final List<String> ENTRY_KEYS = List.of("model", "variant", "params", "property", "expected", "quick", "note");

    private static Baseline parse(Path file, JsonNode root) {
        if (root == null || !root.isObject() || !root.path("entries").isArray()) {
            throw new ModelInputException("baseline " + file + ": expected an object with an \"entries\" array");
        }
        knownKeys(root, FILE_KEYS, "baseline " + file);
        if (!root.path("format").isIntegralNumber() || root.path("format").asLong() != 1) {
            throw new ModelInputException("baseline " + file + ": unsupported format " + root.path("format") + " (this kcheck reads "
                    + "\"format\": 1)");
        }
        List<Entry> out = new ArrayList<>();
        int i = 0;
        for (JsonNode e : root.get("entries")) {
            i++;
            String where = "baseline " + file + " entry " + i;
            if (!e.isObject()) {
                throw new ModelInputException(where + ": an entry must be an object, got " + describe(e));
            }
            try {
                out.add(entry(e));
            } catch (ModelInputException x) {
                throw new ModelInputException(where + ": " + x.getMessage());
            }
        }
        if (out.isEmpty()) {
            throw new ModelInputException("baseline " + file + " has no entries");
        }
        return new Baseline(file, out);
    }

    /** One entry, validated; problems are {@link ModelInputException}s the caller prefixes with the file and entry. */
    private static Entry entry(JsonNode e) {
        knownKeys(e, ENTRY_KEYS, null);
        String model = text(e, "model");
        String variant = text(e, "variant");
        String property = text(e, "property");
        String expected = text(e, "expected");
        Verdict v;
        try {
            v = Verdict.valueOf(expected);
        } catch (IllegalArgumentException x) {
            throw new ModelInputException("expected must be HOLDS, VIOLATED or INCOMPLETE, got '" + expected + "'");
        }
        JsonNode note = e.path("note");
        if (!note.isMissingNode() && !note.isTextual()) {
            throw new ModelInputException("\"note\" must be a string, got " + describe(note));
        }
        ModelFactory f = Models.get(model);
        f.variant(variant);
        f.checkProperties(java.util.Set.of(property));
        Map<String, String> params = map(e, "params");
        Map<String, String> quick = map(e, "quick");
        f.params(params);
        Map<String, String> both = new LinkedHashMap<>(params);
        both.putAll(quick);
        f.params(both);
        return new Entry(model, variant, params, property, v, quick, note.asText(""));
    }

    private static void knownKeys(JsonNode o, List<String> known, String where) {
        o.fieldNames().forEachRemaining(k -> {
            if (!known.contains(k)) {
                throw new ModelInputException((where == null ? "" : where + ": ") + "unknown key \"" + k + "\" (known: "
                        + String.join(", ", known) + ")");
            }
        });
    }

    private static String text(JsonNode e, String field) {
        JsonNode n = e.get(field);
        if (n == null) {
            throw new ModelInputException("missing \"" + field + "\"");
        }
        if (!n.isTextual()) {
            throw new ModelInputException("\"" + field + "\" must be a string, got " + describe(n));
        }
        if (n.asText().isBlank()) {
            throw new ModelInputException("\"" + field + "\" is empty");
        }
        return n.asText();
    }

    /** {@code params} or {@code quick}: an object of parameter values, each a string or an integer. */
    private static Map<String, String> map(JsonNode e, String field) {
        JsonNode n = e.path(field);
        Map<String, String> m = new LinkedHashMap<>();
        if (n.isMissingNode() || n.isNull()) {
            return m;
        }
        if (!n.isObject()) {
            throw new ModelInputException("\"" + field + "\" must be an object, got " + describe(n));
        }
        n.fields().forEachRemaining(f -> {
            JsonNode value = f.getValue();
            if (!value.isTextual() && !value.isIntegralNumber()) {
                throw new ModelInputException("\"" + field + "\": the value of \"" + f.getKey() + "\" must be a string or an "
                        + "integer, got " + describe(value));
            }
            m.put(f.getKey(), value.asText());
        });
        return m;
    }

    /** What a JSON value is, for messages: {@code the number 1}, {@code an object}, ... */
    private static String describe(JsonNode n) {
        String shown = n.toString();
        return switch (n.getNodeType()) {
            case NUMBER -> "the number " + (shown.length() > 24 ? shown.substring(0, 24) + "..." : shown);
            case BOOLEAN -> shown;
            case NULL -> "null";
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case STRING -> "a string";
            default -> "a " + n.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
