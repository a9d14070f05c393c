package kcheck.model.rqlock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The step programs the CPUs of the rq-lock model run, one per CPU, flattened into primitive
 * tables for the model's inner loop.
 *
 * <p>Each CPU runs {@code rounds} balancing passes. A pass is the caller's frame around the
 * reference code: {@code spin_lock(this_rq)}; pick a busiest runqueue (any other CPU: one branch
 * each); {@code double_lock_balance(this_rq, busiest)}; critical section;
 * {@code double_unlock_balance(this_rq, busiest)}; {@code spin_unlock(this_rq)}. The two
 * reference functions are recorded from the variant's Java code ({@link RecordedCode}), so the
 * model executes exactly what the port does. Every path gets its own copy of the code after it,
 * so each program counter determines the locks held, whether the CPU is inside
 * {@code double_lock_balance}, what it waits for and whether it dropped {@code this_rq}: these
 * are table lookups, not state.
 *
 * <p>Under ticket locks {@code spin_lock} is two steps (take a ticket; find it served), under
 * test-and-set one (find the lock free and take it).
 */
final class RqLockProgram {
    static final int TAKE = 0;
    static final int WAIT = 1;
    static final int TAS = 2;
    static final int TRY = 3;
    static final int UNLOCK = 4;
    static final int CALL = 5;
    static final int DONE = 6;

    /** Edge target meaning "end of the pass": next round, or done. */
    static final int NEXT_ROUND = -2;
    /** Edge target of a branch that does not exist. */
    static final int NONE = -1;

    private static final String CALLER = "pull_rt_task / load_balance_newidle caller frame (kernel/sched_rt.c, kernel/sched.c)";

    final int cpus;
    final boolean ticket;
    /** Branch slots per instruction: trylock outcome (0 failed, 1 taken) or busiest CPU id. */
    final int branches;
    final int[] base;
    final int[] donePc;

    final int[] op;
    final int[] lock;
    final int[] held;
    final int[] waitsFor;
    final boolean[] inside;
    final boolean[] dropped;
    final int[] busiest;
    final String[] cite;
    final int[] target;
    final int[] ret;
    final String[] label;
    /**
     * Partial-order reduction: the lock words an instruction reads or writes (bit 2L: rq[L]'s
     * {@code next} counter, or its flag under test-and-set; bit 2L+1: its {@code owner} counter),
     * and those of every instruction reachable from it within the same pass.
     */
    final long[] touch;
    final long[] futureInPass;
    /** Everything a CPU's program touches in a whole pass (for passes still to come). */
    final long[] wholePass;

    RqLockProgram(DoubleLockBalance dlb, String variant, int cpus, boolean ticket) {
        this.cpus = cpus;
        this.ticket = ticket;
        this.branches = Math.max(2, cpus);
        List<Ins> all = new ArrayList<>();
        base = new int[cpus];
        donePc = new int[cpus];
        for (int c = 0; c < cpus; c++) {
            base[c] = all.size();
            List<Ins> code = new CpuBuilder(dlb, variant, c).build();
            donePc[c] = code.size() - 1;
            all.addAll(code);
        }
        int n = all.size();
        op = new int[n];
        lock = new int[n];
        held = new int[n];
        waitsFor = new int[n];
        inside = new boolean[n];
        dropped = new boolean[n];
        busiest = new int[n];
        cite = new String[n];
        target = new int[n * branches];
        ret = new int[n * branches];
        label = new String[n * branches];
        touch = new long[n];
        futureInPass = new long[n];
        wholePass = new long[cpus];
        for (int g = 0; g < n; g++) {
            Ins i = all.get(g);
            op[g] = i.op;
            lock[g] = i.lock;
            held[g] = i.held;
            waitsFor[g] = i.waitsFor;
            inside[g] = i.inside;
            dropped[g] = i.dropped;
            busiest[g] = i.busiest;
            cite[g] = i.cite;
            for (int b = 0; b < branches; b++) {
                target[g * branches + b] = i.target[b];
                ret[g * branches + b] = i.ret[b];
                label[g * branches + b] = i.label[b];
            }
            touch[g] = switch (op[g]) {
                case TAKE, TAS -> 1L << (2 * lock[g]);
                case WAIT -> 1L << (2 * lock[g] + 1);
                case TRY -> ticket ? 3L << (2 * lock[g]) : 1L << (2 * lock[g]);
                case UNLOCK -> ticket ? 1L << (2 * lock[g] + 1) : 1L << (2 * lock[g]);
                default -> 0L;
            };
        }
        for (int c = 0; c < cpus; c++) {
            for (int pc = donePc[c]; pc >= 0; pc--) {
                int g = base[c] + pc;
                long f = touch[g];
                for (int b = 0; b < branches; b++) {
                    int t = target[g * branches + b];
                    if (t >= 0) {
                        if (t <= pc) {
                            throw new IllegalStateException("program is not a tree in emission order");
                        }
                        f |= futureInPass[base[c] + t];
                    }
                }
                futureInPass[g] = f;
            }
            wholePass[c] = futureInPass[base[c]];
        }
    }

