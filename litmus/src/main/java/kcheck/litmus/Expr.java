package kcheck.litmus;

import java.util.List;

/** An expression of a thread's C code, with the line it starts on (for error messages). */
sealed interface Expr {
    int line();

    /** An integer literal. */
    record Num(long value, int line) implements Expr {
    }

    /** A register, or a thread parameter (the address of the shared location of the same name). */
    record Var(String name, int line) implements Expr {
    }

    /** {@code &x}: the address of shared location {@code x}. */
    record AddrOf(String name, int line) implements Expr {
    }

    /** {@code *e}: a plain access to the location {@code e} points to. */
    record Deref(Expr pointer, int line) implements Expr {
    }

    /** {@code op e} for {@code ! - ~}. */
    record Unary(String op, Expr operand, int line) implements Expr {
    }

    /** {@code l op r}. */
    record Binary(String op, Expr left, Expr right, int line) implements Expr {
    }

    /** {@code c ? a : b}. */
    record Ternary(Expr cond, Expr then, Expr otherwise, int line) implements Expr {
    }

    /** A kernel primitive: {@code READ_ONCE(*x)}, {@code smp_mb()}, {@code xchg(x, 1)}... */
    record Call(String name, List<Expr> args, int line) implements Expr {
    }

    /** {@code target = value}: a register or a plain store. */
    record Assign(Expr target, Expr value, int line) implements Expr {
    }
}
