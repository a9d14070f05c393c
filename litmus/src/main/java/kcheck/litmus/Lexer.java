package kcheck.litmus;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a litmus file (after its first line, {@code C name}) into tokens with their line numbers. Comments
 * are C's {@code //} and {@code /* *}{@code /}, and herd's {@code (* *)} outside braces, or inside one
 * level of them when a blank follows {@code (*} (in the initial state; in a thread's body {@code (*p)}
 * is C).
 */
final class Lexer {

    /** One token: an identifier, a number, or punctuation. */
    record Token(Kind kind, String text, int line) {
        boolean is(String s) {
            return kind != Kind.EOF && text.equals(s);
        }
    }

    enum Kind { IDENT, NUMBER, PUNCT, EOF }

    private static final String[] MULTI = {"/\\", "\\/", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "->", "<>", "=>"};

    private final String file;
    private final String src;
    private int pos;
    private int line;
    private int depth;

    private Lexer(String file, String src, int firstLine) {
        this.file = file;
        this.src = src;
        this.line = firstLine;
    }

    static List<Token> tokens(String file, String src, int firstLine) {
        return new Lexer(file, src, firstLine).all();
    }

    private List<Token> all() {
        List<Token> out = new ArrayList<>();
        while (true) {
            skipSpaceAndComments();
            if (pos >= src.length()) {
                out.add(new Token(Kind.EOF, "end of file", line));
                return out;
            }
            char c = src.charAt(pos);
            int start = pos;
            if (Character.isLetter(c) || c == '_') {
                while (pos < src.length() && (Character.isLetterOrDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
                    pos++;
                }
                out.add(new Token(Kind.IDENT, src.substring(start, pos), line));
            } else if (Character.isDigit(c)) {
                while (pos < src.length() && (Character.isLetterOrDigit(src.charAt(pos)))) {
                    pos++;
                }
                out.add(new Token(Kind.NUMBER, src.substring(start, pos), line));
            } else {
                String p = String.valueOf(c);
                for (String m : MULTI) {
                    if (src.startsWith(m, pos)) {
                        p = m;
                        break;
                    }
                }
                pos += p.length();
                if (p.equals("{")) {
                    depth++;
                } else if (p.equals("}")) {
                    depth--;
                }
                out.add(new Token(Kind.PUNCT, p, line));
            }
        }
    }

    private void skipSpaceAndComments() {
        while (pos < src.length()) {
            char c = src.charAt(pos);
            if (c == '\n') {
                line++;
                pos++;
            } else if (Character.isWhitespace(c)) {
                pos++;
            } else if (src.startsWith("//", pos)) {
                while (pos < src.length() && src.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (src.startsWith("/*", pos)) {
                skipUntil("*/");
            } else if (src.startsWith("(*", pos) && (depth == 0 || depth == 1 && spaceAfterOpening())) {
                skipUntil("*)");
            } else {
                return;
            }
        }
    }

    /** {@code (* } with a blank after it: herd's comment, even in the initial state's braces. */
    private boolean spaceAfterOpening() {
        return pos + 2 < src.length() && Character.isWhitespace(src.charAt(pos + 2));
    }

    private void skipUntil(String end) {
        int startLine = line;
        int close = src.indexOf(end, pos + 2);
        if (close < 0) {
            throw LitmusException.at(file, startLine, "unterminated comment");
        }
        for (int i = pos; i < close; i++) {
            if (src.charAt(i) == '\n') {
                line++;
            }
        }
        pos = close + end.length();
    }
}
