package kcheck.litmus;

import kcheck.litmus.Lexer.Kind;
import kcheck.litmus.Lexer.Token;

/** Parses a final-state proposition ({@link Cond}): {@code ~}, {@code /\}, {@code \/}, {@code =>}, parentheses. */
final class CondParser {
    private final Cursor in;

    CondParser(Cursor in) {
        this.in = in;
    }

    Cond cond() {
        Cond left = or();
        if (in.peek().is("=>")) {
            in.next();
            return new Cond.Or(new Cond.Not(left), cond());
        }
        return left;
    }

    private Cond or() {
        Cond c = and();
        while (in.peek().is("\\/")) {
            in.next();
            c = new Cond.Or(c, and());
        }
        return c;
    }

    private Cond and() {
        Cond c = unary();
        while (in.peek().is("/\\")) {
            in.next();
            c = new Cond.And(c, unary());
        }
        return c;
    }

    private Cond unary() {
        Token t = in.peek();
        if (t.is("~") || t.is("not")) {
            in.next();
            return new Cond.Not(unary());
        }
        if (t.is("(")) {
            in.next();
            Cond c = cond();
            in.expect(")");
            return c;
        }
        if (t.is("true") || t.is("false")) {
            in.next();
            return new Cond.Const(t.is("true"));
        }
        return atom();
    }

    private Cond atom() {
        Token t = in.next();
        String key;
        if (t.kind() == Kind.NUMBER && in.peek().is(":")) {
            in.next();
            key = t.text() + ":" + in.expectIdent().text();
        } else if (t.kind() == Kind.IDENT) {
            key = t.text();
        } else if (t.is("*") && in.peek().kind() == Kind.IDENT) {
            key = in.next().text();
        } else {
            throw in.error(t, "expected a condition but found '" + t.text() + "'");
        }
        Token op = in.next();
        boolean equal;
        if (op.is("=") || op.is("==")) {
            equal = true;
        } else if (op.is("!=") || op.is("<>")) {
            equal = false;
        } else {
            throw in.error(op, "expected '=' after '" + key + "' but found '" + op.text() + "'");
        }
        if (in.peek().kind() == Kind.NUMBER && in.peek(1).is(":")) {
            String thread = in.next().text();
            in.next();
            return new Cond.Atom(key, null, thread + ":" + in.expectIdent().text(), equal);
        }
        return new Cond.Atom(key, value(), null, equal);
    }

    private Val value() {
        Token t = in.next();
        if (t.is("-")) {
            return Val.of(-CodeParser.number(in, in.next()));
        }
        if (t.kind() == Kind.NUMBER) {
            return Val.of(CodeParser.number(in, t));
        }
        if (t.is("&")) {
            return Val.address(in.expectIdent().text());
        }
        if (t.kind() == Kind.IDENT) {
            return Val.address(t.text());
        }
        throw in.error(t, "expected a value but found '" + t.text() + "'");
    }
}
