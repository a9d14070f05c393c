package kcheck.model.rqlock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The step programs the CPUs of the rq-lock model run, one per CPU, flattened into primitive
 * tables for the model's inner loop.
 *
 * <p>Each CPU runs {@code rounds} balancing passes. A pass is the caller's frame around the
 * reference code: the caller's lock of {@code this_rq}; then {@code calls} times: pick a busiest
 * runqueue (any other CPU: one branch each); {@code double_lock_balance(this_rq, busiest)};
 * critical section; {@code double_unlock_balance(this_rq, busiest)}; then the caller's unlock of
 * {@code this_rq}. The reference functions are recorded from the variant's Java code
 * ({@link RecordedCode}), so the model executes exactly what the port does. Every path gets its
 * own copy of the code after it, so each program counter determines the locks held (and their
 * lockdep subclasses), whether the CPU is inside {@code double_lock_balance}, which lock its
 * primitive is on and whether it dropped {@code this_rq}: these are table lookups, not state.
 *
 * <p>An instruction is one lock primitive ({@code LOCK}, {@code TRY}, {@code UNLOCK}), the choice
 * of busiest ({@code CALL}) or the end ({@code DONE}). A lock primitive runs as the steps of the
 * variant's {@link RqSpinlock}; the model keeps the spinlock's pc next to the instruction.
 */
final class RqLockProgram {
    static final int LOCK = 0;
    static final int TRY = 1;
    static final int UNLOCK = 2;
    static final int CALL = 3;
    static final int DONE = 4;

    /** Edge target meaning "end of the pass": next round, or done. */
    static final int NEXT_ROUND = -2;
    /** Edge target of a branch that does not exist. */
    static final int NONE = -1;

    final int cpus;
    /** double_lock_balance calls per pass (per hold of this_rq). */
    final int calls;
    final RqSpinlock spinlock;
    final RqConfig config;
    /** Branch slots per instruction: trylock outcome (0 failed, 1 taken) or busiest CPU id. */
    final int branches;
    final int[] base;
    final int[] donePc;

    final int[] op;
    final int[] lock;
    final int[] held;
    final boolean[] inside;
    final boolean[] dropped;
    final int[] busiest;
    final String[] cite;
    /** What the instruction calls, e.g. {@code spin_lock(rq[1])}. */
    final String[] head;
    final int[] target;
    final int[] ret;
    /** Per edge: a CALL's label, or what follows a primitive's label when it completes (the return). */
    final String[] label;
    /** Per edge: the primitive's completion acquires an rq lock at a lockdep subclass already held (lockdep's recursive-locking report). */
    final boolean[] lockdep;
    /** Per edge: what lockdep would say. */
    final String[] lockdepWhy;
    /** Per edge: a return from double_lock_balance with this_rq's or busiest's RQCF_UPDATED not cleared since it was locked. */
    final boolean[] clockStale;

    /* partial-order reduction */
    /** Footprint bits per lock (the lock word's fields, and one for its MCS queue if the lock has nodes). */
    final int bitsPerLock;
    /** Per spinlock pc: the global footprint bits of that step on lock 0 (shift by {@link #lockShift}); -1: visible. */
    final long[] pcTouch;
    /** Per spinlock pc: everything the operation may still touch from there, on lock 0. */
    final long[] pcFuture;
    /** Per instruction: everything the CPU may touch after this instruction, within the pass. */
    final long[] afterInPass;
    /** Per instruction: everything the CPU may touch from this instruction on, within the pass. */
    final long[] futureInPass;
    /** Everything a CPU's program touches in a whole pass (for passes still to come). */
    final long[] wholePass;
    /** Per instruction: the spinlock pc its primitive starts at (0 for CALL and DONE). */
    final int[] entryPc;
    /** Per spinlock pc: {@link RqSpinlock#waiting}, and its declared successors (cached: the inner loop must not allocate). */
    final boolean[] pcWaiting;
    final int[][] pcSuccessors;
    /** Bits of a spinlock pc: tables per (instruction, spinlock pc) are indexed {@code g << subBits | pc}. */
    final int subBits;
    /** Per (instruction, spinlock pc): {@link #waitsFor}, tabulated (the inner loop and the monitors read it). */
    private final int[] waitAt;

