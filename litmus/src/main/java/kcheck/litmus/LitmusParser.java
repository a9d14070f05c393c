package kcheck.litmus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import kcheck.litmus.Lexer.Kind;
import kcheck.litmus.Lexer.Token;

/**
 * Reads the C litmus format herd7 reads for the Linux-kernel memory model: {@code C name}, a comment that
 * may carry {@code Result: Never|Sometimes|Always|DEADLOCK [DATARACE]}, the initial state {@code { ... }},
 * threads {@code Pn(params) { C code }}, then {@code locations [...]}, {@code filter (...)} and one of
 * {@code exists}, {@code ~exists}, {@code forall}. Thread bodies are parsed by {@link CodeParser}; errors
 * are {@link LitmusException}s naming the file and line.
 */
public final class LitmusParser {
    private static final Pattern RESULT = Pattern.compile("^[ \\t]*(?:\\(\\*|\\*)?[ \\t]*Result:[ \\t]*(\\S+)(.*)$", Pattern.MULTILINE);
    private static final Pattern THREAD = Pattern.compile("P(\\d+)");

    private final String file;
    private final Cursor in;

    private LitmusParser(String file, List<Token> tokens) {
        this.file = file;
        this.in = new Cursor(file, tokens);
    }

    public static LitmusTest parse(String file, String text) {
        String[] lines = text.split("\n", -1);
        int first = 0;
        while (first < lines.length && lines[first].isBlank()) {
            first++;
        }
        if (first >= lines.length || !lines[first].trim().matches("C\\s+\\S.*")) {
            throw LitmusException.at(file, first + 1, "not a C litmus test (the first line must be 'C name')");
        }
        String name = lines[first].trim().substring(1).trim();
        String rest = String.join("\n", java.util.Arrays.copyOfRange(lines, first + 1, lines.length));
        String expected = null;
        boolean race = false;
        Matcher m = RESULT.matcher(text);
        if (m.find()) {
            expected = m.group(1);
            race = m.group(2).contains("DATARACE");
        }
        LitmusParser p = new LitmusParser(file, Lexer.tokens(file, rest, first + 2));
        return p.test(name, expected, race);
    }

    private LitmusTest test(String name, String expected, boolean race) {
        Map<String, Val> memory = new LinkedHashMap<>();
        Map<String, Val> registers = new LinkedHashMap<>();
        if (in.peek().is("{")) {
            init(memory, registers);
        }
        List<LitmusTest.ThreadCode> threads = new ArrayList<>();
        while (in.peek().kind() == Kind.IDENT && THREAD.matcher(in.peek().text()).matches()) {
            threads.add(thread(threads.size()));
        }
        if (threads.isEmpty()) {
            throw in.error("expected a thread 'P0(...)' but found '" + in.peek().text() + "'");
        }
        List<String> locations = new ArrayList<>();
        Cond filter = null;
        while (true) {
            Token t = in.peek();
            if (t.is("locations")) {
                in.next();
                in.expect("[");
                while (!in.peek().is("]")) {
                    if (in.peek().is(";")) {
                        in.next();
                        continue;
                    }
                    locations.add(key());
                }
                in.expect("]");
            } else if (t.is("filter")) {
                in.next();
                filter = new CondParser(in).cond();
            } else {
                break;
            }
        }
        if (in.peek().kind() == Kind.EOF) {
            // no final condition (herd7 accepts that): every execution satisfies "true"
            return new LitmusTest(file, name, memory, registers, threads, locations, filter, "forall", new Cond.Const(true),
                    expected, race);
        }
        String quantifier;
        Token t = in.next();
        if (t.is("exists") || t.is("forall")) {
            quantifier = t.text();
        } else if (t.is("~") && in.peek().is("exists")) {
            in.next();
            quantifier = "~exists";
        } else {
            throw in.error(t, "expected 'exists', '~exists' or 'forall' but found '" + t.text() + "'");
        }
        Cond cond = new CondParser(in).cond();
        if (in.peek().kind() != Kind.EOF) {
            throw in.error("unexpected '" + in.peek().text() + "' after the final condition");
        }
        return new LitmusTest(file, name, memory, registers, threads, locations, filter, quantifier, cond, expected, race);
    }

