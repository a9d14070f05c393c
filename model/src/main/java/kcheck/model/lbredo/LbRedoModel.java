package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.CPU_NEWLY_IDLE;
import static kcheck.model.lbredo.LbEnv.LBF_ALL_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_DST_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_NEED_BREAK;
import static kcheck.model.lbredo.LoadBalance.AFTER_DETACH;
import static kcheck.model.lbredo.LoadBalance.ENTRY;
import static kcheck.model.lbredo.LoadBalance.MORE_BALANCE;
import static kcheck.model.lbredo.LoadBalance.NR_RUNNING;
import static kcheck.model.lbredo.LoadBalance.OUT_ALL_PINNED;
import static kcheck.model.lbredo.LoadBalance.OUT_BALANCED;
import static kcheck.model.lbredo.LoadBalance.REDO;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

import kcheck.model.FieldSink;
import kcheck.model.Kernel;
import kcheck.model.Layout;
import kcheck.model.Metric;
import kcheck.model.Model;
import kcheck.model.Params;
import kcheck.model.Progress;
import kcheck.model.Property;
import kcheck.model.StateSink;
import kcheck.model.StepInfo;
import kcheck.model.StepProperty;
import kcheck.model.StepSink;

/**
 * The lb-redo model (KERNEL.md section 4): CPU 0 runs one newly idle {@code load_balance()} call
 * of the chosen variant over an {@link LbDomain}, while other CPUs may pull tasks from the CPUs
 * outside the local group.
 *
 * <p>Actors: "CPU 0", whose steps are the pieces of {@link LoadBalance#loadBalance} between the
 * points where other CPUs may act (the busiest search, the unlocked {@code nr_running} read,
 * the locked {@code detach_tasks()}, the redo decision), and "other CPUs", each of whose steps
 * takes one non-running task off a runqueue with at least two tasks, under that runqueue's lock.
 *
 * <p>State: where the call is; the parts of {@code lb_env} and of the call's locals that live
 * across those points; per CPU outside the local group its pattern (the tasks' masks, fixed)
 * and its {@code cfs_tasks} list; the pulls left; monitors, only when a selected property reads
 * them (redos, statistics passes and their cost, spurious redos, and whether a task of busiest
 * was examined in this pass and every examined one was pinned away from {@code dst_cpu}).
 * When the call returns, every variable is dead and the state becomes the single final state.
 */
final class LbRedoModel implements Model {
    /** pc value after the call has returned. */
    static final int DONE = 5;
    private static final String[] PC_NAMES = {"entry", "redo", "nr_running check", "more_balance",
        "after detach", "done"};

    private final String variant;
    private final Params params;
    private final LoadBalance impl;
    private final LbDomain d;
    private final Set<String> selected;
    private final int n;
    private final int dst;
    private final int bound;

    private final boolean trackRedos;
    private final boolean trackPass;
    private final boolean trackPasses;
    private final boolean trackSpurious;
    private final boolean trackWork;

    /* layout */
    private final Layout.Field pc;
    private final Layout.Field busiest;
    private final Layout.Field allPinned;
    private final Layout.Field needBreak;
    private final Layout.Field cpus;
    private final Layout.Field loop;
    private final Layout.Field loopBreak;
    private final Layout.Field loopMax;
    private final Layout.Field imbalance;
    private final Layout.Field migrationType;
    private final Layout.Field redoCnt;
    private final Layout.Field redoMax;
    private final Layout.Field ldMoved;
    private final Layout.Field redos;
    private final Layout.Field passes;
    private final Layout.Field spurious;
    private final Layout.Field work;
    private final Layout.Field examined;
    private final Layout.Field allAffine;
    private final Layout.Field pullsLeft;
    private final Layout.Field[] pat;
    private final Layout.Field[] len;
    private final Layout.Field[][] entry;
    private final int width;

    private final String[] taskNames;
    private final String[] cites;
    private final List<Property> properties;

    /* per-fork scratch */
    private final Sched sched;
    private final LoadBalanceCall call = new LoadBalanceCall();
    private final long[] nx;
    private final long[] keys;
    private final long[] tmp;

