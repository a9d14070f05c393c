package kcheck.conform;

import java.util.ArrayList;
import java.util.List;

/**
 * The function definitions of one C file, found by parsing rather than by signature text: the file
 * is tokenized (comments, string and character literals, line continuations and preprocessor lines
 * set apart), and a definition is a name at file scope followed by a balanced parameter list, any
 * number of annotations ({@code __releases(x)}, {@code __attribute__((...))}, ...) and a
 * {@code {}. A declaration (ending in {@code ;}) is not one. Each definition carries the
 * preprocessor conditions it sits under ({@code #ifdef CONFIG_PREEMPTION} ... {@code #else}), so a
 * function with one body per configuration yields each body with its condition; its parameter names,
 * layout and comments do not matter.
 *
 * <p>{@link Definition#text()} is the definition as written (from the start of its first line to
 * its closing brace, comments and directives inside it included); {@link Definition#emit} wraps it
 * in its conditions and a {@code #line} directive, so that the compiler, {@code __LINE__} and
 * addr2line cite the tree's file and line.
 */
public final class CFunctions {

    /** One definition of a function. */
    public record Definition(String name, String file, int line, String text, List<String> conditions) {
        /**
         * The definition for compiling elsewhere: {@code #if} for each enclosing condition,
         * {@code #line}, the text, and the matching {@code #endif}s.
         */
        public String emit() {
            StringBuilder b = new StringBuilder();
            for (String c : conditions) {
                b.append("#if ").append(c).append('\n');
            }
            b.append("#line ").append(line).append(" \"").append(file).append("\"\n");
            b.append(text).append('\n');
            for (int i = 0; i < conditions.size(); i++) {
                b.append("#endif\n");
            }
            return b.toString();
        }
    }

    /** A function the file does not define (or defines in a way the parser does not recognise). */
    public static final class NotFoundException extends Exception {
        private static final long serialVersionUID = 1L;

        public NotFoundException(String message) {
            super(message);
        }
    }

    private enum T { IDENT, PUNCT, DIRECTIVE, OTHER }

    private record Token(T kind, String text, int start, int line) {
    }

    /** One level of #if nesting: the conditions of the branches before this one, and this one's. */
    private static final class Cond {
        final List<String> earlier = new ArrayList<>();
        String current;

        String expression() {
            StringBuilder b = new StringBuilder();
            for (String e : earlier) {
                b.append(b.length() == 0 ? "" : " && ").append("!(").append(e).append(')');
            }
            if (current != null) {
                b.append(b.length() == 0 ? "" : " && ").append('(').append(current).append(')');
            }
            return b.length() == 0 ? "1" : b.toString();
        }
    }

    private final String file;
    private final String src;
    private final List<Token> tokens = new ArrayList<>();
    /** For each token, the conditions it sits under (shared lists; a new list at every directive). */
    private final List<List<String>> conditionsAt = new ArrayList<>();

    private CFunctions(String file, String src) {
        this.file = file;
        this.src = src;
        tokenize();
    }

    /** Parses {@code src}; {@code file} is the name definitions cite (e.g. kernel/sched/sched.h). */
    public static CFunctions parse(String file, String src) {
        return new CFunctions(file, src);
    }

