package kcheck.model.rqlock;

import java.util.Arrays;

/**
 * The grading of the rq-lock state graph ({@link kcheck.model.Model#rank}): the number of steps
 * the CPUs have taken. Every step is one CPU's, and moves its program counter or its spinlock's
 * pc, so the count is a function of the state exactly when each CPU reaches each (instruction,
 * spinlock pc) after one number of its own steps, whatever path it took. The programs are trees,
 * so this holds when every spinlock operation ends each way (taken, failed) after one number of
 * steps and every pass has one length. Those are checked here, from the spinlock's declared
 * control flow; a spinlock with loops, or paths of different lengths, gives no grading
 * ({@link #of} returns null), and the engine checks the claim on every state anyway.
 */
final class RqLockRank {
    private final RqLockLayout lay;
    private final RqLockProgram prog;
    /** Per global instruction: the CPU's own steps in the pass before it starts. */
    private final int[] before;
    /** Per spinlock entry pc, per spinlock pc: the operation's steps from its entry. */
    private final int[][] inOp;
    private final int passLength;

    private RqLockRank(RqLockLayout lay, int[] before, int[][] inOp, int passLength) {
        this.lay = lay;
        this.prog = lay.prog;
        this.before = before;
        this.inOp = inOp;
        this.passLength = passLength;
    }

    /** The grading of this program and spinlock, or null if the step counts depend on the path. */
    static RqLockRank of(RqLockLayout lay) {
        RqLockProgram prog = lay.prog;
        RqSpinlock lock = prog.spinlock;
        int pcs = lock.pcs();
        int[][] inOp = new int[pcs][];
        /* per entry pc: the steps to DONE (index 0) and to FAILED (index 1) */
        int[][] exit = new int[pcs][];
        for (RqSpinlock.Op op : RqSpinlock.Op.values()) {
            int e = lock.entry(op);
            if (inOp[e] != null) {
                continue;
            }
            int[] dist = new int[pcs];
            int[] out = {-1, -1};
            Arrays.fill(dist, -1);
            dist[e] = 0;
            if (!walk(lock, e, dist, out)) {
                return null;
            }
            inOp[e] = dist;
            exit[e] = out;
        }
        int b = prog.branches;
        int[] before = new int[prog.op.length];
        Arrays.fill(before, -1);
        int pass = -1;
        for (int c = 0; c < prog.cpus; c++) {
            int g0 = prog.base[c];
            before[g0] = 0;
            for (int pc = 0; pc < prog.donePc[c]; pc++) {
                int g = g0 + pc;
                if (before[g] < 0) {
                    continue;
                }
                for (int br = 0; br < b; br++) {
                    int t = prog.target[g * b + br];
                    if (t == RqLockProgram.NONE) {
                        continue;
                    }
                    int len;
                    if (prog.op[g] == RqLockProgram.CALL) {
                        len = 1;
                    } else if (prog.op[g] <= RqLockProgram.UNLOCK) {
                        /* branch 1 of a trylock is "taken" (DONE), branch 0 "failed"; other primitives only complete */
                        boolean failed = prog.op[g] == RqLockProgram.TRY && br == 0;
                        len = exit[prog.entryPc[g]][failed ? 1 : 0];
                        if (len < 0) {
                            continue;
                        }
                    } else {
                        continue;
                    }
                    int at = before[g] + len;
                    if (t == RqLockProgram.NEXT_ROUND) {
                        if (pass >= 0 && pass != at) {
                            return null;
                        }
                        pass = at;
                    } else {
                        int tg = g0 + t;
                        if (before[tg] >= 0 && before[tg] != at) {
                            return null;
                        }
                        before[tg] = at;
                    }
                }
            }
        }
        return new RqLockRank(lay, before, inOp, Math.max(0, pass));
    }

    /** Depth-first over the spinlock's declared steps from {@code pc}: false if a pc or an exit is reached after two different counts. */
    private static boolean walk(RqSpinlock lock, int pc, int[] dist, int[] exit) {
        int d = dist[pc] + 1;
        for (int s : lock.successors(pc)) {
            if (s == RqSpinlock.DONE || s == RqSpinlock.FAILED) {
                int i = s == RqSpinlock.DONE ? 0 : 1;
                if (exit[i] >= 0 && exit[i] != d) {
                    return false;
                }
                exit[i] = d;
            } else if (s >= 0) {
                if (dist[s] >= 0) {
                    if (dist[s] != d) {
                        return false;
                    }
                    continue;
                }
                dist[s] = d;
                if (!walk(lock, s, dist, exit)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The CPUs' steps taken to reach {@code s}. */
    long of(long[] s) {
        long r = 0;
        for (int c = 0; c < prog.cpus; c++) {
            int pc = lay.pc[c].getInt(s);
            if (pc == prog.donePc[c]) {
                r += (long) lay.rounds * passLength;
                continue;
            }
            int g = prog.base[c] + pc;
            int at = before[g];
            if (prog.op[g] <= RqLockProgram.UNLOCK) {
                at += inOp[prog.entryPc[g]][lay.sub[c].getInt(s)];
            }
            r += (long) lay.round[c].getInt(s) * passLength + at;
        }
        return r;
    }
}
