package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbRedoLayout.DONE;
import static kcheck.model.lbredo.LoadBalance.ENTRY;
import static kcheck.model.lbredo.LoadBalance.NR_RUNNING;
import static kcheck.model.lbredo.LoadBalance.REDO;

import java.util.Arrays;

import kcheck.model.StateSink;
import kcheck.model.StepSink;

/**
 * Step enumeration of the lb-redo model: the initial states, the successors of a state (CPU 0's
 * next piece of {@code load_balance()}, once per busiest candidate when it searches, and the pulls
 * of other CPUs) and the canonical form of the CPU-symmetry reduction. One instance per search
 * worker: it owns the scratch machine the reference code runs on.
 *
 * <p>Action encoding of CPU 0's steps: {@code (at << 12) | (ret << 8) | sub}, where {@code at} is
 * the resume point, {@code ret} where it stopped (or the exit), and {@code sub} the busiest CPU
 * + 1 (search, detach) or the {@code nr_running} read (the unlocked test). A pull is
 * {@code cpu * 8 + task index}.
 */
final class LbRedoSteps {
    private final LbRedoLayout l;
    private final LbDomain d;
    private final LoadBalance impl;

    private final Sched sched;
    private final LoadBalanceCall call = new LoadBalanceCall();
    private final long[] nx;
    private final long[] keys;
    private final long[] tmp;

    LbRedoSteps(LbRedoLayout l, LoadBalance impl) {
        this.l = l;
        this.d = l.d;
        this.impl = impl;
        this.sched = l.newSched();
        this.nx = new long[l.width];
        this.keys = new long[d.remote.length];
        this.tmp = new long[l.width];
    }

    void initial(StateSink out) {
        int r = d.remote.length;
        int[] choice = new int[r];
        long[] s = new long[l.width];
        while (true) {
            Arrays.fill(s, 0L);
            l.pc.set(s, ENTRY);
            l.pullsLeft.set(s, d.pulls);
            for (int j = 0; j < r; j++) {
                int c = d.remote[j];
                l.pat[c].set(s, choice[j]);
                int tasks = d.patterns[c][choice[j]].length;
                l.len[c].set(s, tasks);
                for (int i = 0; i < tasks; i++) {
                    l.entry[c][i].set(s, i);
                }
            }
            out.state(s);
            /* next choice: sorted (non-decreasing) sequences if symmetric, else all */
            int j = r - 1;
            while (j >= 0 && choice[j] == d.patterns[d.remote[j]].length - 1) {
                j--;
            }
            if (j < 0) {
                return;
            }
            choice[j]++;
            for (int k = j + 1; k < r; k++) {
                choice[k] = d.symmetric ? choice[j] : 0;
            }
        }
    }

    boolean isFinal(long[] s) {
        return l.pc.getInt(s) == DONE;
    }

    void successors(long[] s, StepSink out) {
        int at = l.pc.getInt(s);
        if (at == DONE) {
            return;
        }
        /* CPU 0: one piece of load_balance(), once per busiest candidate when it searches */
        int k = 0;
        int count;
        do {
            l.load(s, sched, call);
            int observed = at == NR_RUNNING ? sched.cpuRq(call.busiest).nrRunning : 0;
            sched.resetStep(k);
            int ret = impl.loadBalance(call, sched);
            count = sched.eligibleCount();
            int sub = at == NR_RUNNING ? observed : call.busiest + 1;
            if (LoadBalance.isExit(ret)) {
                Arrays.fill(nx, 0L);
                l.pc.set(nx, DONE);
            } else {
                l.store(s, nx, ret, sched, call);
                if (ret == REDO) {
                    if (l.mon.redos()) {
                        l.redos.set(nx, Math.min(l.redos.get(s) + 1, l.redos.max()));
                    }
                    if (l.mon.spurious() && !sched.examined()) {
                        l.spurious.set(nx, Math.min(l.spurious.get(s) + 1, l.spurious.max()));
                    }
                }
            }
            if ((at == ENTRY || at == REDO) && sched.busiestOfPass() < 0) {
                sub = 0;
            }
            out.step(0, (at << 12) | (ret << 8) | sub, nx);
            k++;
        } while (k < count);

        /* other CPUs: pull one non-running task that may run elsewhere off a runqueue */
        int left = l.pullsLeft.getInt(s);
        if (left == 0) {
            return;
        }
        for (int c : d.remote) {
            int len = l.len[c].getInt(s);
            if (len < 2) {
                continue;
            }
            long[] masks = l.masks(s, c);
            for (int j = 0; j < len; j++) {
                int idx = l.entry[c][j].getInt(s);
                if (idx == 0 || (masks[idx] & ~(1L << c) & ~(1L << l.dst)) == 0) {
                    continue;
                }
                System.arraycopy(s, 0, nx, 0, l.width);
                for (int i = j; i < len - 1; i++) {
                    l.entry[c][i].set(nx, l.entry[c][i + 1].get(s));
                }
                l.entry[c][len - 1].set(nx, 0);
                l.len[c].set(nx, len - 1);
                l.pullsLeft.set(nx, left - 1);
                out.step(1, c * 8 + idx, nx);
            }
        }
    }

    /**
     * Symmetry reduction for {@link LbDomain#scenario} domains: renames the CPUs outside the local
     * group so that their blocks (pattern, runqueue, membership in {@code env->cpus}, being
     * busiest) are sorted. Renaming such CPUs maps runs to runs (the busiest search ranges over
     * all of them, pulls too, and every task mask is "everywhere" or "its own CPU"), and every
     * property and metric is invariant under it.
     */
    void canonicalize(long[] s) {
        int r = d.remote.length;
        if (!d.symmetric || r < 2 || l.pc.getInt(s) == DONE) {
            return;
        }
        int b = l.busiest.getInt(s) - 1;
        long cp = l.cpus.get(s);
        boolean sorted = true;
        for (int j = 0; j < r; j++) {
            int c = d.remote[j];
            long key = l.pat[c].get(s);
            key = key * (d.cap[c] + 1) + l.len[c].get(s);
            for (int i = 0; i < d.cap[c]; i++) {
                key = key * d.cap[c] + l.entry[c][i].get(s);
            }
            key = key * 4 + ((cp >>> c) & 1) * 2 + (c == b ? 1 : 0);
            keys[j] = key << 6 | j;
            if (j > 0 && keys[j] < keys[j - 1]) {
                sorted = false;
            }
        }
        if (sorted) {
            return;
        }
        Arrays.sort(keys, 0, r);
        System.arraycopy(s, 0, tmp, 0, l.width);
        long newCpus = cp;
        int newBusiest = b;
        for (int j = 0; j < r; j++) {
            int to = d.remote[j];
            int from = d.remote[(int) (keys[j] & 63)];
            l.pat[to].set(s, l.pat[from].get(tmp));
            l.len[to].set(s, l.len[from].get(tmp));
            for (int i = 0; i < d.cap[to]; i++) {
                l.entry[to][i].set(s, l.entry[from][i].get(tmp));
            }
            newCpus = (newCpus & ~(1L << to)) | (((cp >>> from) & 1) << to);
            if (from == b) {
                newBusiest = to;
            }
        }
        l.cpus.set(s, newCpus);
        l.busiest.set(s, newBusiest + 1);
    }
}
