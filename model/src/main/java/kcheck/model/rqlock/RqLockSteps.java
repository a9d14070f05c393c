package kcheck.model.rqlock;

import static kcheck.model.rqlock.RqLockProgram.CALL;
import static kcheck.model.rqlock.RqLockProgram.NEXT_ROUND;
import static kcheck.model.rqlock.RqLockProgram.TRY;
import static kcheck.model.rqlock.RqLockProgram.UNLOCK;

import kcheck.model.Layout;
import kcheck.model.ModelLimitException;
import kcheck.model.StepSink;

/**
 * Step enumeration of the rq-lock model: each CPU's next step (a spinlock step of its current lock
 * primitive, or the choice of busiest), the monitor updates that go with it, the footprints for
 * partial-order reduction and the canonical form. One instance per thread ({@link #fork()}).
 *
 * <p>An action number encodes the instruction, the spinlock pc the step starts from and where it
 * goes, in bit fields: {@code (pc << subBits | sub) << kBits | k}, {@code k} the next spinlock
 * pc, {@code S} (the spinlock's pcs) for {@link RqSpinlock#DONE}, {@code S + 1} for
 * {@link RqSpinlock#FAILED}, {@code S + 2} for a spin step ({@code starvation-free} only), or for a
 * {@code CALL} the busiest CPU (shifts and masks: the step
 * properties decode it on every transition).
 *
 * <p>The partial-order footprints come from tables per (instruction, spinlock pc), built once per
 * model from the definitions {@link #footprints} gives.
 */
final class RqLockSteps {
    final RqLockLayout lay;
    final RqLockProgram prog;
    final RqSpinlock lock;
    final int n;
    final int rounds;
    final int width;
    final int pcs;
    final int radix;
    /** Bits of the spinlock pc ({@code sub}) and of {@code k} in an action. */
    final int subBits;
    final int kBits;
    private final boolean monitors;
    /** With fifo-monitor=one: the watch's footprints (else null, and the monitors' steps are visible). */
    private final FifoWatchFootprints fifoWatch;
    private final boolean mutex;
    /** allowed[pc][result + 3]: the spinlock declares that result (checked at run time). */
    private final boolean[][] allowed;
    /** The declared footprint of each spinlock pc (checked at run time). */
    private final long[] declared;
    /**
     * Per (instruction g, spinlock pc), index {@code g << subBits | pc}: the footprint of the step
     * before the mutual-exclusion test ({@code -1}: visible whatever the state), the locks whose
     * held status the step's completions change (visible if another CPU holds one), and everything
     * the CPU may touch from there within the pass.
     */
    private final long[] stepFp;
    private final int[] stepChg;
    private final long[] futureAt;

    /* per-thread scratch */
    private final long[] nx;
    private final int[] gs;
    private final RqLockLayout.Memory mem;

    RqLockSteps(RqLockLayout lay, boolean mutex) {
        this.lay = lay;
        this.prog = lay.prog;
        this.lock = lay.spinlock;
        this.n = lay.n;
        this.rounds = lay.rounds;
        this.width = lay.width;
        this.pcs = lock.pcs();
        /* a CALL's k: the busiest CPU, plus prog.branches when the call is the one fifo-monitor=one watches */
        this.radix = Math.max(lay.watchOne ? 2 * prog.branches : prog.branches, pcs + 3);
        this.subBits = prog.subBits;
        this.kBits = 32 - Integer.numberOfLeadingZeros(radix - 1);
        this.fifoWatch = lay.watchOne && !lay.bypass && !lay.sanity ? FifoWatchFootprints.of(lay, subBits) : null;
        /* the monitors make calls, returns and wait changes visible, unless fifo-entry's one watch declares its footprints */
        this.monitors = (lay.fifo || lay.bypass || lay.overtake) && fifoWatch == null;
        this.mutex = mutex;
        this.allowed = new boolean[pcs][pcs + 3];
        this.declared = new long[pcs];
        for (int p = 0; p < pcs; p++) {
            declared[p] = lock.footprint(p);
            allowed[p][0] = true;
            for (int r : lock.successors(p)) {
                if (r < RqSpinlock.FAILED || r >= pcs) {
                    throw new ModelLimitException("rq-lock: spinlock '" + lock.name() + "' declares successor " + r + " of pc " + p
                            + ", which is not a pc (0.." + (pcs - 1) + "), DONE or FAILED");
                }
                allowed[p][r + 3] = true;
            }
        }
        this.nx = new long[width];
        this.gs = new int[n];
        this.mem = lay.new Memory();
        int size = prog.op.length << subBits;
        this.stepFp = new long[size];
        this.stepChg = new int[size];
        this.futureAt = new long[size];
        for (int g = 0; g < prog.op.length; g++) {
            for (int sp = 0; sp < pcs; sp++) {
                tabulate(g, sp);
            }
        }
    }