    /** Every definition of {@code name}, in file order. */
    public List<Definition> definitions(String name) {
        List<Definition> out = new ArrayList<>();
        int depth = 0;
        int parens = 0;
        int declStart = 0;
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.kind == T.DIRECTIVE) {
                if (depth == 0 && parens == 0) {
                    declStart = i + 1;
                }
                continue;
            }
            if (t.kind == T.PUNCT) {
                switch (t.text) {
                    case "{" -> depth++;
                    case "}" -> {
                        depth--;
                        if (depth == 0 && parens == 0) {
                            declStart = i + 1;
                        }
                    }
                    case "(" -> parens++;
                    case ")" -> parens--;
                    case ";" -> {
                        if (depth == 0 && parens == 0) {
                            declStart = i + 1;
                        }
                    }
                    default -> {
                    }
                }
                continue;
            }
            if (depth != 0 || parens != 0 || t.kind != T.IDENT || !t.text.equals(name)) {
                continue;
            }
            int open = next(i);
            if (open < 0 || !tokens.get(open).text.equals("(")) {
                continue;
            }
            int body = bodyAfterParameters(open);
            if (body < 0) {
                continue;
            }
            int close = matching(body);
            if (close < 0) {
                continue;
            }
            Token first = tokens.get(declStart);
            int lineStart = src.lastIndexOf('\n', first.start) + 1;
            Token end = tokens.get(close);
            out.add(new Definition(name, file, first.line, src.substring(lineStart, end.start + 1), conditionsAt.get(declStart)));
        }
        return out;
    }

    /** Like {@link #definitions}, but at least one is required. */
    public List<Definition> require(String name) throws NotFoundException {
        List<Definition> d = definitions(name);
        if (d.isEmpty()) {
            throw new NotFoundException(file + " has no definition of " + name + "()");
        }
        return d;
    }

    /**
     * The definition of {@code kind tag} ({@code struct lb_env}, {@code enum migration_type}) at file scope: from the
     * start of its line to the {@code ;} after its body, with the conditions it sits under.
     */
    public Definition typeDefinition(String kind, String tag) throws NotFoundException {
        int depth = 0;
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.kind == T.PUNCT && t.text.equals("{")) {
                depth++;
            } else if (t.kind == T.PUNCT && t.text.equals("}")) {
                depth--;
            }
            if (depth != 0 || t.kind != T.IDENT || !t.text.equals(kind)) {
                continue;
            }
            int name = next(i);
            int open = name < 0 ? -1 : next(name);
            if (open < 0 || !tokens.get(name).text.equals(tag) || !tokens.get(open).text.equals("{")) {
                continue;
            }
            int close = matching(open);
            int semi = close < 0 ? -1 : next(close);
            if (semi < 0 || !tokens.get(semi).text.equals(";")) {
                continue;
            }
            int lineStart = src.lastIndexOf('\n', t.start) + 1;
            return new Definition(kind + " " + tag, file, t.line, src.substring(lineStart, tokens.get(semi).start + 1), conditionsAt.get(i));
        }
        throw new NotFoundException(file + " has no definition of " + kind + " " + tag);
    }

    /** The {@code #define} of {@code name} (its directive, continuation lines joined), with the conditions it sits under. */
    public Definition macro(String name) throws NotFoundException {
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.kind != T.DIRECTIVE) {
                continue;
            }
            String d = t.text.substring(1).strip();
            if (!d.startsWith("define")) {
                continue;
            }
            String rest = d.substring(6).strip();
            if (rest.equals(name) || rest.startsWith(name + " ") || rest.startsWith(name + "\t") || rest.startsWith(name + "(")) {
                int line = src.substring(0, t.start).split("\n", -1).length;
                return new Definition(name, file, line, "#define " + rest, conditionsAt.get(i));
            }
        }
        throw new NotFoundException(file + " has no #define of " + name);
    }

    /** The next non-directive token after {@code i}, or -1. */
    private int next(int i) {
        for (int j = i + 1; j < tokens.size(); j++) {
            if (tokens.get(j).kind != T.DIRECTIVE) {
                return j;
            }
        }
        return -1;
    }

    /** The index of the matching ')' or '}' of the bracket at {@code open}, or -1. */
    private int matching(int open) {
        String o = tokens.get(open).text;
        String c = o.equals("(") ? ")" : "}";
        int d = 0;
        for (int j = open; j < tokens.size(); j++) {
            String s = tokens.get(j).text;
            if (tokens.get(j).kind != T.PUNCT) {
                continue;
            }
            if (s.equals(o)) {
                d++;
            } else if (s.equals(c) && --d == 0) {
                return j;
            }
        }
        return -1;
    }

    /**
     * After the parameter list at {@code open}: skips annotations (a name, optionally with a
     * balanced argument list) and returns the index of the body's '{', or -1 if this is not a
     * definition.
     */
    private int bodyAfterParameters(int open) {
        int j = matching(open);
        if (j < 0) {
            return -1;
        }
        while (true) {
            j = next(j);
            if (j < 0) {
                return -1;
            }
            Token t = tokens.get(j);
            if (t.kind == T.PUNCT && t.text.equals("{")) {
                return j;
            }
            if (t.kind != T.IDENT) {
                return -1;
            }
            int k = next(j);
            if (k >= 0 && tokens.get(k).text.equals("(")) {
                j = matching(k);
                if (j < 0) {
                    return -1;
                }
            }
        }
    }

    private void tokenize() {
        List<Cond> stack = new ArrayList<>();
        List<String> current = List.of();
        int line = 1;
        int i = 0;
        boolean lineStart = true;
        int n = src.length();
        while (i < n) {
            char c = src.charAt(i);
            if (c == '\n') {
                line++;
                i++;
                lineStart = true;
                continue;
            }
            if (c == '\\' && i + 1 < n && src.charAt(i + 1) == '\n') {
                line++;
                i += 2;
                continue;
            }
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (c == '/' && i + 1 < n && src.charAt(i + 1) == '*') {
                int e = src.indexOf("*/", i + 2);
                e = e < 0 ? n : e + 2;
                line += count(i, e);
                i = e;
                continue;
            }
            if (c == '/' && i + 1 < n && src.charAt(i + 1) == '/') {
                while (i < n && src.charAt(i) != '\n') {
                    i++;
                }
                continue;
            }
            if (c == '#' && lineStart) {
                int s = i;
                StringBuilder text = new StringBuilder();
                while (i < n && src.charAt(i) != '\n') {
                    if (src.charAt(i) == '\\' && i + 1 < n && src.charAt(i + 1) == '\n') {
                        text.append(' ');
                        line++;
                        i += 2;
                        continue;
                    }
                    if (src.charAt(i) == '/' && i + 1 < n && src.charAt(i + 1) == '*') {
                        int e = src.indexOf("*/", i + 2);
                        e = e < 0 ? n : e + 2;
                        line += count(i, e);
                        text.append(' ');
                        i = e;
                        continue;
                    }
                    if (src.charAt(i) == '/' && i + 1 < n && src.charAt(i + 1) == '/') {
                        while (i < n && src.charAt(i) != '\n') {
                            i++;
                        }
                        break;
                    }
                    text.append(src.charAt(i++));
                }
                String d = text.toString().substring(1).strip();
                current = directive(d, stack, current);
                add(T.DIRECTIVE, "#" + d, s, line, current);
                continue;
            }
            lineStart = false;
            int s = i;
            if (Character.isJavaIdentifierStart(c)) {
                while (i < n && Character.isJavaIdentifierPart(src.charAt(i))) {
                    i++;
                }
                add(T.IDENT, src.substring(s, i), s, line, current);
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < n && src.charAt(i) != c) {
                    if (src.charAt(i) == '\\') {
                        i++;
                    }
                    i++;
                }
                i = Math.min(n, i + 1);
                add(T.OTHER, src.substring(s, i), s, line, current);
            } else if (Character.isDigit(c)) {
                while (i < n && (Character.isLetterOrDigit(src.charAt(i)) || src.charAt(i) == '.')) {
                    i++;
                }
                add(T.OTHER, src.substring(s, i), s, line, current);
            } else {
                i++;
                add(T.PUNCT, String.valueOf(c), s, line, current);
            }
        }
    }

    private int count(int from, int to) {
        int k = 0;
        for (int j = from; j < to; j++) {
            if (src.charAt(j) == '\n') {
                k++;
            }
        }
        return k;
    }

    private void add(T kind, String text, int start, int line, List<String> conditions) {
        tokens.add(new Token(kind, text, start, line));
        conditionsAt.add(conditions);
    }

    /** Updates the #if stack for directive {@code d}; returns the conditions in force after it. */
    private static List<String> directive(String d, List<Cond> stack, List<String> current) {
        String word = d.split("[\\s(]", 2)[0];
        String rest = d.substring(word.length()).strip();
        switch (word) {
            case "if" -> push(stack, rest);
            case "ifdef" -> push(stack, "defined(" + rest + ")");
            case "ifndef" -> push(stack, "!defined(" + rest + ")");
            case "elif" -> {
                if (!stack.isEmpty()) {
                    Cond top = stack.get(stack.size() - 1);
                    top.earlier.add(top.current);
                    top.current = rest;
                }
            }
            case "else" -> {
                if (!stack.isEmpty()) {
                    Cond top = stack.get(stack.size() - 1);
                    top.earlier.add(top.current);
                    top.current = null;
                }
            }
            case "endif" -> {
                if (!stack.isEmpty()) {
                    stack.remove(stack.size() - 1);
                }
            }
            default -> {
                return current;
            }
        }
        List<String> out = new ArrayList<>();
        for (Cond c : stack) {
            out.add(c.expression());
        }
        return List.copyOf(out);
    }

    private static void push(List<Cond> stack, String condition) {
        Cond c = new Cond();
        c.current = condition;
        stack.add(c);
    }
}
