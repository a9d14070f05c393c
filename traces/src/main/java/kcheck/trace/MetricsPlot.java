package kcheck.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One metric as an SVG bar chart (inline, no scripts): a group of bars per component (CPU, task
 * or counter), one bar per series (variant), the value on each bar; a saturated value is hatched
 * and labelled {@code ≥ k}, a bound is drawn as a red line.
 */
public final class MetricsPlot {
    /** One series: a variant's maxima per component ({@link Long#MIN_VALUE}: not measured). */
    public record Series(String name, long[] values) {
    }

    private static final String[] COLORS = {"#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f"};

    private MetricsPlot() {
    }

    /**
     * The chart. {@code saturation}: the value a counter stops at ({@link Long#MAX_VALUE}: none);
     * {@code bound}: the largest allowed value ({@link Long#MAX_VALUE}: none).
     */
    public static String svg(String title, List<String> components, List<Series> series, long saturation, long bound) {
        long top = 1;
        for (Series s : series) {
            for (long v : s.values()) {
                top = Math.max(top, v);
            }
        }
        if (bound != Long.MAX_VALUE) {
            top = Math.max(top, bound);
        }
        int bar = 26;
        int gap = 18;
        int groupW = series.size() * bar + gap;
        int left = 40;
        int plotH = 160;
        int topPad = 34;
        int width = Math.max(320, left + components.size() * groupW + 20);
        int legendY = topPad + plotH + 58;
        int height = legendY + 18 * ((series.size() + 2) / 3) + 10;
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"metric-plot\" width=\"%d\" "
                + "height=\"%d\" font-family=\"system-ui, sans-serif\" font-size=\"11\">%n", width, height));
        b.append("<defs><pattern id=\"sat\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
                + "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fff\"/>"
                + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#555\" stroke-width=\"3\"/></pattern></defs>\n");
        b.append("<text x=\"4\" y=\"16\" font-size=\"13\" font-weight=\"600\">").append(esc(title)).append("</text>\n");
        int base = topPad + plotH;
        b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>%n", left, base,
                width - 10, base));
        for (long tick : ticks(top)) {
            int y = base - (int) Math.round(plotH * tick / (double) top);
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#777\">%d</text>"
                    + "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eee\"/>%n", left - 4, y + 4, tick, left, y, width - 10, y));
        }
        if (bound != Long.MAX_VALUE) {
            int y = base - (int) Math.round(plotH * bound / (double) top);
            b.append(String.format(Locale.ROOT, "<line class=\"bound\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#c62828\" "
                    + "stroke-dasharray=\"5,3\"/><text x=\"%d\" y=\"%d\" fill=\"#c62828\" text-anchor=\"end\">bound %d</text>%n",
                    left, y, width - 10, y, width - 12, y - 3, bound));
        }
        for (int c = 0; c < components.size(); c++) {
            int gx = left + gap / 2 + c * groupW;
            for (int s = 0; s < series.size(); s++) {
                long v = series.get(s).values()[c];
                int x = gx + s * bar;
                String col = COLORS[s % COLORS.length];
                if (v == Long.MIN_VALUE) {
                    b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#999\">-</text>%n",
                            x + bar / 2, base - 4));
                    continue;
                }
                boolean sat = v >= saturation;
                int h = (int) Math.round(plotH * Math.max(0, v) / (double) top);
                b.append(String.format(Locale.ROOT, "<rect class=\"bar\" data-series=\"%s\" data-component=\"%s\" data-value=\"%d\" "
                        + "x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"%s\"/>%n", esc(series.get(s).name()),
                        esc(components.get(c)), v, x + 2, base - h, bar - 4, Math.max(h, 1), sat ? "url(#sat)" : col, col));
                b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x + bar / 2,
                        base - h - 4, (sat ? "\u2265" : "") + v));
            }
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    gx + series.size() * bar / 2, base + 16, esc(components.get(c))));
        }
        for (int s = 0; s < series.size(); s++) {
            int x = 10 + (s % 3) * 160;
            int y = legendY + 18 * (s / 3);
            b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\">%s</text>%n", x, y - 10, COLORS[s % COLORS.length], x + 16, y, esc(series.get(s).name())));
        }
        if (saturation != Long.MAX_VALUE) {
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#555\">hatched: \u2265 %d (saturated: unbounded in "
                    + "this model)</text>%n", 10, legendY - 20, saturation));
        }
        b.append("</svg>\n");
        return b.toString();
    }

    private static List<Long> ticks(long top) {
        long step = 1;
        while (top / step > 5) {
            step = step == 1 ? 2 : step == 2 ? 5 : step * 2;
        }
        List<Long> out = new ArrayList<>();
        for (long v = 0; v <= top; v += step) {
            out.add(v);
        }
        return out;
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
