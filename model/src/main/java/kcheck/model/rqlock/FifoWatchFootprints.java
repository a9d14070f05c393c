package kcheck.model.rqlock;

import static kcheck.model.rqlock.RqLockProgram.CALL;
import static kcheck.model.rqlock.RqLockProgram.NEXT_ROUND;
import static kcheck.model.rqlock.RqLockProgram.UNLOCK;

/**
 * Partial-order footprints of {@code fifo-entry}'s monitor with {@code fifo-monitor=one}
 * ({@link RqLockLayout#watchOne}), in place of making every call, return and change of a wait
 * visible, as the monitor of every call needs.
 *
 * <p>The monitor of one call is a shared object of the product of the model and the monitor, and
 * its reads and writes are footprints like a lock word's: the watch ({@code M}: which call, and its
 * waiting-at-entry set) and, per CPU {@code a}, {@code a}'s wait status ({@code W_a}: which lock it
 * waits for inside double_lock_balance, if any). With no call watched, a CALL reads every other
 * CPU's wait status and writes the watch (it may start one); while a call is watched, a CALL touches
 * neither (it cannot start one now; a later CALL of the same CPU is in its future). A step that
 * changes a CPU's wait status writes its {@code W}, and the watch too if that CPU is in the watched
 * set (it leaves it, and may end the watch). The watched CPU's return reads the watched set's waits
 * and is visible: it is the one step at which fifo-entry can fail. Other returns touch nothing of the
 * monitor. A CPU's future holds {@code M} and every {@code W} while it has a CALL ahead, {@code M}
 * and its own {@code W} while it may still wait inside a call, and the watched set's {@code W} and
 * {@code M} while it is the watched CPU.
 *
 * <p>Sound by the usual argument for a product: a step of CPU {@code p} is taken alone only if no
 * other CPU may later touch what it touches, now with the monitor's objects among them, so moving
 * it before the others' steps changes neither the model's nor the monitor's state at which any
 * later step runs; the one step that can break the property stays visible.
 */
final class FifoWatchFootprints {
    private final RqLockLayout lay;
    private final RqLockProgram prog;
    private final int n;
    private final int subBits;
    /** Bit of object {@code M}; {@code W_a} is bit {@code wShift + a}. */
    private final long m;
    private final int wShift;
    private final long wAll;
    /** Per (instruction, spinlock pc), {@code g << subBits | pc}: the step may change the CPU's wait status. */
    private final boolean[] waitChange;
    /** Per (instruction, spinlock pc): some completion of the step returns from double_lock_balance. */
    private final boolean[] returns;
    /** Per instruction: a CALL at or after it in the pass. */
    private final boolean[] callAhead;
    /** Per instruction: an instruction at or after it in the pass at which the CPU waits inside the call. */
    private final boolean[] waitAhead;
    /** Per CPU: a CALL, or a wait inside the call, somewhere in its pass (what a later round does). */
    private final boolean[] callInPass;
    private final boolean[] waitInPass;

    /** The footprint bits left above the lock words' for the monitor's objects, or null if too few. */
    static FifoWatchFootprints of(RqLockLayout lay, int subBits) {
        RqLockProgram prog = lay.prog;
        int used = prog.bitsPerLock * prog.cpus;
        int need = lay.n + 1;
        if (used + need > 63) {
            return null;
        }
        return new FifoWatchFootprints(lay, subBits, used);
    }

    private FifoWatchFootprints(RqLockLayout lay, int subBits, int used) {
        this.lay = lay;
        this.prog = lay.prog;
        this.n = lay.n;
        this.subBits = subBits;
        this.wShift = used;
        this.wAll = ((1L << n) - 1) << wShift;
        this.m = 1L << (used + n);
        int pcs = lay.spinlock.pcs();
        int size = prog.op.length << subBits;
        waitChange = new boolean[size];
        returns = new boolean[size];
        callAhead = new boolean[prog.op.length];
        waitAhead = new boolean[prog.op.length];
        waitInPass = new boolean[n];
        callInPass = new boolean[n];
        for (int c = 0; c < n; c++) {
            for (int pc = prog.donePc[c]; pc >= 0; pc--) {
                int g = prog.base[c] + pc;
                boolean call = prog.op[g] == CALL;
                boolean wait = false;
                if (prog.op[g] <= UNLOCK) {
                    for (int sp = 0; sp < pcs; sp++) {
                        wait |= prog.waitsFor(g, sp) >= 0;
                        tabulate(c, g, sp);
                    }
                }
                for (int b = 0; b < prog.branches; b++) {
                    int t = prog.target[g * prog.branches + b];
                    if (t >= 0) {
                        call |= callAhead[prog.base[c] + t];
                        wait |= waitAhead[prog.base[c] + t];
                    }
                }
                callAhead[g] = call;
                waitAhead[g] = wait;
            }
            callInPass[c] = callAhead[prog.base[c]];
            waitInPass[c] = waitAhead[prog.base[c]];
        }
    }

    /** Fills {@link #waitChange} and {@link #returns} for lock instruction {@code g} of CPU {@code c} at spinlock pc {@code sp}. */
    private void tabulate(int c, int g, int sp) {
        int gp = g << subBits | sp;
        int wFrom = prog.waitsFor(g, sp);
        boolean change = false;
        boolean ret = false;
        for (int r : lay.spinlock.successors(sp)) {
            if (r >= 0) {
                change |= prog.waitsFor(g, r) != wFrom;
                continue;
            }
            int e = g * prog.branches + prog.branchOf(g, r);
            int t = prog.target[e];
            if (t == RqLockProgram.NONE) {
                continue;
            }
            int tg = prog.base[c] + (t == NEXT_ROUND ? 0 : t);
            /* a completed wait ends even if the next instruction waits for the same lock at once */
            change |= wFrom >= 0 || prog.waitsFor(tg, prog.entryPc[tg]) >= 0;
            ret |= prog.ret[e] >= 0;
        }
        waitChange[gp] = change;
        returns[gp] = ret;
    }

    /**
     * Adds the monitor's objects to {@code step} and {@code future}, which hold the lock words'
     * (and -1 where the step is visible for another reason). {@code gs[c]} is CPU {@code c}'s
     * {@code g << subBits | pc}.
     */
    void add(long[] s, int[] gs, long[] step, long[] future) {
        int w = lay.watch.getInt(s);
        int watched = w - 1;
        long mask = watched < 0 ? 0 : lay.watchMask.get(s);
        for (int c = 0; c < n; c++) {
            int gp = gs[c];
            int g = gp >>> subBits;
            boolean more = lay.round[c].getInt(s) + 1 < lay.rounds;
            if (step[c] != -1L) {
                long fp = step[c];
                if (prog.op[g] == CALL) {
                    fp |= watched < 0 ? wAll | m : 0;
                } else if (prog.op[g] <= UNLOCK) {
                    if (c == watched && returns[gp]) {
                        fp = -1L;
                    } else if (waitChange[gp]) {
                        fp |= 1L << (wShift + c);
                        if ((mask & (1L << c)) != 0) {
                            fp |= m;
                        }
                    }
                }
                step[c] = fp;
            }
            long f = 0;
            if (callAhead[g] || more && callInPass[c]) {
                f |= wAll | m;
            }
            if (waitAhead[g] || more && waitInPass[c]) {
                f |= 1L << (wShift + c) | m;
            }
            if (c == watched) {
                f |= mask << wShift | m;
            }
            future[c] = future[c] == -1L ? -1L : future[c] | f;
        }
    }
}
