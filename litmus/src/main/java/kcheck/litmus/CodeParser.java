package kcheck.litmus;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import kcheck.litmus.Lexer.Kind;
import kcheck.litmus.Lexer.Token;

/**
 * Parses the C subset of a thread's body: declarations, assignments, calls of kernel primitives
 * ({@link Primitives}), {@code if}/{@code else} and blocks; expressions with C's operators and precedence,
 * casts, {@code &x} and {@code *p}. Loops and other statements are refused with their line.
 */
final class CodeParser {
    static final Set<String> TYPE_WORDS = Set.of("int", "unsigned", "signed", "long", "short", "char", "bool", "_Bool",
            "void", "atomic_t", "atomic_long_t", "atomic64_t", "spinlock_t", "raw_spinlock_t", "intptr_t", "uintptr_t",
            "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "size_t", "volatile", "const", "struct", "union",
            "srcu_struct");
    private static final Set<String> UNSUPPORTED = Set.of("while", "for", "do", "switch", "goto", "return", "break",
            "continue", "case", "default");
    private static final String[][] LEVELS = {{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="},
        {"<", "<=", ">", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};

    private final Cursor in;

    CodeParser(Cursor in) {
        this.in = in;
    }

    static long number(Cursor in, Token t) {
        if (t.kind() != Kind.NUMBER) {
            throw in.error(t, "expected a number but found '" + t.text() + "'");
        }
        try {
            String s = t.text().replaceAll("[uUlL]+$", "");
            return s.startsWith("0x") || s.startsWith("0X") ? Long.parseLong(s.substring(2), 16) : Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw in.error(t, "bad number '" + t.text() + "'");
        }
    }

    Stmt.Block block() {
        in.expect("{");
        List<Stmt> body = new ArrayList<>();
        while (!in.peek().is("}")) {
            if (in.peek().kind() == Kind.EOF) {
                throw in.error("missing '}'");
            }
            body.add(statement());
        }
        in.expect("}");
        return new Stmt.Block(body);
    }

    private Stmt statement() {
        Token t = in.peek();
        if (t.is("{")) {
            return block();
        }
        if (t.is(";")) {
            in.next();
            return new Stmt.Block(List.of());
        }
        if (t.is("if")) {
            in.next();
            in.expect("(");
            Expr c = expr();
            in.expect(")");
            Stmt then = statement();
            Stmt otherwise = new Stmt.Block(List.of());
            if (in.peek().is("else")) {
                in.next();
                otherwise = statement();
            }
            return new Stmt.If(c, then, otherwise, t.line());
        }
        if (t.kind() == Kind.IDENT && UNSUPPORTED.contains(t.text())) {
            throw in.error(t, "unsupported statement '" + t.text() + "'");
        }
        if (t.kind() == Kind.IDENT && TYPE_WORDS.contains(t.text())) {
            return declaration();
        }
        if (t.kind() != Kind.IDENT && !t.is("*") && !t.is("(")) {
            throw in.error(t, "unsupported statement '" + t.text() + "'");
        }
        Expr e = expr();
        in.expect(";");
        return new Stmt.ExprStmt(e);
    }

    private Stmt declaration() {
        int line = in.peek().line();
        while (in.peek().kind() == Kind.IDENT && TYPE_WORDS.contains(in.peek().text())) {
            Token w = in.next();
            if ((w.is("struct") || w.is("union")) && in.peek().kind() == Kind.IDENT) {
                in.next();
            }
        }
        List<String> names = new ArrayList<>();
        List<Expr> inits = new ArrayList<>();
        while (true) {
            while (in.peek().is("*")) {
                in.next();
            }
            names.add(in.expectIdent().text());
            if (in.peek().is("[")) {
                throw in.error("unsupported declaration: arrays");
            }
            Expr init = null;
            if (in.peek().is("=")) {
                in.next();
                init = assignment();
            }
            inits.add(init);
            if (!in.peek().is(",")) {
                break;
            }
            in.next();
        }
        in.expect(";");
        return new Stmt.Decl(names, inits, line);
    }

    Expr expr() {
        return assignment();
    }

    private Expr assignment() {
        Expr left = ternary();
        if (in.peek().is("=")) {
            Token eq = in.next();
            if (!(left instanceof Expr.Var) && !(left instanceof Expr.Deref)) {
                throw in.error(eq, "cannot assign to this expression");
            }
            return new Expr.Assign(left, assignment(), eq.line());
        }
        return left;
    }

    private Expr ternary() {
        Expr c = binary(0);
        if (in.peek().is("?")) {
            Token q = in.next();
            Expr a = assignment();
            in.expect(":");
            Expr b = ternary();
            return new Expr.Ternary(c, a, b, q.line());
        }
        return c;
    }

    private Expr binary(int level) {
        if (level == LEVELS.length) {
            return unary();
        }
        Expr left = binary(level + 1);
        while (true) {
            Token t = in.peek();
            String op = null;
            for (String o : LEVELS[level]) {
                if (t.kind() == Kind.PUNCT && t.text().equals(o)) {
                    op = o;
                }
            }
            if (op == null) {
                return left;
            }
            in.next();
            left = new Expr.Binary(op, left, binary(level + 1), t.line());
        }
    }

    private Expr unary() {
        Token t = in.peek();
        if (t.is("!") || t.is("-") || t.is("~")) {
            in.next();
            return new Expr.Unary(t.text(), unary(), t.line());
        }
        if (t.is("*")) {
            in.next();
            return new Expr.Deref(unary(), t.line());
        }
        if (t.is("&")) {
            in.next();
            Expr e = unary();
            if (e instanceof Expr.Var v) {
                return new Expr.AddrOf(v.name(), t.line());
            }
            if (e instanceof Expr.Deref d) {
                return d.pointer();
            }
            throw in.error(t, "unsupported '&' of an expression");
        }
        if (t.is("(") && in.peek(1).kind() == Kind.IDENT && TYPE_WORDS.contains(in.peek(1).text())) {
            in.next();
            while (!in.peek().is(")")) {
                if (in.next().kind() == Kind.EOF) {
                    throw in.error("unterminated cast");
                }
            }
            in.next();
            return unary();
        }
        return primary();
    }

    private Expr primary() {
        Token t = in.next();
        if (t.kind() == Kind.NUMBER) {
            return new Expr.Num(number(in, t), t.line());
        }
        if (t.is("(")) {
            Expr e = expr();
            in.expect(")");
            return e;
        }
        if (t.kind() == Kind.IDENT) {
            if (in.peek().is("(")) {
                return call(t);
            }
            return new Expr.Var(t.text(), t.line());
        }
        throw in.error(t, "unexpected '" + t.text() + "'");
    }

    private Expr call(Token name) {
        if (!Primitives.known(name.text())) {
            throw in.error(name, "unsupported macro '" + name.text() + "'");
        }
        in.expect("(");
        List<Expr> args = new ArrayList<>();
        while (!in.peek().is(")")) {
            args.add(assignment());
            if (!in.peek().is(")")) {
                in.expect(",");
            }
        }
        in.expect(")");
        int arity = Primitives.arity(name.text());
        if (arity != args.size()) {
            throw in.error(name, "'" + name.text() + "' takes " + arity + " argument" + (arity == 1 ? "" : "s") + ", not " + args.size());
        }
        return new Expr.Call(name.text(), args, name.line());
    }
}