    /** Number of program counters of {@code cpu} (its done state included). */
    int size(int cpu) {
        return donePc[cpu] + 1;
    }

    /**
     * What a CPU is doing at a program counter, short enough for a timeline column, e.g.
     * "dlb(busiest=rq0): waits for rq0" or "about to call dlb".
     */
    String pcName(int cpu, int pc) {
        int g = base[cpu] + pc;
        String what = switch (op[g]) {
            case TAKE -> "next: spin_lock(rq" + lock[g] + ")";
            case WAIT -> "waits for rq" + lock[g];
            case TAS -> "spins for rq" + lock[g];
            case TRY -> "next: spin_trylock(rq" + lock[g] + ")";
            case UNLOCK -> "next: spin_unlock(rq" + lock[g] + ")";
            case CALL -> "next: double_lock_balance";
            default -> "done";
        };
        return inside[g] ? "dlb(busiest=rq" + busiest[g] + "): " + what : what;
    }

    /** One instruction while building. */
    private final class Ins {
        int op;
        int lock = -1;
        int held;
        int waitsFor = -1;
        boolean inside;
        boolean dropped;
        int busiest = -1;
        String cite = "";
        final int[] target = filled(NONE);
        final int[] ret = filled(-1);
        final String[] label = new String[branches];

        private int[] filled(int v) {
            int[] a = new int[branches];
            Arrays.fill(a, v);
            return a;
        }
    }

    /** Where a CPU is, while emitting: what it holds and whether it is inside the call. */
    private record Ctx(int held, boolean inside, boolean dropped, int busiest) {
    }

    /** What to emit after a recorded piece of code ends with a return value. */
    private interface Continuation {
        int emit(int ret, Ctx ctx);
    }

    private final class CpuBuilder {
        final DoubleLockBalance dlb;
        final String variant;
        final int cpu;
        final List<Ins> code = new ArrayList<>();

        CpuBuilder(DoubleLockBalance dlb, String variant, int cpu) {
            this.dlb = dlb;
            this.variant = variant;
            this.cpu = cpu;
        }

        List<Ins> build() {
            Ctx start = new Ctx(0, false, false, -1);
            RecordedCode.Node lockOwn = new RecordedCode.Node(RecordedCode.Kind.LOCK, cpu, 0,
                    "spin_lock(&this_rq->lock) in the " + CALLER);
            lockOwn.children[0] = new RecordedCode.Node(RecordedCode.Kind.END, -1, 0, "");
            int entry = emit(lockOwn, start, false, (r, ctx) -> emitCall(ctx));
            if (entry != 0) {
                throw new IllegalStateException("program must start at pc 0");
            }
            Ins done = new Ins();
            done.op = DONE;
            code.add(done);
            return code;
        }

        private int add(Ins i) {
            code.add(i);
            return code.size() - 1;
        }

        private int emitCall(Ctx ctx) {
            Ins call = new Ins();
            call.op = CALL;
            call.held = ctx.held();
            call.cite = CALLER;
            int pc = add(call);
            for (int b = 0; b < cpus; b++) {
                if (b == cpu) {
                    continue;
                }
                final int busiest = b;
                call.label[b] = "double_lock_balance(this_rq=rq[" + cpu + "], busiest=rq[" + b + "])";
                RecordedCode.Node body = RecordedCode.record("variant '" + variant + "' double_lock_balance",
                        k -> dlb.doubleLockBalance(k, cpu, busiest));
                Ctx in = new Ctx(ctx.held(), true, false, b);
                if (body.kind == RecordedCode.Kind.END) {
                    call.ret[b] = body.ret;
                    call.label[b] += " returns " + body.ret;
                    call.target[b] = emitAfterReturn(new Ctx(in.held(), false, false, b));
                } else {
                    call.target[b] = emit(body, in, true, (r, after) -> emitAfterReturn(after));
                }
            }
            return pc;
        }

