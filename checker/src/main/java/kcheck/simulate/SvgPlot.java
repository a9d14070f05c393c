package kcheck.simulate;

import java.util.List;
import java.util.Locale;

/**
 * A small, dependency-free SVG line chart: categories on x, one or more panels (a y axis each)
 * of series with 95% confidence bars. Self-contained (no scripts, no external fonts), so it renders in a browser,
 * on GitHub and in a mail client that shows SVG.
 */
final class SvgPlot {
    private static final int W = 760;
    private static final int LEFT = 78;
    private static final int RIGHT = 200;

    /** One line: y per category, with its interval (NaN: none). */
    record Series(String name, String color, boolean dashed, double[] y, double[] lo, double[] hi) {
    }

    private SvgPlot() {
    }

    /** One chart: a y axis and its series. */
    record Panel(String yLabel, List<Series> series) {
    }

    /** Panels stacked vertically, sharing the x categories (and the legend of the first panel's series names). */
    static String render(String title, List<String> subtitle, String xLabel, List<String> xs, List<Panel> panels) {
        int head = 40 + 14 * subtitle.size();
        int panelH = 250;
        int h = head + panels.size() * panelH + 30;
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">%n", W, h, W, h));
        b.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", W, h));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>%n", LEFT, esc(title)));
        for (int i = 0; i < subtitle.size(); i++) {
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#555\" font-size=\"11\">%s</text>%n", LEFT, 38 + 14 * i,
                    esc(subtitle.get(i))));
        }
        for (int p = 0; p < panels.size(); p++) {
            int top = head + p * panelH + 10;
            panel(b, top, panelH - 50, xs, panels.get(p), p == panels.size() - 1 ? xLabel : null);
        }
        b.append("</svg>\n");
        return b.toString();
    }

    private static void panel(StringBuilder b, int top, int ph, List<String> xs, Panel panel, String xLabel) {
        List<Series> series = panel.series();
        double max = 0;
        for (Series s : series) {
            for (int i = 0; i < xs.size(); i++) {
                max = Math.max(max, finite(s.y[i]));
                max = Math.max(max, finite(s.hi[i]));
            }
        }
        double step = niceStep(max <= 0 ? 1 : max * 1.08 / 5);
        double ymax = Math.max(step, Math.ceil(max * 1.08 / step) * step);
        int pw = W - LEFT - RIGHT;
        for (double v = 0; v <= ymax + step / 2; v += step) {
            double y = top + ph - v / ymax * ph;
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>%n", LEFT, y, LEFT + pw, y));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT - 6, y + 4, esc(tick(v, step))));
        }
        b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n", LEFT, top, LEFT, top + ph));
        b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n", LEFT, top + ph, LEFT + pw, top + ph));
        int n = xs.size();
        double dx = (double) pw / n;
        for (int i = 0; i < n; i++) {
            double x = LEFT + dx * (i + 0.5);
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x, top + ph + 16, esc(xs.get(i))));
        }
        if (xLabel != null) {
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", LEFT + pw / 2.0, top + ph + 34,
                    esc(xLabel)));
        }
        b.append(String.format(Locale.ROOT, "<text transform=\"translate(18 %.1f) rotate(-90)\" text-anchor=\"middle\">%s</text>%n",
                top + ph / 2.0, esc(panel.yLabel())));
        int si = 0;
        for (Series s : series) {
            double off = series.size() == 1 ? 0 : (si - (series.size() - 1) / 2.0) * Math.min(6, dx / (2.0 * series.size()));
            String dash = s.dashed ? " stroke-dasharray=\"6 4\"" : "";
            StringBuilder path = new StringBuilder();
            for (int i = 0; i < n; i++) {
                if (Double.isNaN(s.y[i])) {
                    continue;
                }
                double x = LEFT + dx * (i + 0.5) + off;
                double y = top + ph - s.y[i] / ymax * ph;
                path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
            }
            if (path.length() > 0) {
                b.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>%n", path, s.color, dash));
            }
            for (int i = 0; i < n; i++) {
                if (Double.isNaN(s.y[i])) {
                    continue;
                }
                double x = LEFT + dx * (i + 0.5) + off;
                double y = top + ph - s.y[i] / ymax * ph;
                if (!Double.isNaN(s.lo[i]) && !Double.isNaN(s.hi[i])) {
                    double y1 = top + ph - Math.max(0, s.lo[i]) / ymax * ph;
                    double y2 = top + ph - s.hi[i] / ymax * ph;
                    b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n", x, y1, x, y2, s.color));
                    b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n", x - 4, y1, x + 4, y1, s.color));
                    b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n", x - 4, y2, x + 4, y2, s.color));
                }
                if (s.dashed) {
                    b.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\" fill=\"white\" stroke=\"%s\" stroke-width=\"2\"/>%n",
                            x - 3.5, y - 3.5, s.color));
                } else {
                    b.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>%n", x, y, s.color));
                }
            }
            int ly = top + 10 + 20 * si;
            int lx = LEFT + pw + 16;
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>%n", lx, ly, lx + 26, ly,
                    s.color, dash));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", lx + 32, ly + 4, esc(s.name)));
            si++;
        }
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#555\" font-size=\"11\">bars: 95%% confidence</text>%n",
                LEFT + pw + 16, top + 10 + 20 * si + 6));
    }

    private static double finite(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? 0 : v;
    }

    static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / p;
        double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
        return nice * p;
    }

    private static String tick(double v, double step) {
        if (step >= 1) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        int d = (int) Math.ceil(-Math.log10(step)) + (step * Math.pow(10, Math.ceil(-Math.log10(step))) % 1 == 0 ? 0 : 1);
        return String.format(Locale.ROOT, "%." + Math.max(1, d) + "f", v);
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