    private RqLockSteps(RqLockSteps o) {
        this.lay = o.lay;
        this.prog = o.prog;
        this.lock = o.lock;
        this.n = o.n;
        this.rounds = o.rounds;
        this.width = o.width;
        this.pcs = o.pcs;
        this.radix = o.radix;
        this.subBits = o.subBits;
        this.kBits = o.kBits;
        this.monitors = o.monitors;
        this.fifoWatch = o.fifoWatch;
        this.mutex = o.mutex;
        this.allowed = o.allowed;
        this.declared = o.declared;
        this.stepFp = o.stepFp;
        this.stepChg = o.stepChg;
        this.futureAt = o.futureAt;
        this.nx = new long[width];
        this.gs = new int[n];
        this.mem = lay.new Memory();
    }

    RqLockSteps fork() {
        return new RqLockSteps(this);
    }

    /* ---------------- actions ---------------- */

    int action(int pc, int sub, int k) {
        return (pc << subBits | sub) << kBits | k;
    }

    /** The instruction (global index) of {@code actor}'s {@code action}. */
    int instruction(int actor, int action) {
        return prog.base[actor] + (action >>> (subBits + kBits));
    }

    /** The spinlock pc the action starts from (0 for a CALL). */
    int subOf(int action) {
        return (action >>> kBits) & ((1 << subBits) - 1);
    }

    /** The spinlock result of the action ({@code k} decoded), or the busiest CPU of a CALL. */
    int resultOf(int actor, int action) {
        int k = action & ((1 << kBits) - 1);
        if (prog.op[instruction(actor, action)] == CALL) {
            return k % prog.branches;
        }
        return k < pcs ? k : k == pcs ? RqSpinlock.DONE : k == pcs + 1 ? RqSpinlock.FAILED : RqSpinlock.BLOCKED;
    }

    /** The program edge the action takes (it completes a primitive, or is a CALL), or -1. */
    int edge(int actor, int action) {
        int g = instruction(actor, action);
        int k = action & ((1 << kBits) - 1);
        int op = prog.op[g];
        if (op == CALL) {
            return g * prog.branches + k % prog.branches;
        }
        if (k < pcs || k == pcs + 2) {
            return -1;
        }
        /* a completed primitive: only a trylock that took the lock (DONE) takes branch 1 */
        return g * prog.branches + (op == TRY && k == pcs ? 1 : 0);
    }

    /** True if {@code action} is a CALL that {@code fifo-monitor=one} watches from then on. */
    boolean startsWatch(int actor, int action) {
        int k = action & ((1 << kBits) - 1);
        return prog.op[instruction(actor, action)] == CALL && k >= prog.branches;
    }

    private int encode(int result) {
        return result >= 0 ? result : result == RqSpinlock.DONE ? pcs : pcs + 1;
    }

    /* ---------------- successors ---------------- */

    void initial(long[] s) {
        for (int c = 0; c < n; c++) {
            enter(s, c, prog.base[c]);
        }
    }

    /** Sets the spinlock pc for CPU {@code c} arriving at instruction {@code g}. */
    private void enter(long[] s, int c, int g) {
        lay.sub[c].set(s, prog.entryPc[g]);
    }

    /** The initial states: one, or with {@code starvation-free} one per watched CPU. */
    void initial(kcheck.model.StateSink out) {
        for (int v = 0; v < (lay.forever ? n : 1); v++) {
            long[] s = new long[width];
            initial(s);
            lay.victim.set(s, v);
            out.state(s);
        }
    }

