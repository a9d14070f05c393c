package kcheck.trace;

import java.util.Objects;

/**
 * A trace as plain text to paste under a patch on a mailing list: every line at most
 * {@link #WIDTH} characters, what was checked and the verdict, the steps in compact form (one
 * line each, see {@link CompactRenderer}) with the kernel functions they run, the legend, and
 * the command that reproduces it with the SHA-256 of the variant's source.
 */
public final class MailRenderer {
    /** Columns of a mail body that survives quoting (72 leaves room for "> " prefixes). */
    public static final int WIDTH = 72;

    private MailRenderer() {
    }

    public static String render(Trace t) {
        return head(t, WIDTH) + "\n" + section(t, WIDTH) + tail(t, WIDTH);
    }

    /** What was checked: model, variant, parameters (and variant file). */
    public static String head(Trace t, int width) {
        StringBuilder out = new StringBuilder();
        StringBuilder h = new StringBuilder("kcheck: ").append(t.model()).append(", variant ").append(t.variant());
        if (t.params() != null && !t.params().isEmpty()) {
            StringBuilder p = new StringBuilder();
            t.params().forEach((k, v) -> p.append(p.length() == 0 ? "" : " ").append(k).append('=').append(v));
            h.append(" (").append(p).append(')');
        }
        Text.para(out, h.toString(), width, "", "  ");
        if (t.variantFile() != null) {
            Text.para(out, "variant file: " + Reproduce.variantFilePath(t.variantFile()), width, "", "  ");
        }
        return out.toString();
    }

    /** One property's verdict, message and steps (with their kernel functions). */
    public static String section(Trace t, int width) {
        StringBuilder out = new StringBuilder();
        String what = "WITNESS".equals(t.verdict()) ? "witness of the maximum of " + t.property()
                : t.property() + ": " + t.verdict();
        String where = t.loopStart() != null ? " (lasso: " + t.loopStart() + "-step stem, "
                + (t.steps().size() - t.loopStart()) + "-step cycle)"
                : " (" + t.steps().size() + " steps" + ("VIOLATED".equals(t.verdict()) && t.violationStep() > 0
                ? ", violated at step " + t.violationStep() : "") + ")";
        Text.para(out, what + where, width, "", "  ");
        Text.para(out, Objects.toString(t.message(), ""), width, "  ", "  ");
        out.append('\n');
        out.append(CompactRenderer.steps(t, width));
        return out.toString();
    }

    /** The legend and the reproduce paragraph. */
    public static String tail(Trace t, int width) {
        StringBuilder out = new StringBuilder();
        if (t.legend() != null && !t.legend().isEmpty()) {
            out.append('\n');
            TimelineRenderer.legend(t, out, width);
        }
        out.append('\n').append(Reproduce.text(t, width));
        return out.toString();
    }
}
