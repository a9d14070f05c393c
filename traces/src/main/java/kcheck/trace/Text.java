package kcheck.trace;

import java.util.ArrayList;
import java.util.List;

/** Line wrapping shared by the text renderers (and the command line's mail report). */
public final class Text {
    private Text() {
    }

    /**
     * Splits {@code s} into lines of at most {@code width} characters, at spaces where possible
     * (a word longer than a line is cut); lines after the first start with {@code indent}.
     */
    public static List<String> wrap(String s, int width, String indent) {
        List<String> out = lines(s, width, "", indent);
        if (out.isEmpty()) {
            out.add("");
        }
        return out;
    }

    /**
     * Appends {@code text} as a paragraph of lines of at most {@code width} characters: the first
     * line starts with {@code first}, the others with {@code rest}. Nothing for empty text.
     */
    public static void para(StringBuilder out, String text, int width, String first, String rest) {
        for (String l : lines(text, width, first, rest)) {
            out.append(rstrip(l)).append('\n');
        }
    }

    private static List<String> lines(String text, int width, String first, String rest) {
        List<String> out = new ArrayList<>();
        String r = text;
        boolean isFirst = true;
        while (!r.isEmpty()) {
            String prefix = isFirst ? first : rest;
            int room = Math.max(1, width - prefix.length());
            if (r.length() <= room) {
                out.add(prefix + r);
                break;
            }
            int cut = r.lastIndexOf(' ', room);
            if (cut <= room / 3) {
                cut = room;
            }
            out.add(prefix + r.substring(0, cut));
            r = r.substring(cut).stripLeading();
            isFirst = false;
        }
        return out;
    }

    static String rstrip(String s) {
        int e = s.length();
        while (e > 0 && s.charAt(e - 1) == ' ') {
            e--;
        }
        return s.substring(0, e);
    }
}
