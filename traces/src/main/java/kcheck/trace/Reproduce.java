package kcheck.trace;

import java.util.ArrayList;
import java.util.List;

/** The command that reproduces a trace, and the hash of the variant source it was found on. */
public final class Reproduce {
    private Reproduce() {
    }

    /**
     * The {@code kcheck check} command that finds this trace again: model, variant (or variant
     * file), every parameter, the property, and for a random walk its seed. Each element is one
     * option with its value ({@code --param cpus=2}), so wrapping keeps them together.
     */
    public static List<String> command(Trace t) {
        List<String> out = new ArrayList<>();
        out.add("kcheck check " + t.model());
        if (t.variantFile() != null) {
            out.add("--variant-file " + variantFilePath(t.variantFile()));
        } else {
            out.add("--variant " + t.variant());
        }
        if (t.params() != null) {
            t.params().forEach((k, v) -> out.add("--param " + k + "=" + v));
        }
        out.add("--property " + t.property());
        if (t.seed() != null) {
            out.add("--strategy random --seed " + t.seed());
        }
        return out;
    }

    /** The path of a trace's {@code variantFile} ({@code "path (sha256 HEX)"}). */
    static String variantFilePath(String label) {
        int i = label.lastIndexOf(" (sha256 ");
        return i < 0 ? label : label.substring(0, i);
    }

    /** The SHA-256 of the variant's source as the trace records it, or null. */
    public static String sha256(Trace t) {
        if (t.variantSha256() != null) {
            return t.variantSha256();
        }
        if (t.variantFile() != null) {
            int i = t.variantFile().lastIndexOf(" (sha256 ");
            if (i >= 0 && t.variantFile().endsWith(")")) {
                return t.variantFile().substring(i + 9, t.variantFile().length() - 1);
            }
        }
        return null;
    }

    /**
     * The reproduce paragraph: the command wrapped with shell continuations at {@code width}, the
     * variant's SHA-256 and the kcheck version that found it.
     */
    public static String text(Trace t, int width) {
        StringBuilder out = new StringBuilder("reproduce");
        if (t.kcheck() != null) {
            out.append(" (").append(t.kcheck()).append(')');
        }
        out.append(":\n");
        shell(out, command(t), width, "  ", "      ");
        String sha = sha256(t);
        if (sha != null) {
            Text.para(out, "sha256 of the " + (t.variantFile() != null ? "variant file" : "variant's source ("
                    + t.variant() + ")") + ":", width, "  ", "  ");
            out.append("  ").append(sha).append('\n');
        }
        return out.toString();
    }

    /** Appends {@code parts} as one shell command, breaking lines with " \" so none exceeds {@code width}. */
    public static void shell(StringBuilder out, List<String> parts, int width, String first, String rest) {
        StringBuilder line = new StringBuilder(first);
        boolean empty = true;
        for (String p : parts) {
            if (!empty && line.length() + 1 + p.length() + 2 > width) {
                out.append(line).append(" \\\n");
                line = new StringBuilder(rest);
                empty = true;
            }
            line.append(empty ? "" : " ").append(p);
            empty = false;
        }
        out.append(line).append('\n');
    }
}