    RqLockProgram(DoubleLockBalance dlb, String variant, RqConfig config, RqSpinlock spinlock, int calls) {
        this.cpus = config.cpus();
        this.calls = calls;
        this.config = config;
        this.spinlock = spinlock;
        this.branches = Math.max(2, cpus);
        List<Ins> all = new ArrayList<>();
        base = new int[cpus];
        donePc = new int[cpus];
        for (int c = 0; c < cpus; c++) {
            base[c] = all.size();
            List<Ins> code = new CpuBuilder(dlb, variant, c, calls).build();
            donePc[c] = code.size() - 1;
            all.addAll(code);
        }
        int n = all.size();
        op = new int[n];
        lock = new int[n];
        held = new int[n];
        inside = new boolean[n];
        dropped = new boolean[n];
        busiest = new int[n];
        cite = new String[n];
        head = new String[n];
        target = new int[n * branches];
        ret = new int[n * branches];
        label = new String[n * branches];
        lockdep = new boolean[n * branches];
        lockdepWhy = new String[n * branches];
        clockStale = new boolean[n * branches];
        for (int g = 0; g < n; g++) {
            Ins i = all.get(g);
            op[g] = i.op;
            lock[g] = i.lock;
            held[g] = i.held;
            inside[g] = i.inside;
            dropped[g] = i.dropped;
            busiest[g] = i.busiest;
            cite[g] = i.cite;
            head[g] = i.head;
            for (int b = 0; b < branches; b++) {
                target[g * branches + b] = i.target[b];
                ret[g * branches + b] = i.ret[b];
                label[g * branches + b] = i.label[b];
                lockdep[g * branches + b] = i.lockdepWhy[b] != null;
                lockdepWhy[g * branches + b] = i.lockdepWhy[b];
                clockStale[g * branches + b] = i.clockStale[b];
            }
        }

        entryPc = new int[n];
        for (int g = 0; g < n; g++) {
            entryPc[g] = op[g] <= UNLOCK ? spinlock.entry(opOf(g)) : 0;
        }
        pcWaiting = new boolean[spinlock.pcs()];
        pcSuccessors = new int[spinlock.pcs()][];
        for (int p = 0; p < spinlock.pcs(); p++) {
            pcWaiting[p] = spinlock.waiting(p);
            pcSuccessors[p] = spinlock.successors(p).clone();
        }
        subBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(spinlock.pcs() - 1));
        waitAt = new int[n << subBits];
        for (int g = 0; g < n; g++) {
            for (int p = 0; p < spinlock.pcs(); p++) {
                waitAt[g << subBits | p] = op[g] == LOCK && inside[g] && pcWaiting[p] ? lock[g] : -1;
            }
        }