    void successors(long[] s, StepSink out) {
        final int b = prog.branches;
        final long[] nx = this.nx;
        int blocked = 0;
        boolean stepped = false;
        for (int c = 0; c < n; c++) {
            int p = lay.pc[c].getInt(s);
            int g = prog.base[c] + p;
            int op = prog.op[g];
            if (op <= UNLOCK) {
                int sp = lay.sub[c].getInt(s);
                int l = prog.lock[g];
                int r = checkedStep(s, nx, c, l, sp);
                if (r == RqSpinlock.BLOCKED) {
                    blocked |= 1 << c;
                    continue;
                }
                stepped = true;
                if (r >= 0) {
                    lay.sub[c].set(nx, r);
                    int from = prog.waitsFor(g, sp);
                    if (lay.fifo && from >= 0 && prog.waitsFor(g, r) != from) {
                        endWait(c);
                    }
                } else {
                    Layout.Field[] regs = lay.reg[c];
                    for (int f = 0; f < regs.length; f++) {
                        regs[f].set(nx, 0);
                    }
                    if (lay.fifo && prog.waitsFor(g, sp) >= 0) {
                        endWait(c);
                    }
                    advance(s, c, g, prog.branchOf(g, r));
                }
                out.step(c, action(p, sp, encode(r)), nx);
            } else if (op == CALL) {
                for (int busiest = 0; busiest < n; busiest++) {
                    if (prog.target[g * b + busiest] == RqLockProgram.NONE) {
                        continue;
                    }
                    System.arraycopy(s, 0, nx, 0, width);
                    long entered = advance(s, c, g, busiest);
                    out.step(c, action(p, 0, busiest), nx);
                    stepped = true;
                    if (lay.watchOne && entered != 0 && lay.watch.getInt(s) == 0 && prog.ret[g * b + busiest] < 0) {
                        /* the same step, with fifo-entry's monitor watching this call */
                        lay.watch.set(nx, c + 1);
                        lay.watchMask.set(nx, entered);
                        out.step(c, action(p, 0, busiest + b), nx);
                    }
                }
            }
        }
        if (lay.forever && stepped) {
            spins(s, blocked, out);
        }
    }

    /**
     * With {@code starvation-free} (weak fairness of the CPUs): a CPU in a spin loop whose
     * condition is false still runs, loading the word and finding it unchanged: a step that
     * changes nothing (a spin step, action {@code k = S + 2}). It is what lets a fair run leave a
     * spinner behind while others keep the word changing (a test-and-set lock that is never seen
     * free); a CPU whose spin would succeed has no spin step, so fairness makes it succeed. No
     * spin steps where no CPU can do anything else: that state is a deadlock.
     */
    private void spins(long[] s, int blocked, StepSink out) {
        for (int c = 0; c < n; c++) {
            if ((blocked & (1 << c)) != 0) {
                int sp = lay.sub[c].getInt(s);
                System.arraycopy(s, 0, nx, 0, width);
                out.step(c, action(lay.pc[c].getInt(s), sp, pcs + 2), nx);
            }
        }
    }

    /** True if {@code action} of a CPU is a spin step ({@link #spins}). */
    boolean isSpin(int actor, int action) {
        int k = action & ((1 << kBits) - 1);
        return prog.op[instruction(actor, action)] <= UNLOCK && k == pcs + 2;
    }

    /**
     * One step of CPU {@code c} at spinlock pc {@code sp} on lock {@code l}, run on the spinlock
     * itself with every access checked: reads {@code s}; unless it is {@link RqSpinlock#BLOCKED},
     * {@code nx} is the successor (lock word, registers and nodes as the step left them; the rest
     * as in {@code s}). Returns the step's result.
     */
    private int checkedStep(long[] s, long[] nx, int c, int l, int sp) {
        RqLockLayout.Memory m = mem.bind(s, nx, c, l);
        int r = lock.step(sp, m);
        if (r == RqSpinlock.BLOCKED) {
            return r;
        }
        m.commit();
        check(sp, r, m.touched);
        return r;
    }

    private void check(int sp, int r, long touched) {
        if (!allowed[sp][r + 3]) {
            throw new ModelLimitException("rq-lock: spinlock '" + lock.name() + "' went from pc " + sp + " to " + r
                    + ", which successors(" + sp + ") does not declare");
        }
        if ((touched & RqLockLayout.Memory.OWN) != 0 && (declared[sp] & (RqSpinlock.NODES | RqSpinlock.OWN_NODE)) != 0) {
            touched &= ~RqLockLayout.Memory.OWN;
        }
        if ((touched & ~declared[sp]) != 0) {
            throw new ModelLimitException("rq-lock: spinlock '" + lock.name() + "' accessed lock-word fields or nodes its footprint("
                    + sp + ") does not declare (partial-order reduction relies on it)");
        }
    }