    LbRedoModel(String variant, Params params, LoadBalance impl, LbDomain d, Set<String> selected) {
        this.variant = variant;
        this.params = params;
        this.impl = impl;
        this.d = d;
        this.selected = selected;
        this.n = d.nrCpus;
        this.dst = LbDomain.DST_CPU;
        int m = d.candidates();
        this.bound = Math.max(0, m - 1);
        trackRedos = selected.contains("terminates") || selected.contains("redos");
        trackPass = selected.contains("all-pinned-sound") || selected.contains("no-spurious-redo")
                || selected.contains("pinned-redo-kept") || selected.contains("spurious-redos");
        trackPasses = selected.contains("stat-passes");
        trackSpurious = selected.contains("spurious-redos");
        trackWork = selected.contains("stat-work");

        int maxCap = 0;
        for (int c : d.remote) {
            maxCap = Math.max(maxCap, d.cap[c]);
        }
        Layout l = new Layout();
        pc = l.fieldFor(DONE);
        busiest = l.fieldFor(n);
        allPinned = l.field(1);
        needBreak = l.field(1);
        cpus = l.field(n);
        loop = l.fieldFor((long) (m + 2) * (maxCap + 1));
        loopBreak = l.fieldFor(7);
        loopMax = l.fieldFor(LbEnv.SYSCTL_SCHED_NR_MIGRATE);
        imbalance = l.field(1);
        migrationType = l.field(2);
        redoCnt = l.fieldFor(m + 1);
        redoMax = l.fieldFor(3);
        ldMoved = l.fieldFor(maxCap);
        redos = l.fieldFor(trackRedos ? bound + 1 : 0);
        passes = l.fieldFor(trackPasses ? m + 2 : 0);
        spurious = l.fieldFor(trackSpurious ? bound + 1 : 0);
        work = l.fieldFor(trackWork ? (long) (m + 2) * n : 0);
        examined = l.field(trackPass ? 1 : 0);
        allAffine = l.field(trackPass ? 1 : 0);
        pullsLeft = l.fieldFor(d.pulls);
        pat = new Layout.Field[n];
        len = new Layout.Field[n];
        entry = new Layout.Field[n][];
        for (int c : d.remote) {
            pat[c] = l.fieldFor(d.patterns[c].length - 1);
            len[c] = l.fieldFor(d.cap[c]);
            entry[c] = new Layout.Field[d.cap[c]];
            for (int i = 0; i < d.cap[c]; i++) {
                entry[c][i] = l.fieldFor(d.cap[c] - 1);
            }
        }
        width = l.words();

        taskNames = new String[d.nrTasks];
        for (int c : d.remote) {
            for (int i = 0; i < d.cap[c]; i++) {
                taskNames[d.taskBase[c] + i] = "t" + c + "." + i;
            }
        }
        String lb = cite(impl, "loadBalance");
        cites = new String[] {
            cite(impl, "findBusiestGroup") + " \u2190 " + lb,
            cite(impl, "findBusiestGroup") + " \u2190 " + lb,
            lb,
            cite(impl, "detachTasks") + " \u2190 " + lb,
            lb,
        };
        this.sched = newSched();
        this.nx = new long[width];
        this.keys = new long[d.remote.length];
        this.tmp = new long[width];
        this.properties = buildProperties();
    }

    private LbRedoModel(LbRedoModel o) {
        this.variant = o.variant;
        this.params = o.params;
        this.impl = o.impl;
        this.d = o.d;
        this.selected = o.selected;
        this.n = o.n;
        this.dst = o.dst;
        this.bound = o.bound;
        this.trackRedos = o.trackRedos;
        this.trackPass = o.trackPass;
        this.trackPasses = o.trackPasses;
        this.trackSpurious = o.trackSpurious;
        this.trackWork = o.trackWork;
        this.pc = o.pc;
        this.busiest = o.busiest;
        this.allPinned = o.allPinned;
        this.needBreak = o.needBreak;
        this.cpus = o.cpus;
        this.loop = o.loop;
        this.loopBreak = o.loopBreak;
        this.loopMax = o.loopMax;
        this.imbalance = o.imbalance;
        this.migrationType = o.migrationType;
        this.redoCnt = o.redoCnt;
        this.redoMax = o.redoMax;
        this.ldMoved = o.ldMoved;
        this.redos = o.redos;
        this.passes = o.passes;
        this.spurious = o.spurious;
        this.work = o.work;
        this.examined = o.examined;
        this.allAffine = o.allAffine;
        this.pullsLeft = o.pullsLeft;
        this.pat = o.pat;
        this.len = o.len;
        this.entry = o.entry;
        this.width = o.width;
        this.taskNames = o.taskNames;
        this.cites = o.cites;
        this.properties = o.properties;
        this.sched = newSched();
        this.nx = new long[width];
        this.keys = new long[d.remote.length];
        this.tmp = new long[width];
    }

