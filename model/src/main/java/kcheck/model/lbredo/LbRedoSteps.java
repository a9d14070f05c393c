package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbRedoLayout.DONE;
import static kcheck.model.lbredo.LoadBalance.ENTRY;
import static kcheck.model.lbredo.LoadBalance.NR_RUNNING;
import static kcheck.model.lbredo.LoadBalance.OUT;
import static kcheck.model.lbredo.LoadBalance.REDO;

import java.util.Arrays;

import kcheck.model.Layout;
import kcheck.model.StateSink;
import kcheck.model.StepSink;

/**
 * Step enumeration of the lb-redo model: the initial states, the successors of a state (CPU 0's
 * next piece of {@code load_balance()}, once per busiest candidate when it searches, the walk to
 * the next domain level when a call returns, and the pulls of other CPUs) and the canonical form
 * of the CPU-symmetry reduction. One instance per search worker: it owns the scratch machine the
 * reference code runs on.
 *
 * <p>Action encoding of CPU 0's steps: {@code (at << 12) | (ret << 8) | sub}, where {@code at} is
 * the resume point, {@code ret} where it stopped (or the exit), and {@code sub} the busiest CPU
 * + 1 (search, detach) or the {@code nr_running} read (the unlocked test); above bit 16, what
 * the step did that the properties read ({@link #WALK_UP}, {@link #IMBALANCE_AFTER},
 * {@link #IMBALANCE_SET}, {@link #MIGRATED_ELSEWHERE}, {@link #examined}). A pull is
 * {@code cpu * 8 + task index}.
 */
final class LbRedoSteps {
    /** The call returned and the walk goes on to the next domain level. */
    static final int WALK_UP = 1 << 16;
    /** {@code sd_parent->groups->sgc->imbalance} is set after the step. */
    static final int IMBALANCE_AFTER = 1 << 17;
    /** A newly idle call migrated a task to a CPU other than the one going idle. */
    static final int MIGRATED_ELSEWHERE = 1 << 18;
    private static final int EXAMINED_SHIFT = 19;
    /** The step set {@code sd_parent->groups->sgc->imbalance}. */
    static final int IMBALANCE_SET = 1 << 26;
    private static final int CHECK_SHIFT = 27;

    /** The kernel check or sanity rule the step tripped ({@link LbCheck#code}), 0 for none. */
    static int check(int action) {
        return (action >>> CHECK_SHIFT) & 15;
    }

    /** The CPU a dst_cpu rule names in a step that tripped it (-1: none). */
    static int offendingCpu(int action) {
        return ((action >>> EXAMINED_SHIFT) & 127) - 1;
    }

    /** Tasks {@code can_migrate_task()} examined in the step (saturated at 127). */
    static int examined(int action) {
        return (action >>> EXAMINED_SHIFT) & 127;
    }

    private final LbRedoLayout l;
    private final LbDomain d;
    private final LoadBalance impl;

    private final Sched sched;
    private final LoadBalanceCall call = new LoadBalanceCall();
    private final long[] nx;
    private final long[] keys;
    private final long[] tmp;
    /** Per remote CPU (by index in {@code d.remote}): the index of the previous CPU of its symmetry class, or -1. */
    private final int[] prevSame;
    /** Per symmetry class: one of its CPUs can be {@code dst_cpu} (it is in the balancing CPU's group at a higher level). */
    private final boolean[] classNamesDst;

    LbRedoSteps(LbRedoLayout l, LoadBalance impl) {
        this.l = l;
        this.d = l.d;
        this.impl = impl;
        this.sched = l.newSched();
        this.nx = new long[l.width];
        this.keys = new long[d.remote.length];
        this.tmp = new long[l.width];
        this.prevSame = new int[d.remote.length];
        Arrays.fill(prevSame, -1);
        this.classNamesDst = new boolean[d.classes.length];
        for (int k = 0; k < d.classes.length; k++) {
            int[] cls = d.classes[k];
            for (int i = 1; i < cls.length; i++) {
                prevSame[indexOf(cls[i])] = indexOf(cls[i - 1]);
            }
            for (int c : cls) {
                classNamesDst[k] |= d.receives[c];
            }
        }
    }

    private int classOf(int[] cls) {
        for (int k = 0; k < d.classes.length; k++) {
            if (d.classes[k] == cls) {
                return k;
            }
        }
        throw new IllegalArgumentException("not a symmetry class");
    }

    private int indexOf(int cpu) {
        for (int j = 0; j < d.remote.length; j++) {
            if (d.remote[j] == cpu) {
                return j;
            }
        }
        throw new IllegalArgumentException("CPU " + cpu + " carries no tasks");
    }

