package kcheck.conform;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The texts recorded-program equivalence compares: a path's operations, {@code "op ; op ; ... ; outcome"}, one from the
 * C and one from the port, and where they part.
 */
final class OpText {
    private OpText() {
    }

    /** The operations of a text. */
    static List<String> ops(String text) {
        return List.of(text.split(" ; "));
    }

    /** The index (from 0) of the first operation that differs (the shorter list's size if one is a prefix of the other). */
    static int firstDifference(List<String> c, List<String> port) {
        int at = 0;
        while (at < c.size() && at < port.size() && c.get(at).equals(port.get(at))) {
            at++;
        }
        return at;
    }

    /** As above, of two texts. */
    static int firstDifference(String c, String port) {
        return firstDifference(ops(c), ops(port));
    }

    /**
     * Both texts side by side, columns {@code width} wide, with the C's location of each operation, the first difference
     * starred; returns its index.
     */
    static int sideBySide(PrintStream out, String c, String port, List<String> where, int width) {
        List<String> co = ops(c);
        List<String> jo = ops(port);
        int at = firstDifference(co, jo);
        String row = "  %2d %s %-" + width + "s %-" + width + "s %s";
        out.println(String.format(Locale.ROOT, "       %-" + width + "s %-" + width + "s %s", "C (the tree)", "Java (v6.12 port)", "C at"));
        for (int i = 0; i < Math.max(co.size(), jo.size()); i++) {
            out.println(String.format(Locale.ROOT, row, i + 1, i == at ? "*" : " ", i < co.size() ? co.get(i) : "-",
                    i < jo.size() ? jo.get(i) : "-", i < where.size() ? where.get(i) : ""));
        }
        return at;
    }
}
