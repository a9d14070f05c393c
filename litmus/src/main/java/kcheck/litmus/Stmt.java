package kcheck.litmus;

import java.util.List;

/** A statement of a thread's C code. */
sealed interface Stmt {
    /** {@code int r0 = e, r1;}: registers, each with an optional initial value. */
    record Decl(List<String> names, List<Expr> inits, int line) implements Stmt {
    }

    /** {@code e;}. */
    record ExprStmt(Expr expr) implements Stmt {
    }

    /** {@code if (c) s else s}; {@code otherwise} is an empty block when there is no else. */
    record If(Expr cond, Stmt then, Stmt otherwise, int line) implements Stmt {
    }

    record Block(List<Stmt> body) implements Stmt {
    }
}