    /** One state per choice of patterns; within a symmetry class only non-decreasing choices. */
    void initial(StateSink out) {
        int r = d.remote.length;
        int[] choice = new int[r];
        long[] s = new long[l.width];
        while (true) {
            l.initial(s, choice);
            out.state(s);
            int j = r - 1;
            while (j >= 0 && choice[j] == d.patterns[d.remote[j]].length - 1) {
                j--;
            }
            if (j < 0) {
                return;
            }
            choice[j]++;
            for (int k = j + 1; k < r; k++) {
                choice[k] = prevSame[k] >= 0 ? choice[prevSame[k]] : 0;
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
        int lvl = l.level.getInt(s);
        /* CPU 0: one piece of load_balance(), once per busiest candidate when it searches */
        int k = 0;
        int count;
        do {
            l.load(s, sched, call);
            int observed = at == NR_RUNNING ? sched.cpuRq(call.busiest).nrRunning : 0;
            sched.resetStep(k);
            int ret;
            LbCheck tripped;
            try {
                ret = impl.loadBalance(call, sched);
                tripped = LoadBalance.isExit(ret) ? null : sanity(call.env);
                if (tripped == null && (at == ENTRY || at == REDO) && busyWentOn()) {
                    tripped = LbCheck.BUSY_DEFERS;
                }
            } catch (LbCheck.Failed f) {
                ret = OUT;
                tripped = f.check;
            }
            /* the CPU a dst_cpu rule names, kept where a check step has no examined count */
            int offending = tripped == LbCheck.DST_IN_BALANCE_MASK && (call.env.dstCpu < 0 || call.env.dstCpu >= d.nrCpus
                    || (sched.groupBalanceMaskOf(LbDomain.DST_CPU) & (1L << call.env.dstCpu)) != 0) ? call.env.newDstCpu
                    : call.env.dstCpu;
            count = sched.eligibleCount();
            int sub = at == NR_RUNNING ? observed : call.busiest + 1;
            if (tripped != null) {
                /* the kernel would flag this state: the step ends the run, its property reads the code */
                Arrays.fill(nx, 0L);
                l.pc.set(nx, DONE);
                out.step(0, (tripped.code() << CHECK_SHIFT) | ((offending + 1) & 127) << EXAMINED_SHIFT | (at << 12) | (ret << 8)
                        | Math.max(sub, 0), nx);
                k++;
                continue;
            }
            int bits = 0;
            if (LoadBalance.isExit(ret)) {
                bits |= exit(s, lvl, ret);
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
            if (lvl + 1 < l.levels) {
                bits |= (sched.groupImbalance(lvl + 1) ? IMBALANCE_AFTER : 0) | (sched.imbalanceSetInStep() ? IMBALANCE_SET : 0);
            }
            if (call.idle == LbEnv.CPU_NEWLY_IDLE && (sched.migratedTo() & ~(1L << l.dst)) != 0) {
                bits |= MIGRATED_ELSEWHERE;
            }
            bits |= Math.min(sched.examinedInStep(), 127) << EXAMINED_SHIFT;
            if ((at == ENTRY || at == REDO) && sched.busiestOfPass() < 0) {
                sub = 0;
            }
            out.step(0, bits | (at << 12) | (ret << 8) | sub, nx);
            k++;
        } while (k < count);

        /* other CPUs: pull one non-running task that may run elsewhere off a runqueue */
        int left = l.pullsLeft.getInt(s);
        if (left == 0) {
            return;
        }
        for (int c : d.remote) {
            int len = l.len[c].getInt(s);
            if (len + l.foreign[c].getInt(s) < 2) {
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
     * After a step through {@code should_we_balance()} (the call's entry or {@code redo:}): a
     * periodic call of a busy CPU went on (it did not clear {@code *continue_balancing}) although a
     * CPU of the local group's balance mask in {@code env->cpus} is idle. Every version elects an
     * idle CPU of the group then (the first idle core, or the first idle CPU with busy siblings),
     * never the busy one; a newly idle balance is exempt (every CPU may do it).
     */
    private boolean busyWentOn() {
        if (call.idle == LbEnv.CPU_NEWLY_IDLE || !call.continueBalancing || sched.idleCpu(l.dst)) {
            return false;
        }
        long idle = 0;
        for (int c = 0; c < d.nrCpus; c++) {
            if (sched.idleCpu(c)) {
                idle |= 1L << c;
            }
        }
        return (sched.groupBalanceMaskOf(l.dst) & call.env.cpus & idle) != 0;
    }

    /**
     * The sanity rules on {@code struct lb_env} at a cut (the call goes on): {@code dst_cpu} in the
     * local group's balance mask and in {@code env->cpus}, {@code env->cpus} within the machine.
     */
    private LbCheck sanity(LbEnv env) {
        long possible = d.nrCpus == 64 ? -1L : (1L << d.nrCpus) - 1;
        if ((env.cpus & ~possible) != 0) {
            return LbCheck.CPUS_EXIST;
        }
        long balanceMask = sched.groupBalanceMaskOf(LbDomain.DST_CPU);
        if (env.dstCpu < 0 || env.dstCpu >= d.nrCpus || (balanceMask & (1L << env.dstCpu)) == 0) {
            return LbCheck.DST_IN_BALANCE_MASK;
        }
        if ((env.flags & LbEnv.LBF_DST_PINNED) != 0
                && (env.newDstCpu < 0 || env.newDstCpu >= d.nrCpus || (balanceMask & (1L << env.newDstCpu)) == 0)) {
            return LbCheck.DST_IN_BALANCE_MASK;
        }
        if ((env.cpus & (1L << env.dstCpu)) == 0) {
            return LbCheck.DST_IN_CPUS;
        }
        return null;
    }

    /**
     * The call returned with exit {@code ret}: the walk ({@link BalanceDomains}) either balances
     * the next level, from a fresh call with the runqueues as they are now, or ends (the single
     * final state). Returns {@link #WALK_UP} when it goes on.
     */
    private int exit(long[] s, int lvl, int ret) {
        int pulled = ret == OUT ? call.ldMoved : 0;
        boolean goesOn = lvl + 1 < l.levels && (call.idle == LbEnv.CPU_NEWLY_IDLE
                ? BalanceDomains.newidleGoesOn(pulled, sched.cpuRq(l.dst), call.continueBalancing)
                : BalanceDomains.rebalanceGoesOn(call.continueBalancing));
        Arrays.fill(nx, 0L);
        if (!goesOn) {
            l.pc.set(nx, DONE);
            return 0;
        }
        int idle = call.idle == LbEnv.CPU_NEWLY_IDLE ? call.idle
                : BalanceDomains.rebalanceIdle(call.idle, pulled, sched.idleCpu(l.dst));
        l.pc.set(nx, ENTRY);
        l.level.set(nx, lvl + 1);
        l.callIdle.set(nx, idle);
        l.pullsLeft.set(nx, l.pullsLeft.get(s));
        for (int c : d.remote) {
            l.pat[c].set(nx, l.pat[c].get(s));
        }
        l.storeRqs(nx, sched, -1);
        return WALK_UP;
    }

    /**
     * Symmetry reduction: within each symmetry class of {@link LbDomain} (CPUs that may be
     * renamed into each other), renames the CPUs so that their blocks (pattern, runqueue, tasks
     * received, membership in {@code env->cpus}, being busiest, being {@code dst_cpu} or
     * {@code new_dst_cpu}) are sorted. Renaming such CPUs maps runs to runs (the busiest search
     * ranges over all of them, pulls too, and no task mask names a CPU of the class but its own),
     * and every property and metric is invariant under it.
     */
    void canonicalize(long[] s) {
        if (!d.symmetric || l.pc.getInt(s) == DONE) {
            return;
        }
        for (int[] cls : d.classes) {
            if (cls.length > 1) {
                sortClass(s, cls);
            }
        }
    }

    private void sortClass(long[] s, int[] cls) {
        int r = cls.length;
        int b = l.busiest.getInt(s) - 1;
        boolean named = classNamesDst[classOf(cls)];
        int dstCpu = named ? l.dstCpu(s) : -1;
        int newDst = named ? l.newDstCpu(s) : -1;
        boolean receives = d.receives[cls[0]];
        long cp = l.cpus.get(s);
        boolean sorted = true;
        for (int j = 0; j < r; j++) {
            int c = cls[j];
            int cap = d.cap[c];
            long key = l.pat[c].get(s);
            key = key * (cap + 1) + l.len[c].get(s);
            Layout.Field[] e = l.entry[c];
            for (int i = 0; i < cap; i++) {
                key = key * cap + e[i].get(s);
            }
            if (receives) {
                key = key * (l.foreign[c].max() + 1) + l.foreign[c].get(s);
            }
            key = key * 4 + ((cp >>> c) & 1) * 2 + (c == b ? 1 : 0);
            if (named) {
                key = key * 4 + (c == dstCpu ? 2 : 0) + (c == newDst ? 1 : 0);
            }
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
        int newDstCpu = dstCpu;
        int newNewDst = newDst;
        for (int j = 0; j < r; j++) {
            int to = cls[j];
            int from = cls[(int) (keys[j] & 63)];
            l.pat[to].set(s, l.pat[from].get(tmp));
            l.len[to].set(s, l.len[from].get(tmp));
            for (int i = 0; i < d.cap[to]; i++) {
                l.entry[to][i].set(s, l.entry[from][i].get(tmp));
            }
            if (receives) {
                l.foreign[to].set(s, l.foreign[from].get(tmp));
            }
            newCpus = (newCpus & ~(1L << to)) | (((cp >>> from) & 1) << to);
            if (from == b) {
                newBusiest = to;
            }
            if (from == dstCpu) {
                newDstCpu = to;
            }
            if (from == newDst) {
                newNewDst = to;
            }
        }
        l.cpus.set(s, newCpus);
        l.busiest.set(s, newBusiest + 1);
        if (named) {
            l.setDstCpu(s, newDstCpu);
            l.setNewDstCpu(s, newNewDst);
        }
    }
}