    /** CPU {@code c}'s wait ended: it leaves every waiting-at-entry set. */
    private void endWait(int c) {
        long bit = 1L << c;
        /* with fifo-monitor=one only the watched CPU has a set (entryMask is 0 for every CPU while none is watched) */
        int from = lay.watchOne ? Math.max(0, lay.watch.getInt(nx) - 1) : 0;
        int to = lay.watchOne ? from + 1 : n;
        for (int a = from; a < to; a++) {
            long m = lay.entryMask(nx, a);
            if ((m & bit) != 0) {
                lay.narrowEntryMask(nx, a, m & ~bit);
            }
        }
    }

    /**
     * Moves CPU {@code c} along program branch {@code branch} of instruction {@code g}, updating
     * monitors in {@code nx}. Returns the waiting-at-entry set of a CALL (0 for other steps), which
     * {@code fifo-monitor=one} keeps only if the search watches the call.
     */
    private long advance(long[] s, int c, int g, int branch) {
        int e = g * prog.branches + branch;
        long entered = 0;
        if (prog.op[g] == CALL && lay.overtake) {
            lay.ovt[c].set(nx, 0);
        }
        if (prog.op[g] == CALL && lay.fifo) {
            /* only waiters for a lock this call can return holding (this_rq, busiest) can be overtaken by it */
            int locks = (1 << prog.config.lockp(c)) | (1 << prog.config.lockp(branch));
            long waiting = 0;
            for (int a = 0; a < n; a++) {
                int l = a == c ? -1 : lay.waitsFor(s, a);
                if (l >= 0 && (locks & (1 << l)) != 0) {
                    waiting |= 1L << a;
                }
            }
            entered = waiting;
            if (!lay.watchOne) {
                lay.fifoMask[c].set(nx, waiting);
            }
        }
        if (prog.ret[e] >= 0) {
            if (lay.overtake) {
                long mask = lay.fifoMask[c].get(s);
                int heldAfter = prog.held[prog.base[c] + targetPc(c, s, e)];
                for (int a = 0; a < n; a++) {
                    if ((mask & (1L << a)) != 0) {
                        int l = lay.waitsFor(s, a);
                        long v = lay.ovt[a].get(nx);
                        if (l >= 0 && (heldAfter & (1 << l)) != 0 && v < lay.metricCap) {
                            lay.ovt[a].set(nx, v + 1);
                        }
                    }
                }
                lay.ovt[c].set(nx, 0);
            }
            if (lay.fifo) {
                lay.narrowEntryMask(nx, c, 0);
            }
            if (lay.bypass) {
                for (int a = 0; a < n; a++) {
                    if (a != c && prog.inside[lay.g(s, a)]) {
                        long v = lay.byp[a].get(nx);
                        if (v < lay.metricCap) {
                            lay.byp[a].set(nx, v + 1);
                        }
                    }
                }
                lay.byp[c].set(nx, 0);
            }
        }
        int t = prog.target[e];
        int next;
        if (t == NEXT_ROUND) {
            int r = lay.round[c].getInt(s);
            if (r + 1 < rounds) {
                lay.round[c].set(nx, r + 1);
                next = 0;
            } else {
                lay.round[c].set(nx, 0);
                next = lay.forever ? 0 : prog.donePc[c];
            }
        } else {
            next = t;
        }
        lay.pc[c].set(nx, next);
        enter(nx, c, prog.base[c] + next);
        return entered;
    }

    /** The local pc edge {@code e} of CPU {@code c} leads to (resolving the end of a pass). */
    int targetPc(int c, long[] s, int e) {
        int t = prog.target[e];
        if (t != NEXT_ROUND) {
            return t;
        }
        return lay.round[c].getInt(s) + 1 < rounds || lay.forever ? 0 : prog.donePc[c];
    }

    boolean isFinal(long[] s) {
        if (lay.forever) {
            return false;
        }
        for (int c = 0; c < n; c++) {
            if (lay.pc[c].getInt(s) != prog.donePc[c]) {
                return false;
            }
        }
        return true;
    }

    /* ---------------- partial-order reduction ---------------- */