        private int emitAfterReturn(Ctx ctx) {
            final int b = ctx.busiest();
            RecordedCode.Node body = RecordedCode.record("variant '" + variant + "' double_unlock_balance", k -> {
                dlb.doubleUnlockBalance(k, cpu, b);
                return 0;
            });
            return emit(body, ctx, false, (r, after) -> emitUnlockOwn(after));
        }

        private int emitUnlockOwn(Ctx ctx) {
            Ins u = new Ins();
            u.op = UNLOCK;
            u.lock = cpu;
            u.held = ctx.held();
            u.busiest = ctx.busiest();
            u.dropped = ctx.dropped();
            u.cite = "spin_unlock(&this_rq->lock) in the " + CALLER;
            u.label[0] = "spin_unlock(rq[" + cpu + "])";
            u.target[0] = NEXT_ROUND;
            return add(u);
        }

        /**
         * Emits the recorded tree {@code n} starting in {@code ctx}; {@code returns} says that
         * reaching its END returns from double_lock_balance. Returns the first pc.
         */
        private int emit(RecordedCode.Node n, Ctx ctx, boolean returns, Continuation then) {
            if (n.kind == RecordedCode.Kind.END) {
                return then.emit(n.ret, ctx);
            }
            int bit = 1 << n.rq;
            switch (n.kind) {
                case LOCK: {
                    if (ticket) {
                        Ins take = ins(TAKE, n, ctx, false);
                        take.label[0] = "spin_lock(rq[" + n.rq + "]): take ticket";
                        int pc = add(take);
                        Ins wait = ins(WAIT, n, ctx, ctx.inside());
                        wait.label[0] = "spin_lock(rq[" + n.rq + "]): ticket served";
                        take.target[0] = add(wait);
                        edge(wait, 0, n.children[0], withHeld(ctx, ctx.held() | bit), returns, then);
                        return pc;
                    }
                    Ins tas = ins(TAS, n, ctx, ctx.inside());
                    tas.label[0] = "spin_lock(rq[" + n.rq + "]): found free, taken";
                    int pc = add(tas);
                    edge(tas, 0, n.children[0], withHeld(ctx, ctx.held() | bit), returns, then);
                    return pc;
                }
                case TRYLOCK: {
                    Ins t = ins(TRY, n, ctx, false);
                    t.label[0] = "spin_trylock(rq[" + n.rq + "]) = 0";
                    t.label[1] = "spin_trylock(rq[" + n.rq + "]) = 1";
                    int pc = add(t);
                    edge(t, 0, n.children[0], ctx, returns, then);
                    edge(t, 1, n.children[1], withHeld(ctx, ctx.held() | bit), returns, then);
                    return pc;
                }
                case UNLOCK: {
                    Ins u = ins(UNLOCK, n, ctx, false);
                    u.label[0] = "spin_unlock(rq[" + n.rq + "])";
                    int pc = add(u);
                    boolean dropped = ctx.dropped() || (ctx.inside() && n.rq == cpu);
                    edge(u, 0, n.children[0], new Ctx(ctx.held() & ~bit, ctx.inside(), dropped, ctx.busiest()), returns, then);
                    return pc;
                }
                default:
                    throw new IllegalStateException(n.kind.toString());
            }
        }

        /** Sets branch {@code b} of {@code from} to the code for {@code child}. */
        private void edge(Ins from, int b, RecordedCode.Node child, Ctx after, boolean returns, Continuation then) {
            if (child.kind == RecordedCode.Kind.END && returns) {
                from.ret[b] = child.ret;
                from.label[b] += " \u2192 double_lock_balance returns " + child.ret;
                Ctx out = new Ctx(after.held(), false, after.dropped(), after.busiest());
                from.target[b] = then.emit(child.ret, out);
            } else {
                from.target[b] = emit(child, after, returns, then);
            }
        }

        private Ctx withHeld(Ctx c, int held) {
            return new Ctx(held, c.inside(), c.dropped(), c.busiest());
        }

        private Ins ins(int op, RecordedCode.Node n, Ctx ctx, boolean waiting) {
            Ins i = new Ins();
            i.op = op;
            i.lock = n.rq;
            i.held = ctx.held();
            i.inside = ctx.inside();
            i.dropped = ctx.dropped();
            i.busiest = ctx.busiest();
            i.waitsFor = waiting ? n.rq : -1;
            i.cite = n.cite;
            return i;
        }
    }
}