    private Sched newSched() {
        Sched s = new Sched(n, d.groupOf, d.active, Math.max(1, d.nrTasks));
        for (int c : d.remote) {
            for (int i = 0; i < d.cap[c]; i++) {
                s.setTask(d.taskBase[c] + i, 0, c, taskNames[d.taskBase[c] + i]);
            }
        }
        return s;
    }

    /** The citation of the method {@code name} of {@code impl}'s class or its superclasses. */
    private static String cite(LoadBalance impl, String name) {
        for (Class<?> c = impl.getClass(); c != null; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                Kernel k = m.getAnnotation(Kernel.class);
                if (m.getName().equals(name) && k != null) {
                    return Kernel.Cite.of(k);
                }
            }
        }
        return name;
    }

    @Override
    public Model fork() {
        return new LbRedoModel(this);
    }

    @Override
    public String name() {
        return LbRedoFactory.NAME;
    }

    @Override
    public String variant() {
        return variant;
    }

    @Override
    public Params params() {
        return params;
    }

    @Override
    public int width() {
        return width;
    }

    /** The domain this instance explores. */
    LbDomain domain() {
        return d;
    }

    /** The redo bound {@code terminates} checks: |cpus0 \ local group| - 1. */
    int redoBound() {
        return bound;
    }

    @Override
    public void initial(StateSink out) {
        int r = d.remote.length;
        int[] choice = new int[r];
        long[] s = new long[width];
        while (true) {
            java.util.Arrays.fill(s, 0L);
            pc.set(s, ENTRY);
            pullsLeft.set(s, d.pulls);
            for (int j = 0; j < r; j++) {
                int c = d.remote[j];
                pat[c].set(s, choice[j]);
                int tasks = d.patterns[c][choice[j]].length;
                len[c].set(s, tasks);
                for (int i = 0; i < tasks; i++) {
                    entry[c][i].set(s, i);
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

    /* ---- state <-> scratch ---- */

    private void load(long[] s) {
        Sched k = sched;
        k.resetRqs();
        for (int c : d.remote) {
            long[] masks = d.patterns[c][pat[c].getInt(s)];
            int base = d.taskBase[c];
            for (int i = 0; i < masks.length; i++) {
                k.setTask(base + i, masks[i], c, taskNames[base + i]);
            }
            int l = len[c].getInt(s);
            for (int j = 0; j < l; j++) {
                k.enqueueTail(c, base + entry[c][j].getInt(s));
            }
            if (masks.length > 0) {
                k.setCurr(c, base);
            }
        }
        int at = pc.getInt(s);
        LoadBalanceCall lb = call;
        lb.start(dst);
        lb.at = at;
        LbEnv env = lb.env;
        if (at != ENTRY) {
            env.dstCpu = dst;
            env.dstGrpmask = d.localSpan;
            env.idle = CPU_NEWLY_IDLE;
        }
        lb.busiest = busiest.getInt(s) - 1;
        env.srcCpu = lb.busiest;
        env.flags = (allPinned.get(s) != 0 ? LBF_ALL_PINNED : 0) | (needBreak.get(s) != 0 ? LBF_NEED_BREAK : 0);
        env.cpus = cpus.get(s);
        env.loop = loop.getInt(s);
        env.loopBreak = loopBreak.getInt(s) * LbEnv.SCHED_NR_MIGRATE_BREAK;
        env.loopMax = loopMax.getInt(s);
        env.imbalance = imbalance.get(s);
        env.migrationType = migrationType.getInt(s);
        env.redoCnt = redoCnt.getInt(s);
        env.redoMax = redoMax.getInt(s);
        lb.ldMoved = ldMoved.getInt(s);
        k.setMonitors(passes.getInt(s), work.get(s), examined.get(s) != 0, allAffine.get(s) != 0);
    }

    /** Writes the call and the runqueues after a step of CPU 0 that stopped at {@code at} (not an exit). */
    private void store(long[] s, long[] out, int at) {
        System.arraycopy(s, 0, out, 0, width);
        LoadBalanceCall lb = call;
        LbEnv env = lb.env;
        if (env.dstCpu != dst || (env.flags & LBF_DST_PINNED) != 0) {
            throw new IllegalStateException(variant + ": dst_cpu changed (LBF_DST_PINNED): CPU_NEWLY_IDLE never does that");
        }
        if (env.srcCpu != lb.busiest || env.nrTasks != 0 || env.idle != CPU_NEWLY_IDLE) {
            throw new IllegalStateException(variant + ": load_balance left lb_env inconsistent at " + LoadBalance.LABELS[at]);
        }
        pc.set(out, at);
        busiest.set(out, lb.busiest + 1);
        allPinned.set(out, (env.flags & LBF_ALL_PINNED) != 0 ? 1 : 0);
        needBreak.set(out, (env.flags & LBF_NEED_BREAK) != 0 ? 1 : 0);
        cpus.set(out, env.cpus);
        put(out, loop, env.loop, "env.loop");
        if (env.loopBreak % LbEnv.SCHED_NR_MIGRATE_BREAK != 0) {
            throw new IllegalStateException(variant + ": loop_break " + env.loopBreak + " not a multiple of 32");
        }
        put(out, loopBreak, env.loopBreak / LbEnv.SCHED_NR_MIGRATE_BREAK, "env.loop_break");
        put(out, loopMax, env.loopMax, "env.loop_max");
        put(out, imbalance, env.imbalance, "env.imbalance");
        put(out, migrationType, env.migrationType, "env.migration_type");
        put(out, redoCnt, env.redoCnt, "env.redo_cnt");
        put(out, redoMax, env.redoMax, "env.redo_max");
        put(out, ldMoved, lb.ldMoved, "ld_moved");
        for (int c : d.remote) {
            Rq rq = sched.cpuRq(c);
            int l = rq.length();
            len[c].set(out, l);
            int base = d.taskBase[c];
            for (int j = 0; j < d.cap[c]; j++) {
                int idx = 0;
                if (j < l) {
                    idx = rq.task(j) - base;
                    if (idx < 0 || idx >= d.cap[c]) {
                        throw new IllegalStateException(variant + ": a task moved to CPU " + c + ", which the model does not allow");
                    }
                }
                entry[c][j].set(out, idx);
            }
        }
        if (trackPasses) {
            passes.set(out, Math.min(sched.passes(), passes.max()));
        }
        if (trackWork) {
            work.set(out, Math.min(sched.statWork(), work.max()));
        }
        if (trackPass) {
            examined.set(out, sched.examined() ? 1 : 0);
            allAffine.set(out, sched.allAffine() ? 1 : 0);
        }
    }

    private static void put(long[] s, Layout.Field f, long v, String what) {
        if (v < 0 || v > f.max()) {
            throw new IllegalStateException(what + " = " + v + " does not fit the model's state (max " + f.max() + ")");
        }
        f.set(s, v);
    }

    @Override
    public void successors(long[] s, StepSink out) {
        int at = pc.getInt(s);
        if (at == DONE) {
            return;
        }
        /* CPU 0: one piece of load_balance(), once per busiest candidate when it searches */
        int k = 0;
        int count;
        do {
            load(s);
            int observed = at == NR_RUNNING ? sched.cpuRq(call.busiest).nrRunning : 0;
            sched.resetStep(k);
            int ret = impl.loadBalance(call, sched);
            count = sched.eligibleCount();
            int sub = at == NR_RUNNING ? observed : call.busiest + 1;
            if (LoadBalance.isExit(ret)) {
                java.util.Arrays.fill(nx, 0L);
                pc.set(nx, DONE);
            } else {
                store(s, nx, ret);
                if (ret == REDO) {
                    if (trackRedos) {
                        redos.set(nx, Math.min(redos.get(s) + 1, redos.max()));
                    }
                    if (trackSpurious && !sched.examined()) {
                        spurious.set(nx, Math.min(spurious.get(s) + 1, spurious.max()));
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
        int left = pullsLeft.getInt(s);
        if (left == 0) {
            return;
        }
        for (int c : d.remote) {
            int l = len[c].getInt(s);
            if (l < 2) {
                continue;
            }
            long[] masks = d.patterns[c][pat[c].getInt(s)];
            for (int j = 0; j < l; j++) {
                int idx = entry[c][j].getInt(s);
                if (idx == 0 || (masks[idx] & ~(1L << c) & ~(1L << dst)) == 0) {
                    continue;
                }
                System.arraycopy(s, 0, nx, 0, width);
                for (int i = j; i < l - 1; i++) {
                    entry[c][i].set(nx, entry[c][i + 1].get(s));
                }
                entry[c][l - 1].set(nx, 0);
                len[c].set(nx, l - 1);
                pullsLeft.set(nx, left - 1);
                out.step(1, c * 8 + idx, nx);
            }
        }
    }

    @Override
    public List<String> reductions() {
        return d.symmetric ? List.of("cpu-symmetry: the CPUs outside the local group are interchangeable (same task "
                + "patterns up to renaming, busiest chosen among all of them): states are kept with those CPUs sorted "
                + "by (runqueue, in cpus, is busiest)") : List.of();
    }

    /**
     * Symmetry reduction for {@link LbDomain#scenario} domains: renames the CPUs outside the local
     * group so that their blocks (pattern, runqueue, membership in {@code env->cpus}, being
     * busiest) are sorted. Renaming such CPUs maps runs to runs (the busiest search ranges over
     * all of them, pulls too, and every task mask is "everywhere" or "its own CPU"), and every
     * property and metric is invariant under it.
     */
    @Override
    public void canonicalize(long[] s) {
        int r = d.remote.length;
        if (!d.symmetric || r < 2 || pc.getInt(s) == DONE) {
            return;
        }
        int b = busiest.getInt(s) - 1;
        long cp = cpus.get(s);
        boolean sorted = true;
        for (int j = 0; j < r; j++) {
            int c = d.remote[j];
            long key = pat[c].get(s);
            key = key * (d.cap[c] + 1) + len[c].get(s);
            for (int i = 0; i < d.cap[c]; i++) {
                key = key * d.cap[c] + entry[c][i].get(s);
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
        java.util.Arrays.sort(keys, 0, r);
        System.arraycopy(s, 0, tmp, 0, width);
        long newCpus = cp;
        int newBusiest = b;
        for (int j = 0; j < r; j++) {
            int to = d.remote[j];
            int from = d.remote[(int) (keys[j] & 63)];
            pat[to].set(s, pat[from].get(tmp));
            len[to].set(s, len[from].get(tmp));
            for (int i = 0; i < d.cap[to]; i++) {
                entry[to][i].set(s, entry[from][i].get(tmp));
            }
            newCpus = (newCpus & ~(1L << to)) | (((cp >>> from) & 1) << to);
            if (from == b) {
                newBusiest = to;
            }
        }
        cpus.set(s, newCpus);
        busiest.set(s, newBusiest + 1);
    }

    @Override
    public boolean isFinal(long[] s) {
        return pc.getInt(s) == DONE;
    }

    @Override
    public List<String> actors() {
        return d.pulls > 0 ? List.of("CPU 0 (newly idle)", "other CPUs") : List.of("CPU 0 (newly idle)");
    }

    @Override
    public StepInfo describe(int actor, int action) {
        if (actor == 1) {
            int c = action / 8;
            int idx = action % 8;
            return new StepInfo("pull " + taskNames[d.taskBase[c] + idx] + " off CPU " + c,
                    "another CPU's load_balance: detach_tasks under rq_lock(CPU " + c + ") (kernel/sched/fair.c)");
        }
        int at = action >> 12;
        int ret = (action >> 8) & 15;
        int sub = action & 255;
        String label = switch (at) {
            case ENTRY, REDO -> (at == ENTRY ? "load_balance: " : "redo: ")
                    + (ret == NR_RUNNING && sub > 0 ? "find_busiest_queue = CPU " + (sub - 1)
                    : ret == OUT_BALANCED && sub == 0 ? "no busiest, goto out_balanced" : "goto " + LoadBalance.LABELS[ret]);
            case NR_RUNNING -> "busiest->nr_running = " + sub + " (unlocked)" + (ret == MORE_BALANCE ? "" : ", no move");
            case MORE_BALANCE -> "rq_lock(CPU " + (sub - 1) + "); detach_tasks; rq_unlock";
            case AFTER_DETACH -> ret == REDO ? "goto redo" : ret == OUT_ALL_PINNED ? "goto out_all_pinned"
                    : ret == MORE_BALANCE ? "goto more_balance" : "return ld_moved";
            default -> "?";
        };
        return new StepInfo(label, at < cites.length ? cites[at] : "");
    }

    @Override
    public void decode(long[] s, FieldSink out) {
        int at = pc.getInt(s);
        out.field(0, "lb.at", PC_NAMES[at]);
        if (at != DONE && at != ENTRY) {
            int b = busiest.getInt(s) - 1;
            if (at != REDO && b >= 0) {
                out.field(0, "env.src_cpu", "CPU " + b);
            }
            out.field(0, "env.flags", (allPinned.get(s) != 0 ? "ALL_PINNED" : "")
                    + (needBreak.get(s) != 0 ? (allPinned.get(s) != 0 ? "|" : "") + "NEED_BREAK" : "")
                    + (allPinned.get(s) == 0 && needBreak.get(s) == 0 ? "0" : ""));
            out.field(0, "env.cpus", cpuList(cpus.get(s)));
            out.field(0, "env.loop", loop.get(s) + " (loop_max " + loopMax.get(s) + ")");
            if (redoMax.get(s) != 0) {
                out.field(0, "env.redo_cnt", redoCnt.get(s) + " (redo_max " + redoMax.get(s) + ")");
            }
        }
        /* monitors (0 before the call starts: not shown there, so a trace's first state does not depend on them) */
        if (trackRedos && at != ENTRY) {
            out.field(0, "redos", Long.toString(redos.get(s)));
        }
        if (trackPasses && at != ENTRY) {
            out.field(0, "stat passes", Long.toString(passes.get(s)));
        }
        if (trackWork && at != ENTRY) {
            out.field(0, "stat work", work.get(s) + " CPU visits");
        }
        if (trackSpurious && at != ENTRY) {
            out.field(0, "spurious redos", Long.toString(spurious.get(s)));
        }
        if (trackPass && at != DONE && at != ENTRY && at != REDO) {
            out.field(0, "pass", examined.get(s) == 0 ? "no task of busiest examined"
                    : allAffine.get(s) != 0 ? "all examined pinned away from CPU " + dst : "a movable task examined");
        }
        if (at == DONE) {
            return;
        }
        for (int c : d.remote) {
            long[] masks = d.patterns[c][pat[c].getInt(s)];
            int l = len[c].getInt(s);
            StringBuilder b = new StringBuilder("[");
            for (int j = 0; j < l; j++) {
                int idx = entry[c][j].getInt(s);
                b.append(j == 0 ? "" : " ").append(taskNames[d.taskBase[c] + idx]);
                if (idx == 0) {
                    b.append('*');
                }
                if ((masks[idx] & (1L << dst)) == 0) {
                    b.append('!');
                }
            }
            out.field(FieldSink.SHARED, "rq" + c, b.append("] nr_running=").append(l).toString());
        }
        if (d.pulls > 0) {
            out.field(FieldSink.SHARED, "pulls left", Long.toString(pullsLeft.get(s)));
        }
    }

    /** "{0-3,6}". */
    static String cpuList(long mask) {
        StringJoiner j = new StringJoiner(",", "{", "}");
        int c = 0;
        while (c < 64) {
            if ((mask & (1L << c)) == 0) {
                c++;
                continue;
            }
            int e = c;
            while (e + 1 < 64 && (mask & (1L << (e + 1))) != 0) {
                e++;
            }
            j.add(e == c ? Integer.toString(c) : e == c + 1 ? c + "," + e : c + "-" + e);
            c = e + 1;
        }
        return j.toString();
    }

    /* ---- properties ---- */

    @Override
    public List<Property> properties() {
        return properties;
    }

    private List<Property> buildProperties() {
        List<Property> out = new ArrayList<>();
        for (Property p : List.of(new Terminates(), new CallReturns(), new AllPinnedSound(), new NoSpuriousRedo(),
                new PinnedRedoKept(), new Redos(), new StatPasses(), new SpuriousRedos(), new StatWork())) {
            if (selected.contains(p.id())) {
                out.add(p);
            }
        }
        return out;
    }

    /** The step is CPU 0's redo decision with the all-pinned branch taken ({@code LBF_ALL_PINNED} set, no break pending). */
    private boolean allPinnedBranch(long[] from, int actor) {
        return actor == 0 && pc.getInt(from) == AFTER_DETACH && allPinned.get(from) != 0 && needBreak.get(from) == 0;
    }

    private String passSummary(long[] s) {
        return examined.get(s) == 0 ? "no task of busiest was examined"
                : allAffine.get(s) != 0 ? "every examined task was pinned away from CPU " + dst
                : "a task that may run on CPU " + dst + " was examined";
    }

    /** A CPU that still deserves a redo: C != busiest in cpus, outside the local group, >= 2 tasks, one allowed on dst. */
    private int worthwhile(long[] s) {
        int b = busiest.getInt(s) - 1;
        long cp = cpus.get(s);
        for (int c : d.remote) {
            if (c == b || (cp & (1L << c)) == 0) {
                continue;
            }
            int l = len[c].getInt(s);
            if (l < 2) {
                continue;
            }
            long[] masks = d.patterns[c][pat[c].getInt(s)];
            for (int j = 0; j < l; j++) {
                if ((masks[entry[c][j].getInt(s)] & (1L << dst)) != 0) {
                    return c;
                }
            }
        }
        return -1;
    }

    final class Terminates extends StepProperty {
        Terminates() {
            super("terminates", LbRedoFactory.describe("terminates"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            if (redos.get(to) > bound) {
                return false;
            }
            return pc.getInt(from) == ENTRY || (cpus.get(to) & ~cpus.get(from)) == 0;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            if (redos.get(to) > bound) {
                return "load_balance redoes " + redos.get(to) + " times in one call: more than |cpus0 \\ local group| - 1 = "
                        + bound;
            }
            return "env->cpus grows from " + cpuList(cpus.get(from)) + " to " + cpuList(cpus.get(to));
        }
    }

    /**
     * {@code call-returns}: no step is a progress step, so any reachable cycle is a violation. Pulls
     * are finite, so a cycle is CPU 0 looping inside one call (redo or more_balance) for ever.
     */
    final class CallReturns extends Progress {
        CallReturns() {
            super("call-returns", LbRedoFactory.describe("call-returns"));
        }

        @Override
        public boolean isProgress(long[] from, int actor, int action, long[] to) {
            return false;
        }
    }

    final class AllPinnedSound extends StepProperty {
        AllPinnedSound() {
            super("all-pinned-sound", LbRedoFactory.describe("all-pinned-sound"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            return !allPinnedBranch(from, actor) || examined.get(from) != 0;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return "load_balance takes the LBF_ALL_PINNED branch for busiest CPU " + (busiest.get(from) - 1)
                    + " although no task of it was examined by can_migrate_task";
        }
    }

    final class NoSpuriousRedo extends StepProperty {
        NoSpuriousRedo() {
            super("no-spurious-redo", LbRedoFactory.describe("no-spurious-redo"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            return actor != 0 || pc.getInt(to) != REDO || (examined.get(from) != 0 && allAffine.get(from) != 0);
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return "load_balance redoes after busiest CPU " + (busiest.get(from) - 1) + ", but " + passSummary(from);
        }
    }

    final class PinnedRedoKept extends StepProperty {
        PinnedRedoKept() {
            super("pinned-redo-kept", LbRedoFactory.describe("pinned-redo-kept"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            if (!allPinnedBranch(from, actor) || examined.get(from) == 0 || allAffine.get(from) == 0) {
                return true;
            }
            return pc.getInt(to) == REDO || worthwhile(from) < 0;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            int c = worthwhile(from);
            return "every task of busiest CPU " + (busiest.get(from) - 1) + " is pinned away from CPU " + dst + " and CPU " + c
                    + " still has a task CPU " + dst + " could pull, but load_balance returns instead of redoing";
        }
    }

    final class Redos extends Metric {
        Redos() {
            super("redos", LbRedoFactory.describe("redos"));
        }

        @Override
        public long value(long[] s, int c) {
            return redos.get(s);
        }
    }

    final class StatPasses extends Metric {
        StatPasses() {
            super("stat-passes", LbRedoFactory.describe("stat-passes"));
        }

        @Override
        public long value(long[] s, int c) {
            return passes.get(s);
        }
    }

    final class SpuriousRedos extends Metric {
        SpuriousRedos() {
            super("spurious-redos", LbRedoFactory.describe("spurious-redos"));
        }

        @Override
        public long value(long[] s, int c) {
            return spurious.get(s);
        }
    }

    final class StatWork extends Metric {
        StatWork() {
            super("stat-work", LbRedoFactory.describe("stat-work"));
        }

        @Override
        public long value(long[] s, int c) {
            return work.get(s);
        }
    }
}
