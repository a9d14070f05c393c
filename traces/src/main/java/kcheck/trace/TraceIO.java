package kcheck.trace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** Reads and writes traces as JSON, validating what it reads. */
public final class TraceIO {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private TraceIO() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static String toJson(Trace t) {
        try {
            return MAPPER.writeValueAsString(t);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void write(Trace t, Path file) throws IOException {
        Files.writeString(file, toJson(t) + "\n");
    }

    /**
     * Reads and validates a trace file; {@link TraceFormatException} with one line naming the
     * problem. Bounded ({@link JsonInput}): file size, nesting depth, number and string length.
     */
    public static Trace read(Path file) {
        return validate(file.toString(), JsonInput.read(file, file.toString(), TraceFormatException::new));
    }

    /** Parses and validates trace JSON; {@code where} names the source in messages. */
    public static Trace parse(String where, String text) {
        return validate(where, JsonInput.parse(where, text, TraceFormatException::new));
    }

    private static Trace validate(String where, JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new TraceFormatException(where + ": not a kcheck trace (expected a JSON object)");
        }
        JsonNode f = root.get("format");
        if (f == null || !f.canConvertToInt()) {
            throw new TraceFormatException(where + ": not a kcheck trace (no \"format\" version)");
        }
        if (f.asInt() > Trace.FORMAT) {
            throw new TraceFormatException(where + ": trace format " + f.asInt() + " is newer than this kcheck reads ("
                    + Trace.FORMAT + "); upgrade kcheck");
        }
        if (f.asInt() < 1) {
            throw new TraceFormatException(where + ": bad trace format version " + f.asInt());
        }
        Trace t;
        try {
            t = MAPPER.treeToValue(root, Trace.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new TraceFormatException(where + ": bad field: " + firstLine(e.getMessage()));
        }
        check(where, t);
        return t;
    }

    private static void check(String where, Trace t) {
        require(where, t.model() != null && !t.model().isBlank(), "missing \"model\"");
        require(where, t.variant() != null, "missing \"variant\"");
        require(where, t.property() != null, "missing \"property\"");
        require(where, t.verdict() != null, "missing \"verdict\"");
        require(where, t.kind() != null, "missing \"kind\"");
        require(where, t.actors() != null && !t.actors().isEmpty(), "missing \"actors\"");
        require(where, t.steps() != null, "missing \"steps\"");
        require(where, t.initial() != null && t.initial().stream().allMatch(TraceIO::validField),
                "missing or bad \"initial\"");
        require(where, t.actors().stream().allMatch(a -> a != null), "null actor name");
        for (int i = 0; i < t.steps().size(); i++) {
            Trace.Step s = t.steps().get(i);
            require(where, s != null, "step " + (i + 1) + " is null");
            require(where, s.index() == i + 1, "step " + (i + 1) + " has index " + s.index());
            require(where, s.actor() >= 0 && s.actor() < t.actors().size(), "step " + (i + 1) + " names actor " + s.actor()
                    + " of " + t.actors().size());
            require(where, s.action() != null && !s.action().isBlank(), "step " + (i + 1) + " has no action");
            require(where, s.changes() != null && s.changes().stream().allMatch(TraceIO::validField),
                    "step " + (i + 1) + " has no valid \"changes\" list");
            require(where, validLocks(s.locks(), t.actors().size()), "step " + (i + 1) + " has a bad \"locks\" list");
        }
        require(where, validLocks(t.initialLocks(), t.actors().size()), "bad \"initialLocks\"");
        require(where, t.legend() == null || t.legend().stream().allMatch(l -> l != null), "null line in \"legend\"");
        require(where, t.violationStep() >= 0 && t.violationStep() <= t.steps().size(),
                "violationStep " + t.violationStep() + " outside 0.." + t.steps().size());
        if (t.loopStart() != null) {
            require(where, t.loopStart() >= 0 && t.loopStart() < t.steps().size(), "loopStart outside the steps");
        }
    }

    private static boolean validLocks(java.util.List<Trace.Lock> locks, int actors) {
        if (locks == null) {
            return true;
        }
        for (Trace.Lock l : locks) {
            if (l == null || l.name() == null || l.holders() == null || l.waiters() == null) {
                return false;
            }
            for (java.util.List<Integer> as : java.util.List.of(l.holders(), l.waiters())) {
                for (Integer a : as) {
                    if (a == null || a < 0 || a >= actors) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static boolean validField(Trace.Field f) {
        return f != null && f.name() != null && f.value() != null;
    }

    private static void require(String where, boolean ok, String what) {
        if (!ok) {
            throw new TraceFormatException(where + ": " + what);
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }
}