        RqSpinlock.Shape shape = spinlock.shape(cpus);
        boolean nodes = !shape.node().isEmpty();
        bitsPerLock = shape.lockWord().size() + (nodes ? 1 : 0);
        if ((long) bitsPerLock * cpus > 62) {
            throw new IllegalStateException("footprint bits: " + bitsPerLock + " per lock x " + cpus + " locks");
        }
        int pcs = spinlock.pcs();
        pcTouch = new long[pcs];
        pcFuture = new long[pcs];
        for (int p = 0; p < pcs; p++) {
            pcTouch[p] = globalBits(spinlock.footprint(p));
        }
        for (int p = 0; p < pcs; p++) {
            long f = 0;
            for (int q : spinlock.reachable(p)) {
                f |= pcTouch[q] == -1L ? 0 : pcTouch[q];
            }
            pcFuture[p] = f;
        }
        afterInPass = new long[n];
        futureInPass = new long[n];
        wholePass = new long[cpus];
        for (int c = 0; c < cpus; c++) {
            for (int pc = donePc[c]; pc >= 0; pc--) {
                int g = base[c] + pc;
                long after = 0;
                for (int b = 0; b < branches; b++) {
                    int t = target[g * branches + b];
                    if (t >= 0) {
                        if (t <= pc) {
                            throw new IllegalStateException("program is not a tree in emission order");
                        }
                        after |= futureInPass[base[c] + t];
                    }
                }
                afterInPass[g] = after;
                long own = op[g] <= UNLOCK ? pcFuture[spinlock.entry(opOf(g))] << lockShift(lock[g]) : 0;
                futureInPass[g] = own | after;
            }
            wholePass[c] = futureInPass[base[c]];
        }
    }

    /** The footprint bits of a spinlock step on lock 0; -1 if a node access cannot be attributed to the lock. */
    private long globalBits(long fp) {
        long words = fp & ~(RqSpinlock.NODES | RqSpinlock.OWN_NODE);
        if ((fp & RqSpinlock.NODES) != 0) {
            if (!spinlock.nodesPrivateToLock()) {
                return -1L;
            }
            words |= 1L << (bitsPerLock - 1);
        }
        return words;
    }

    /** Shift of lock {@code l}'s footprint bits. */
    int lockShift(int l) {
        return l * bitsPerLock;
    }

    /** The spinlock operation of lock instruction {@code g}. */
    RqSpinlock.Op opOf(int g) {
        return switch (op[g]) {
            case LOCK -> RqSpinlock.Op.LOCK;
            case TRY -> RqSpinlock.Op.TRYLOCK;
            case UNLOCK -> RqSpinlock.Op.UNLOCK;
            default -> throw new IllegalArgumentException("not a lock primitive: " + g);
        };
    }

    int callsPerPass() {
        return calls;
    }

    /** Number of program counters of {@code cpu} (its done state included). */
    int size(int cpu) {
        return donePc[cpu] + 1;
    }

    /** The lock CPU {@code cpu}'s instruction {@code g} waits for at spinlock pc {@code pc} inside double_lock_balance, or -1. */
    int waitsFor(int g, int pc) {
        return waitAt[g << subBits | pc];
    }

    /**
     * The branch instruction {@code g} takes when its primitive completes with {@code result}
     * ({@link RqSpinlock#DONE} or {@link RqSpinlock#FAILED}): 1 for a trylock that took the lock,
     * else 0.
     */
    int branchOf(int g, int result) {
        return op[g] == TRY && result == RqSpinlock.DONE ? 1 : 0;
    }

    /** One instruction while building. */
    private final class Ins {
        int op;
        int lock = -1;
        int held;
        boolean inside;
        boolean dropped;
        int busiest = -1;
        String cite = "";
        String head = "";
        final int[] target = filled(NONE);
        final int[] ret = filled(-1);
        final String[] label = new String[branches];
        final String[] lockdepWhy = new String[branches];
        final boolean[] clockStale = new boolean[branches];

        private int[] filled(int v) {
            int[] a = new int[branches];
            Arrays.fill(a, v);
            return a;
        }
    }

    /**
     * Where a CPU is, while emitting: what it holds (and which of those lockdep has at subclass
     * 1), whether it is inside the call, which call of the pass it is in.
     */
    private record Ctx(int held, int nested, boolean inside, boolean dropped, int busiest, int call, int clean) {
        Ctx withHeld(int h, int n) {
            return new Ctx(h, n, inside, dropped, busiest, call, clean & h);
        }

        Ctx withClean(int c) {
            return new Ctx(held, nested, inside, dropped, busiest, call, c);
        }
    }

    /** A point in the recorded code and the context there. */
    private record At(RecordedCode.Node node, Ctx ctx) {
    }

    /** What to emit after a recorded piece of code ends with a return value. */
    private interface Continuation {
        int emit(int ret, Ctx ctx);
    }

    private final class CpuBuilder {
        final DoubleLockBalance dlb;
        final String variant;
        final int cpu;
        final int calls;
        final List<Ins> code = new ArrayList<>();

        CpuBuilder(DoubleLockBalance dlb, String variant, int cpu, int calls) {
            this.dlb = dlb;
            this.variant = variant;
            this.cpu = cpu;
            this.calls = calls;
        }

        List<Ins> build() {
            Ctx start = new Ctx(0, 0, false, false, -1, 0, 0);
            RecordedCode.Node lockOwn = RecordedCode.record("variant '" + variant + "' caller lock of this_rq", config, k -> {
                dlb.callerLock(k, cpu);
                return 0;
            });
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
            call.cite = dlb.callers();
            int pc = add(call);
            for (int b = 0; b < cpus; b++) {
                if (b == cpu) {
                    continue;
                }
                final int busiest = b;
                call.label[b] = "double_lock_balance(this_rq=rq[" + cpu + "], busiest=rq[" + b + "])";
                RecordedCode.Node body = RecordedCode.record("variant '" + variant + "' double_lock_balance", config,
                        k -> dlb.doubleLockBalance(k, cpu, busiest));
                At start = skip(body, new Ctx(ctx.held(), ctx.nested(), true, false, b, ctx.call(), ctx.clean()));
                Ctx in = start.ctx();
                body = start.node();
                if (body.kind == RecordedCode.Kind.END) {
                    call.ret[b] = body.ret;
                    int need = (1 << config.lockp(cpu)) | (1 << config.lockp(b));
                    call.clockStale[b] = (in.clean() & need) != need;
                    call.label[b] += " returns " + body.ret;
                    call.target[b] = emitAfterReturn(new Ctx(in.held(), in.nested(), false, false, b, in.call(), in.clean()));
                } else {
                    call.target[b] = emit(body, in, true, (r, after) -> emitAfterReturn(after));
                }
            }
            return pc;
        }

        private int emitAfterReturn(Ctx ctx) {
            final int b = ctx.busiest();
            RecordedCode.Node body = RecordedCode.record("variant '" + variant + "' double_unlock_balance", config, k -> {
                dlb.doubleUnlockBalance(k, cpu, b);
                return 0;
            });
            return emit(body, ctx, false, (r, after) -> after.call() + 1 < calls
                    ? emitCall(new Ctx(after.held(), after.nested(), false, false, -1, after.call() + 1, 0))
                    : emitUnlockOwn(after));
        }

        private int emitUnlockOwn(Ctx ctx) {
            RecordedCode.Node body = RecordedCode.record("variant '" + variant + "' caller unlock of this_rq", config, k -> {
                dlb.callerUnlock(k, cpu);
                return 0;
            });
            return emit(body, ctx, false, (r, after) -> NEXT_ROUND);
        }

        /**
         * Emits the recorded tree {@code n} starting in {@code ctx}; {@code returns} says that
         * reaching its END returns from double_lock_balance. Returns the first pc.
         */
        private int emit(RecordedCode.Node n0, Ctx ctx0, boolean returns, Continuation then) {
            At at = skip(n0, ctx0);
            RecordedCode.Node n = at.node();
            Ctx ctx = at.ctx();
            if (n.kind == RecordedCode.Kind.END) {
                if (returns) {
                    throw new IllegalStateException("a return needs an edge");
                }
                return then.emit(n.ret, ctx);
            }
            int bit = 1 << n.rq;
            switch (n.kind) {
                case LOCK: {
                    Ins lk = ins(LOCK, n, ctx);
                    int pc = add(lk);
                    boolean sub1 = n.subclass == 1;
                    int sameSubclass = sub1 ? ctx.held() & ctx.nested() : ctx.held() & ~ctx.nested();
                    if (sameSubclass != 0) {
                        lk.lockdepWhy[0] = "CPU " + cpu + " takes " + n.head + " at lockdep subclass " + n.subclass
                                + " while holding " + names(sameSubclass) + " at the same subclass (lockdep: possible recursive locking)";
                    }
                    edge(lk, 0, n.children[0], ctx.withHeld(ctx.held() | bit, sub1 ? ctx.nested() | bit : ctx.nested() & ~bit)
                            .withClean(ctx.clean() & ~bit), returns, then);
                    return pc;
                }
                case TRYLOCK: {
                    Ins t = ins(TRY, n, ctx);
                    int pc = add(t);
                    edge(t, 0, n.children[0], ctx, returns, then);
                    edge(t, 1, n.children[1], ctx.withHeld(ctx.held() | bit, ctx.nested() & ~bit).withClean(ctx.clean() & ~bit),
                            returns, then);
                    return pc;
                }
                case UNLOCK: {
                    Ins u = ins(UNLOCK, n, ctx);
                    int pc = add(u);
                    boolean dropped = ctx.dropped() || (ctx.inside() && n.rq == config.lockp(cpu));
                    edge(u, 0, n.children[0], new Ctx(ctx.held() & ~bit, ctx.nested() & ~bit, ctx.inside(), dropped, ctx.busiest(),
                            ctx.call(), ctx.clean() & ~bit), returns, then);
                    return pc;
                }
                default:
                    throw new IllegalStateException(n.kind.toString());
            }
        }

        private String names(int mask) {
            StringBuilder b = new StringBuilder();
            for (int l = 0; l < cpus; l++) {
                if ((mask & (1 << l)) != 0) {
                    b.append(b.length() == 0 ? "" : ", ").append("rq[").append(l).append(']');
                }
            }
            return b.toString();
        }

        /**
         * Applies the pseudo-operations (lockdep {@code lock_set_subclass},
         * {@code double_rq_clock_clear_update}) at {@code n} to {@code ctx}: they are no steps.
         */
        private At skip(RecordedCode.Node n, Ctx ctx) {
            while (n.kind == RecordedCode.Kind.SUBCLASS || n.kind == RecordedCode.Kind.CLOCK) {
                int bit = 1 << n.rq;
                if (n.kind == RecordedCode.Kind.CLOCK) {
                    ctx = ctx.withClean(ctx.clean() | (ctx.held() & bit));
                } else if ((ctx.held() & bit) != 0) {
                    ctx = ctx.withHeld(ctx.held(), n.subclass == 1 ? ctx.nested() | bit : ctx.nested() & ~bit).withClean(ctx.clean());
                }
                n = n.children[0];
            }
            return new At(n, ctx);
        }

        /** Sets branch {@code b} of {@code from} to the code for {@code child0}. */
        private void edge(Ins from, int b, RecordedCode.Node child0, Ctx after0, boolean returns, Continuation then) {
            At at = skip(child0, after0);
            RecordedCode.Node child = at.node();
            Ctx after = at.ctx();
            from.label[b] = "";
            if (child.kind == RecordedCode.Kind.END && returns) {
                from.ret[b] = child.ret;
                from.label[b] = " \u2192 double_lock_balance returns " + child.ret;
                int need = (1 << config.lockp(cpu)) | (1 << config.lockp(after.busiest()));
                from.clockStale[b] = (after.clean() & need) != need;
                Ctx out = new Ctx(after.held(), after.nested(), false, after.dropped(), after.busiest(), after.call(), after.clean());
                from.target[b] = then.emit(child.ret, out);
            } else {
                from.target[b] = emit(child, after, returns, then);
            }
        }

        private Ins ins(int op, RecordedCode.Node n, Ctx ctx) {
            Ins i = new Ins();
            i.op = op;
            i.lock = n.rq;
            i.held = ctx.held();
            i.inside = ctx.inside();
            i.dropped = ctx.dropped();
            i.busiest = ctx.busiest();
            i.cite = n.cite;
            i.head = n.head;
            return i;
        }
    }
}