    /** {@code T:reg} or a location name. */
    private String key() {
        Token t = in.next();
        if (t.kind() == Kind.NUMBER && in.peek().is(":")) {
            in.next();
            return t.text() + ":" + in.expectIdent().text();
        }
        if (t.kind() == Kind.IDENT) {
            return t.text();
        }
        throw in.error(t, "expected a location or T:register but found '" + t.text() + "'");
    }

    private static final Set<String> TYPE_WORDS = CodeParser.TYPE_WORDS;

    /** The initial state: {@code x=1; y=&z; 0:r1=2; int x = 1; atomic_t v = ATOMIC_INIT(1); spinlock_t s;}. */
    private void init(Map<String, Val> memory, Map<String, Val> registers) {
        in.expect("{");
        while (!in.peek().is("}")) {
            if (in.peek().is(";")) {
                in.next();
                continue;
            }
            int line = in.peek().line();
            String target = null;
            boolean register = false;
            while (!in.peek().is("=") && !in.peek().is(";") && !in.peek().is("}") && !in.peek().is(",")) {
                Token t = in.next();
                if (t.kind() == Kind.NUMBER && in.peek().is(":")) {
                    in.next();
                    target = t.text() + ":" + in.expectIdent().text();
                    register = true;
                } else if (t.kind() == Kind.IDENT && !TYPE_WORDS.contains(t.text())) {
                    target = t.text();
                } else if (t.kind() == Kind.EOF || t.is("[")) {
                    throw in.error(t, "unsupported initial state '" + t.text() + "'");
                }
            }
            if (target == null) {
                throw LitmusException.at(file, line, "expected a location in the initial state");
            }
            Val v = Val.ZERO;
            if (in.peek().is("=")) {
                in.next();
                v = initValue();
            }
            (register ? registers : memory).put(target, v);
            if (in.peek().is(",")) {
                in.next();
            }
        }
        in.expect("}");
    }

    private Val initValue() {
        Token t = in.next();
        if (t.is("&")) {
            return Val.address(in.expectIdent().text());
        }
        if (t.is("-")) {
            return Val.of(-number(in.next()));
        }
        if (t.kind() == Kind.NUMBER) {
            return Val.of(number(t));
        }
        if (t.is("ATOMIC_INIT")) {
            in.expect("(");
            Val v = initValue();
            in.expect(")");
            return v;
        }
        if (t.kind() == Kind.IDENT) {
            return Val.address(t.text());
        }
        throw in.error(t, "unsupported initial value '" + t.text() + "'");
    }

    long number(Token t) {
        return CodeParser.number(in, t);
    }

    private LitmusTest.ThreadCode thread(int expectedId) {
        Token name = in.next();
        int id = Integer.parseInt(name.text().substring(1));
        if (id != expectedId) {
            throw in.error(name, "thread " + name.text() + " out of order (expected P" + expectedId + ")");
        }
        in.expect("(");
        List<String> params = new ArrayList<>();
        String last = null;
        while (!in.peek().is(")")) {
            Token t = in.next();
            if (t.kind() == Kind.EOF) {
                throw in.error(t, "unterminated parameter list");
            }
            if (t.is(",")) {
                if (last != null) {
                    params.add(last);
                }
                last = null;
            } else if (t.kind() == Kind.IDENT && !TYPE_WORDS.contains(t.text())) {
                last = t.text();
            }
        }
        if (last != null) {
            params.add(last);
        }
        in.expect(")");
        Stmt.Block body = new CodeParser(in).block();
        return new LitmusTest.ThreadCode(id, params, body, name.line());
    }
}
