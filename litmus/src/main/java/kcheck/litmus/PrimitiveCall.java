package kcheck.litmus;

import java.util.List;

import kcheck.litmus.Event.Kind;
import kcheck.litmus.Primitives.Op;
import kcheck.litmus.Primitives.Returns;
import kcheck.litmus.Primitives.Spec;
import kcheck.litmus.ThreadRunner.Tv;

/**
 * The events of one call of a kernel primitive that has a location, in a thread run by {@link ThreadRunner},
 * as {@link Primitives} specifies them: loads and stores with their annotation, RMWs (fully ordered ones
 * between two {@code F[mb]}; a failed conditional one a lone {@code R*[once]}), lock events and SRCU events.
 */
record PrimitiveCall(ThreadRunner t, Spec s, String loc, long addr, Tv operand, int line) {
    Tv run(Expr.Call c) {
        switch (s.op()) {
            case LOAD:
                return t.read(loc, flag(s.ann()), addr, line);
            case STORE:
                t.add(Kind.W, s.ann().equals("mb") ? Event.ONCE : flag(s.ann()), null, loc, operand.v(), addr, operand.taint(), line);
                if (s.ann().equals("mb")) {
                    t.add(Kind.F, 0, "mb", null, null, 0, 0, line);
                }
                return new Tv(Val.ZERO, 0);
            case RMW:
            case XCHG:
                return rmw(null);
            case CMPXCHG:
                return rmw(t.eval(c.args().get(2)));
            case ADD_UNLESS:
                return rmw(c.args().size() == 3 ? t.eval(c.args().get(2)) : new Tv(Val.ZERO, 0));
            case LOCK:
                t.pair(loc, addr, line);
                return new Tv(Val.ZERO, 0);
            case UNLOCK:
                t.add(Kind.W, Event.UL, null, loc, Val.ZERO, addr, 0, line);
                return new Tv(Val.ZERO, 0);
            case TRYLOCK:
                if (t.choose(2) == 0) {
                    t.pair(loc, addr, line);
                    return new Tv(Val.of(1), 0);
                }
                t.add(Kind.R, Event.LF, null, loc, Val.of(1), addr, 0, line);
                return new Tv(Val.ZERO, 0);
            case ISLOCKED:
                boolean locked = t.choose(2) == 0;
                t.add(Kind.R, locked ? Event.RL : Event.RU, null, loc, Val.of(locked ? 1 : 0), addr, 0, line);
                return new Tv(Val.of(locked ? 1 : 0), 0);
            case SRCU_LOCK: {
                // herd7 gives each srcu_read_lock() its own index value, so that the matching unlock is the
                // one its value reaches (linux-kernel.bell's srcu-rscs); the load's rf ignores it
                Val index = Val.of((t.code.id() + 1) * 307L + t.events.size() * 599L);
                int i = t.add(Kind.R, Event.SRCU_LOCK, null, loc, index, addr, 0, line);
                return new Tv(index, 1L << i);
            }
            case SRCU_UNLOCK:
                t.add(Kind.W, Event.SRCU_UNLOCK, null, loc, operand.v(), addr, operand.taint(), line);
                return new Tv(Val.ZERO, 0);
            default:
                t.add(Kind.SRCU_SYNC, 0, null, loc, null, addr, 0, line);
                return new Tv(Val.ZERO, 0);
        }
    }

    private static int flag(String ann) {
        return switch (ann) {
            case "acquire" -> Event.ACQUIRE;
            case "release" -> Event.RELEASE;
            case "noreturn" -> Event.NORETURN;
            default -> Event.ONCE;
        };
    }

    /** An RMW; {@code third}: cmpxchg's new value, or add_unless's "unless" value. */
    private Tv rmw(Tv third) {
        boolean mb = s.ann().equals("mb");
        List<Val> dom = t.domains.values(loc);
        Val old = dom.get(t.choose(dom.size()));
        boolean ok = switch (s.op()) {
            case CMPXCHG -> old.equals(operand.v());
            case ADD_UNLESS -> !old.equals(third.v());
            default -> true;
        };
        if (!ok) {
            int r = t.add(Kind.R, Event.ONCE | Event.RMW, null, loc, old, addr, 0, line);
            long taint = 1L << r;
            return new Tv(s.returns() == Returns.SUCCESS ? Val.ZERO : old, taint);
        }
        Val now;
        long data = operand.taint();
        if (s.op() == Op.XCHG) {
            now = operand.v();
        } else if (s.op() == Op.CMPXCHG) {
            now = third.v();
            data = third.taint();
        } else {
            if (old.isAddress() || operand.v().isAddress()) {
                throw LitmusException.at(t.file, line, "unsupported arithmetic on an address");
            }
            now = Val.of(Primitives.apply(s.arith(), old.num(), operand.v().num()));
        }
        if (mb) {
            t.add(Kind.F, 0, "mb", null, null, 0, 0, line);
        }
        int rf = Event.RMW | (s.ann().equals("acquire") ? Event.ACQUIRE : s.ann().equals("noreturn") ? Event.NORETURN : Event.ONCE);
        int wf = Event.RMW | (s.ann().equals("release") ? Event.RELEASE : Event.ONCE);
        int r = t.add(Kind.R, rf, null, loc, old, addr, 0, line);
        int w = t.add(Kind.W, wf, null, loc, now, addr, data, line);
        t.events.get(r).rmwPartner = w;
        t.events.get(w).rmwPartner = r;
        if (mb) {
            t.add(Kind.F, 0, "mb", null, null, 0, 0, line);
        }
        long taint = 1L << r;
        Val ret = switch (s.returns()) {
            case NEW -> now;
            case OLD -> old;
            case NEW_IS_ZERO -> Val.of(now.num() == 0 ? 1 : 0);
            case NEW_IS_NEGATIVE -> Val.of(now.num() < 0 ? 1 : 0);
            case SUCCESS -> Val.of(1);
            default -> Val.ZERO;
        };
        return new Tv(ret, taint);
    }
}
