package kcheck.litmus;

import java.util.List;

import kcheck.litmus.Lexer.Kind;
import kcheck.litmus.Lexer.Token;

/** A position in a litmus file's tokens, shared by the parsers of its parts. */
final class Cursor {
    final String file;
    private final List<Token> tokens;
    private int pos;

    Cursor(String file, List<Token> tokens) {
        this.file = file;
        this.tokens = tokens;
    }

    Token peek() {
        return tokens.get(pos);
    }

    Token peek(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    Token next() {
        Token t = tokens.get(pos);
        if (t.kind() != Kind.EOF) {
            pos++;
        }
        return t;
    }

    Token expect(String text) {
        Token t = next();
        if (!t.is(text)) {
            throw error(t, "expected '" + text + "' but found '" + t.text() + "'");
        }
        return t;
    }

    Token expectIdent() {
        Token t = next();
        if (t.kind() != Kind.IDENT) {
            throw error(t, "expected a name but found '" + t.text() + "'");
        }
        return t;
    }

    LitmusException error(String what) {
        return error(peek(), what);
    }

    LitmusException error(Token at, String what) {
        return LitmusException.at(file, at.line(), what);
    }
}