    /**
     * A CPU's next step is visible if it can change what a selected property observes.
     * mutual-exclusion observes only "some lock has two holders": a primitive changes that only
     * if another CPU holds the same lock now, and no other CPU can touch that lock's words before
     * the step runs (that is what makes it part of an ample set), so that stays true wherever
     * the reduction moves the step. holds-both-on-return, return-contract and lockdep-subclass read
     * only the returning CPU's own program counter and need nothing. The monitors (fifo-entry,
     * bypass, overtake) read every CPU's wait and call status: steps that change it, calls and
     * returns are visible to them.
     */
    void footprints(long[] s, long[] step, long[] future) {
        int[] gs = this.gs;
        int heldBy = 0;
        int heldTwice = 0;
        for (int c = 0; c < n; c++) {
            int g = lay.g(s, c);
            int gp = g << subBits | lay.sub[c].getInt(s);
            gs[c] = gp;
            int h = prog.held[g];
            heldTwice |= heldBy & h;
            heldBy |= h;
            long f = futureAt[gp];
            future[c] = lay.round[c].getInt(s) + 1 < rounds || lay.forever ? f | prog.wholePass[c] : f;
        }
        for (int c = 0; c < n; c++) {
            int gp = gs[c];
            long fp = stepFp[gp];
            if (fp != -1L && mutex) {
                int own = prog.held[gp >>> subBits];
                /* the locks some other CPU holds: held by anyone, minus those only this CPU holds */
                int others = (heldBy & ~own) | heldTwice;
                if ((stepChg[gp] & others) != 0) {
                    fp = -1L;
                }
            }
            step[c] = fp;
        }
        if (fifoWatch != null) {
            fifoWatch.add(s, gs, step, future);
        }
    }

    /**
     * Fills the footprint tables for CPU instruction {@code g} at spinlock pc {@code sp} (see
     * {@link #footprints}): a CALL is visible to the monitors and touches nothing; a lock step
     * touches its spinlock pc's footprint on its lock, and is visible if the lock's footprint is
     * not attributable to one lock, if the monitors see it change the CPU's wait, call or return
     * status, or (mutual-exclusion, tested per state) if a completion takes or releases a lock
     * another CPU holds.
     */
    private void tabulate(int g, int sp) {
        int gp = g << subBits | sp;
        int b = prog.branches;
        int op = prog.op[g];
        if (op > UNLOCK) {
            futureAt[gp] = prog.futureInPass[g];
            stepFp[gp] = op == CALL && monitors ? -1L : 0L;
            return;
        }
        int shift = prog.lockShift(prog.lock[g]);
        futureAt[gp] = prog.pcFuture[sp] << shift | prog.afterInPass[g];
        if (lay.sanity) {
            /* sanity-lock-word reads every lock word and every CPU's operation on it */
            stepFp[gp] = -1L;
            return;
        }
        int c = cpuOf(g);
        int own = prog.held[g];
        long fp = prog.pcTouch[sp];
        if (fp != -1L) {
            fp <<= shift;
        }
        int chg = 0;
        int wFrom = prog.waitsFor(g, sp);
        for (int r : prog.pcSuccessors[sp]) {
            if (r >= 0) {
                if (monitors && prog.waitsFor(g, r) != wFrom) {
                    fp = -1L;
                }
                continue;
            }
            int e = g * b + prog.branchOf(g, r);
            int t = prog.target[e];
            if (t == RqLockProgram.NONE) {
                continue; /* no such branch: the spinlock pc belongs to another operation (never reached here) */
            }
            int heldAfter = t == NEXT_ROUND ? 0 : prog.held[prog.base[c] + t];
            chg |= heldAfter ^ own;
            if (monitors) {
                int tg = prog.base[c] + (t == NEXT_ROUND ? 0 : t);
                if (prog.ret[e] >= 0 || wFrom >= 0
                        || (t != NEXT_ROUND && (entryWaits(tg) || prog.inside[tg] != prog.inside[g]))) {
                    fp = -1L;
                }
            }
        }
        stepFp[gp] = fp;
        stepChg[gp] = mutex ? chg : 0;
    }

    /** The CPU whose program instruction {@code g} belongs to. */
    private int cpuOf(int g) {
        int c = 0;
        while (c + 1 < n && prog.base[c + 1] <= g) {
            c++;
        }
        return c;
    }

    /** True if a CPU arriving at instruction {@code tg} waits for a lock at once (a test-and-set spin). */
    private boolean entryWaits(int tg) {
        return prog.op[tg] <= UNLOCK && prog.waitsFor(tg, prog.entryPc[tg]) >= 0;
    }

    void canonicalize(long[] s) {
        lock.canonicalize(mem.bind(s, -1, -1));
    }
}
