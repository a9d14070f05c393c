package kcheck.litmus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import kcheck.litmus.Event.Kind;
import kcheck.litmus.Primitives.Op;
import kcheck.litmus.Primitives.Spec;

/**
 * Runs one thread's code symbolically, as herd7 does: every read takes each value its location can hold
 * (from {@link ValueDomains}), every trylock and spin_is_locked both outcomes, and each combination of
 * choices is one {@link ThreadPath}: the events in program order with their address, data and control
 * dependencies (linux-kernel.bell's raw {@code addr}, {@code data}, {@code ctrl}, before carry-dep) and the
 * RMW pairs ({@code rmw}). A control dependency reaches the events in the arms of the {@code if} whose
 * condition depends on the read (explanation.txt's definition), not those after it.
 */
final class ThreadRunner {

    /** A value with the mask of the thread's reads it was computed from. */
    record Tv(Val v, long taint) {
    }

    /** Thrown when a path dereferences something that is not an address: that path cannot happen. */
    private static final class Infeasible extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Infeasible() {
            super(null, null, false, false);
        }
    }

    final String file;
    final LitmusTest.ThreadCode code;
    private final Map<String, Val> registerInit;
    final ValueDomains domains;

    private final List<Event> abandoned = new ArrayList<>();
    private final List<Integer> choices = new ArrayList<>();
    private final List<Integer> bounds = new ArrayList<>();
    private int cursor;
    List<Event> events;
    private Map<String, Tv> regs;
    private long ctrl;

    ThreadRunner(String file, LitmusTest.ThreadCode code, Map<String, Val> registerInit, ValueDomains domains) {
        this.file = file;
        this.code = code;
        this.registerInit = registerInit;
        this.domains = domains;
    }

    /** The events of paths that dereferenced a non-address, up to that point (for the value domains). */
    List<Event> abandonedEvents() {
        return abandoned;
    }

    /** Every path of the thread under the current value domains. */
    List<ThreadPath> paths() {
        List<ThreadPath> out = new ArrayList<>();
        choices.clear();
        bounds.clear();
        while (true) {
            ThreadPath p = runOnce();
            if (p != null) {
                out.add(p);
            }
            int i = choices.size() - 1;
            while (i >= 0 && choices.get(i) + 1 >= bounds.get(i)) {
                i--;
            }
            if (i < 0) {
                return out;
            }
            choices.set(i, choices.get(i) + 1);
            while (choices.size() > i + 1) {
                choices.remove(choices.size() - 1);
                bounds.remove(bounds.size() - 1);
            }
        }
    }

    private ThreadPath runOnce() {
        cursor = 0;
        events = new ArrayList<>();
        regs = new HashMap<>();
        ctrl = 0;
        String prefix = code.id() + ":";
        registerInit.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                regs.put(k.substring(prefix.length()), new Tv(v, 0));
            }
        });
        try {
            exec(code.body());
        } catch (Infeasible e) {
            // the writes before the dead end still tell which values locations can hold (a later round may
            // let this path read them and go on)
            abandoned.addAll(events);
            return null;
        }
        if (events.size() > Event.MAX_PER_THREAD) {
            throw LitmusException.at(file, code.line(), "thread P" + code.id() + " makes more than " + Event.MAX_PER_THREAD
                    + " events");
        }
        Map<String, Val> finals = new HashMap<>();
        regs.forEach((k, v) -> finals.put(k, v.v()));
        return new ThreadPath(code.id(), List.copyOf(events), finals);
    }

    int choose(int n) {
        if (cursor < choices.size()) {
            return choices.get(cursor++);
        }
        choices.add(0);
        bounds.add(n);
        cursor++;
        return 0;
    }

    private void exec(Stmt s) {
        if (s instanceof Stmt.Block b) {
            for (Stmt x : b.body()) {
                exec(x);
            }
        } else if (s instanceof Stmt.Decl d) {
            for (int i = 0; i < d.names().size(); i++) {
                Expr init = d.inits().get(i);
                regs.put(d.names().get(i), init == null ? new Tv(Val.ZERO, 0) : eval(init));
            }
        } else if (s instanceof Stmt.ExprStmt e) {
            eval(e.expr());
        } else if (s instanceof Stmt.If f) {
            Tv c = eval(f.cond());
            long outside = ctrl;
            ctrl |= c.taint();
            exec(c.v().truthy() ? f.then() : f.otherwise());
            ctrl = outside;
        }
    }

    Tv eval(Expr e) {
        if (e instanceof Expr.Num n) {
            return new Tv(Val.of(n.value()), 0);
        }
        if (e instanceof Expr.Var v) {
            Tv r = regs.get(v.name());
            if (r != null) {
                return r;
            }
            if (code.params().contains(v.name())) {
                return new Tv(Val.address(v.name()), 0);
            }
            // as in herd7, any other name is a register, 0 until assigned
            return new Tv(Val.ZERO, 0);
        }
        if (e instanceof Expr.AddrOf a) {
            return new Tv(Val.address(a.name()), 0);
        }
        if (e instanceof Expr.Deref d) {
            Tv p = eval(d.pointer());
            return read(address(p), 0, p.taint(), d.line());
        }
        if (e instanceof Expr.Assign a) {
            Tv v = eval(a.value());
            if (a.target() instanceof Expr.Var t) {
                regs.put(t.name(), v);
            } else {
                Tv p = eval(((Expr.Deref) a.target()).pointer());
                add(Kind.W, 0, null, address(p), v.v(), p.taint(), v.taint(), a.line());
            }
            return v;
        }
        if (e instanceof Expr.Unary u) {
            Tv x = eval(u.operand());
            long n = integer(x, u.line());
            long r = switch (u.op()) {
                case "!" -> x.v().truthy() ? 0 : 1;
                case "-" -> -n;
                default -> ~n;
            };
            return new Tv(Val.of(r), x.taint());
        }
        if (e instanceof Expr.Binary b) {
            return binary(b);
        }
        if (e instanceof Expr.Ternary t) {
            Tv c = eval(t.cond());
            Tv r = eval(c.v().truthy() ? t.then() : t.otherwise());
            return new Tv(r.v(), r.taint() | c.taint());
        }
        return call((Expr.Call) e);
    }

    private Tv binary(Expr.Binary b) {
        Tv l = eval(b.left());
        if (b.op().equals("&&") && !l.v().truthy() || b.op().equals("||") && l.v().truthy()) {
            return new Tv(Val.of(b.op().equals("||") ? 1 : 0), l.taint());
        }
        Tv r = eval(b.right());
        long t = l.taint() | r.taint();
        switch (b.op()) {
            case "==":
                return new Tv(Val.of(l.v().equals(r.v()) ? 1 : 0), t);
            case "!=":
                return new Tv(Val.of(l.v().equals(r.v()) ? 0 : 1), t);
            case "&&":
            case "||":
                return new Tv(Val.of(r.v().truthy() ? 1 : 0), t);
            default:
                break;
        }
        // an address plus or minus zero is that address (litmus tests use it to make address dependencies)
        if ((b.op().equals("+") || b.op().equals("-")) && l.v().isAddress() && !r.v().isAddress() && r.v().num() == 0) {
            return new Tv(l.v(), t);
        }
        if (b.op().equals("+") && r.v().isAddress() && !l.v().isAddress() && l.v().num() == 0) {
            return new Tv(r.v(), t);
        }
        long x = integer(l, b.line());
        long y = integer(r, b.line());
        long v = switch (b.op()) {
            case "+" -> x + y;
            case "-" -> x - y;
            case "*" -> x * y;
            case "/" -> y == 0 ? 0 : x / y;
            case "%" -> y == 0 ? 0 : x % y;
            case "&" -> x & y;
            case "|" -> x | y;
            case "^" -> x ^ y;
            case "<<" -> x << y;
            case ">>" -> x >> y;
            case "<" -> x < y ? 1 : 0;
            case "<=" -> x <= y ? 1 : 0;
            case ">" -> x > y ? 1 : 0;
            default -> x >= y ? 1 : 0;
        };
        return new Tv(Val.of(v), t);
    }

    private long integer(Tv x, int line) {
        if (x.v().isAddress()) {
            throw LitmusException.at(file, line, "unsupported arithmetic on the address " + x.v());
        }
        return x.v().num();
    }

    private static String address(Tv p) {
        if (!p.v().isAddress()) {
            throw new Infeasible();
        }
        return p.v().loc();
    }

    int add(Kind kind, int flags, String fence, String loc, Val value, long addr, long data, int line) {
        events.add(new Event(kind, flags, fence, loc, value, addr, data, ctrl, line));
        return events.size() - 1;
    }

    /** A read of {@code loc} taking each value of its domain in turn. */
    Tv read(String loc, int flags, long addr, int line) {
        List<Val> dom = domains.values(loc);
        Val v = dom.get(choose(dom.size()));
        int i = add(Kind.R, flags, null, loc, v, addr, 0, line);
        return new Tv(v, 1L << i);
    }

    private Tv call(Expr.Call c) {
        Spec s = Primitives.spec(c.name());
        int line = c.line();
        if (s.op() == Op.FENCE) {
            add(Kind.F, 0, s.ann(), null, null, 0, 0, line);
            return new Tv(Val.ZERO, 0);
        }
        Tv p = location(s, c.args().get(s.ptr()), line);
        String loc = address(p);
        Tv operand = s.val() >= 0 ? eval(c.args().get(s.val())) : new Tv(Val.of(s.constant()), 0);
        return new PrimitiveCall(this, s, loc, p.taint(), operand, line).run(c);
    }

    /** The location argument: an lvalue ({@code *x}, or a bare name) or a pointer expression. */
    private Tv location(Spec s, Expr arg, int line) {
        if (s.lvalue()) {
            if (arg instanceof Expr.Deref d) {
                return eval(d.pointer());
            }
            if (arg instanceof Expr.Var v && !regs.containsKey(v.name())) {
                return new Tv(Val.address(v.name()), 0);
            }
            throw LitmusException.at(file, line, "unsupported argument of " + s.op().name().toLowerCase(java.util.Locale.ROOT));
        }
        return eval(arg);
    }

    /** spin_lock or a successful trylock: LKR then LKW, an RMW pair (lock.cat's lk-rmw). */
    void pair(String loc, long addr, int line) {
        int r = add(Kind.R, Event.LKR, null, loc, Val.ZERO, addr, 0, line);
        int w = add(Kind.W, Event.LKW, null, loc, Val.of(1), addr, 0, line);
        events.get(r).rmwPartner = w;
        events.get(w).rmwPartner = r;
    }
}
