package kcheck.trace;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Function;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Bounded reading of the JSON files users give kcheck (traces, baselines): a file-size cap, then
 * Jackson's {@link StreamReadConstraints} on nesting depth, number length and string length, so
 * that a hostile or broken file is refused with one line instead of exhausting the stack or the
 * heap. A UTF-16/UTF-32 byte-order mark and binary data get a line saying what the file is; a
 * UTF-8 byte-order mark is skipped (RFC 8259 lets a reader ignore it). A key given twice in one
 * object is refused (RFC 8259 leaves its meaning open), naming the key and where it is.
 */
public final class JsonInput {
    /** Largest file read: a 10,000-step trace with full states is a few MB. */
    public static final long MAX_BYTES = 32L << 20;
    /** Deepest nesting: traces and baselines are at most 5 levels deep. */
    public static final int MAX_DEPTH = 64;
    /** Longest number, in characters: traces hold ints and 64-bit seeds. */
    public static final int MAX_NUMBER_LENGTH = 24;
    /** Longest string, in characters (a field value, a message). */
    public static final int MAX_STRING_LENGTH = 1 << 20;

    private static final ObjectMapper READER = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).maxNumberLength(MAX_NUMBER_LENGTH)
                    .maxStringLength(MAX_STRING_LENGTH).maxNameLength(4096).maxDocumentLength(MAX_BYTES).build())
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build());

    private JsonInput() {
    }

    /**
     * Reads {@code file} as JSON; every problem is {@code error.apply(one line)}, the line starting
     * with {@code where} (how messages name the file).
     */
    public static JsonNode read(Path file, String where, Function<String, ? extends RuntimeException> error) {
        byte[] bytes;
        try {
            if (Files.isDirectory(file)) {
                throw error.apply(where + ": is a directory, not a JSON file");
            }
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw error.apply(where + ": " + mb(size) + ", larger than the " + mb(MAX_BYTES) + " kcheck reads");
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw error.apply(where + ": not found");
        } catch (AccessDeniedException e) {
            throw error.apply(where + ": not readable (permission denied)");
        } catch (IOException | SecurityException e) {
            throw error.apply(where + ": cannot read (" + e.getMessage() + ")");
        }
        return parse(where, bytes, error);
    }

    /** Parses JSON text (as {@link #read}, from memory). */
    public static JsonNode parse(String where, String text, Function<String, ? extends RuntimeException> error) {
        return parse(where, text.getBytes(StandardCharsets.UTF_8), error);
    }

    /** Parses JSON bytes (UTF-8) with the bounds; every problem is one line. */
    public static JsonNode parse(String where, byte[] bytes, Function<String, ? extends RuntimeException> error) {
        if (bytes.length > MAX_BYTES) {
            throw error.apply(where + ": " + mb(bytes.length) + ", larger than the " + mb(MAX_BYTES) + " kcheck reads");
        }
        String bom = bom(bytes);
        if (bom != null) {
            throw error.apply(where + ": the file is " + bom + " (it starts with a byte-order mark): kcheck reads UTF-8 JSON; "
                    + "convert it, e.g. iconv -f " + bom + " -t UTF-8");
        }
        int start = bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF ? 3 : 0;
        int binary = binaryAt(bytes, start);
        if (binary >= 0) {
            throw error.apply(where + ": not a JSON text file (binary data at byte " + binary + ")");
        }
        try {
            return READER.readTree(bytes, start, bytes.length - start);
        } catch (StreamConstraintsException e) {
            throw error.apply(where + ": " + constraint(e));
        } catch (JsonProcessingException e) {
            String m = e.getOriginalMessage();
            if (m != null && m.startsWith("Duplicate field '") && e.getProcessor() instanceof com.fasterxml.jackson.core.JsonParser p) {
                throw error.apply(where + ": the key \"" + p.getParsingContext().getCurrentName() + "\" appears twice in "
                        + container(p.getParsingContext()) + at(e.getLocation()) + ": kcheck does not guess which one is meant");
            }
            boolean truncated = m != null && (m.contains("end-of-input") || m.contains("Unexpected end"));
            throw error.apply(where + ": " + (truncated ? "truncated JSON" : "malformed JSON") + at(e.getLocation()));
        } catch (IOException e) {
            throw error.apply(where + ": cannot parse (" + e.getMessage() + ")");
        }
    }

    /** The object holding a key, for messages: the top-level object, or e.g. {@code "entries" item 2} (items count from 1). */
    private static String container(com.fasterxml.jackson.core.JsonStreamContext object) {
        java.util.List<String> parts = new java.util.ArrayList<>();
        for (var c = object.getParent(); c != null && !c.inRoot(); c = c.getParent()) {
            parts.add(0, c.inArray() ? "item " + (c.getCurrentIndex() + 1) : "\"" + c.getCurrentName() + "\"");
        }
        return parts.isEmpty() ? "the top-level object" : String.join(" ", parts);
    }

    private static String constraint(StreamConstraintsException e) {
        String m = String.valueOf(e.getOriginalMessage());
        String what;
        if (m.contains("nesting depth")) {
            what = "nested deeper than " + MAX_DEPTH + " levels";
        } else if (m.contains("Number value length") || m.contains("number value length")) {
            what = "a number longer than " + MAX_NUMBER_LENGTH + " characters";
        } else if (m.contains("String value length") || m.contains("string value length")) {
            what = "a string longer than " + String.format(Locale.ROOT, "%,d", MAX_STRING_LENGTH) + " characters";
        } else if (m.contains("Name length") || m.contains("name length")) {
            what = "a field name longer than 4,096 characters";
        } else if (m.contains("Document length") || m.contains("document length")) {
            what = "larger than the " + mb(MAX_BYTES) + " kcheck reads";
        } else {
            int nl = m.indexOf('\n');
            what = "beyond the reader's bounds (" + (nl < 0 ? m : m.substring(0, nl)) + ")";
        }
        return what + ", which no kcheck file has" + at(e.getLocation());
    }

    private static String at(JsonLocation loc) {
        if (loc == null || loc.getLineNr() < 0) {
            return "";
        }
        return " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    }

    /** The encoding a UTF-16 or UTF-32 byte-order mark names, else null. */
    private static String bom(byte[] b) {
        int n = b.length;
        int b0 = n > 0 ? b[0] & 0xFF : -1;
        int b1 = n > 1 ? b[1] & 0xFF : -1;
        int b2 = n > 2 ? b[2] & 0xFF : -1;
        int b3 = n > 3 ? b[3] & 0xFF : -1;
        if (b0 == 0x00 && b1 == 0x00 && b2 == 0xFE && b3 == 0xFF) {
            return "UTF-32BE";
        }
        if (b0 == 0xFF && b1 == 0xFE && b2 == 0x00 && b3 == 0x00) {
            return "UTF-32LE";
        }
        if (b0 == 0xFE && b1 == 0xFF) {
            return "UTF-16BE";
        }
        if (b0 == 0xFF && b1 == 0xFE) {
            return "UTF-16LE";
        }
        return null;
    }

    /** The offset of a NUL byte, other control byte JSON never holds, or invalid UTF-8; -1 if none. */
    private static int binaryAt(byte[] b, int start) {
        for (int i = start; i < b.length; i++) {
            int c = b[i] & 0xFF;
            if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') {
                return i;
            }
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b, start, b.length - start));
            return -1;
        } catch (CharacterCodingException e) {
            ByteBuffer bb = ByteBuffer.wrap(b, start, b.length - start);
            var dec = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT);
            var out = java.nio.CharBuffer.allocate(b.length);
            var r = dec.decode(bb, out, true);
            return r.isError() ? bb.position() : start;
        }
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / (double) (1L << 20));
    }
}
