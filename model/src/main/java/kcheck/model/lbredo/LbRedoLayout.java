package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.LBF_ALL_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_DST_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_NEED_BREAK;
import static kcheck.model.lbredo.LbEnv.LBF_SOME_PINNED;
import static kcheck.model.lbredo.LoadBalance.ENTRY;

import java.util.List;

import kcheck.model.Layout;
import kcheck.model.ModelLimitException;

/**
 * The lb-redo state layout: which packed field holds which part of the call, the runqueues and
 * the monitors, and the packing between a state and the machine the reference code runs on
 * ({@link Sched} and {@link LoadBalanceCall}). Every assumption the packing makes about what a
 * variant does is checked here, where it is made, and reported as {@link ModelLimitException}
 * with the limit in words ({@link #limits}).
 *
 * <p>Per CPU with tasks: its pattern (the tasks' masks, fixed for the run), the length of its
 * {@code cfs_tasks} list and the list itself (task indices within the pattern, head first), and
 * for a CPU that may also receive tasks at a higher level, how many it received. Per CPU
 * without modelled tasks (the balancing CPU's group): how many tasks it runs. Monitors exist only
 * when a selected property reads them ({@link LbRedoMonitors}).
 *
 * <p><b>The loop counters</b> are kept at the kernel's values ({@code sysctl_sched_nr_migrate}
 * 32, {@code loop_break} 32, 64, ...) through one abstraction: {@code env.loop} is exact up to the
 * horizon {@link #horizon} H = SCHED_NR_MIGRATE_BREAK + (the most tasks a runqueue can hold) +
 * (the most CPUs that can be busiest) + 2, and {@code env.loop_break} and {@code env.loop_max}
 * are exact below H, every value from H up being one class (stored as H). The reference code
 * reads these counters only in {@code loop > loop_max}, {@code loop > loop_break} and
 * {@code loop < nr_running}, changes {@code loop} only by {@code loop++} and {@code loop = 0}, and
 * {@code loop_break} only by {@code += SCHED_NR_MIGRATE_BREAK} and {@code = SCHED_NR_MIGRATE_BREAK};
 * as long as {@code loop <= H} (checked: beyond is a {@link ModelLimitException}), every such
 * comparison gives the same answer for any two values of the class, and the updates map the class
 * to itself: two states that differ only inside the class have the same successors (a
 * bisimulation), so the search is exact. docs/models/lb-redo.md has the proof;
 * {@code LbRedoCounterAbstractionTest} compares with unabstracted counters.
 */
final class LbRedoLayout {
    /** pc value after the call has returned. */
    static final int DONE = 5;
    /** Most tasks a CPU without modelled tasks may hold (its own and those pulled to it). */
    static final int MAX_LOAD = 3;

    final LbDomain d;
    final LbRedoMonitors mon;
    final String variant;
    final int n;
    final int dst;
    final int levels;
    /** The most CPUs that can be busiest at one level. */
    final int m;
    /** Most tasks any runqueue starts with. */
    final int maxCap;
    /** The counter horizon H (see the class comment); -1 when counters are kept unabstracted. */
    final int horizon;
    private final boolean exactCounters;

    final Layout.Field pc;
    final Layout.Field level;
    final Layout.Field callIdle;
    final Layout.Field busiest;
    final Layout.Field allPinned;
    final Layout.Field needBreak;
    final Layout.Field dstPinned;
    final Layout.Field somePinned;
    final Layout.Field dstCpu;
    final Layout.Field newDstCpu;
    final Layout.Field envIdle;
    final Layout.Field cpus;
    final Layout.Field loop;
    final Layout.Field loopBreak;
    final Layout.Field loopMax;
    final Layout.Field imbalance;
    final Layout.Field migrationType;
    final Layout.Field redoCnt;
    final Layout.Field redoMax;
    final Layout.Field ldMoved;
    final Layout.Field groupImbalance;
    final Layout.Field redos;
    final Layout.Field passes;
    final Layout.Field spurious;
    final Layout.Field work;
    final Layout.Field examined;
    final Layout.Field allAffine;
    final Layout.Field pullsLeft;
    final Layout.Field[] pat;
    final Layout.Field[] len;
    final Layout.Field[][] entry;
    final Layout.Field[] foreign;
    final Layout.Field[] load;
    final int width;

    /** "t&lt;cpu&gt;.&lt;i&gt;", by global task number. */
    final String[] taskNames;

    LbRedoLayout(LbDomain d, LbRedoMonitors mon, String variant) {
        this(d, mon, variant, false);
    }

    /**
     * @param exactCounters keep {@code loop}, {@code loop_break} and {@code loop_max} unabstracted
     *                      (16 bits each, no class above the horizon): the reference the
     *                      abstraction is tested against
     */
    LbRedoLayout(LbDomain d, LbRedoMonitors mon, String variant, boolean exactCounters) {
        this.d = d;
        this.mon = mon;
        this.variant = variant;
        this.n = d.nrCpus;
        this.dst = LbDomain.DST_CPU;
        this.levels = d.levels();
        this.m = d.maxCandidates();
        this.exactCounters = exactCounters;
        int bound = Math.max(0, m - 1);
        int cap = 0;
        for (int c : d.remote) {
            cap = Math.max(cap, d.cap[c]);
        }
        this.maxCap = cap;
        this.horizon = exactCounters ? -1 : Math.max(LbEnv.SCHED_NR_MIGRATE_BREAK, d.migrateBreak) + maxCap + MAX_LOAD + m + 2;
        long counterMax = exactCounters ? 0xffff : horizon;
        Layout l = new Layout();
        pc = l.fieldFor(DONE);
        level = l.fieldFor(levels - 1);
        callIdle = l.fieldFor(levels > 1 ? LbEnv.CPU_NEWLY_IDLE : 0);
        busiest = l.fieldFor(n);
        allPinned = l.field(1);
        needBreak = l.field(1);
        dstPinned = l.field(1);
        somePinned = l.field(levels > 1 ? 1 : 0);
        dstCpu = l.fieldFor(n - 1);
        newDstCpu = l.fieldFor(n);
        envIdle = l.fieldFor(LbEnv.CPU_NEWLY_IDLE);
        cpus = l.field(n);
        loop = l.fieldFor(counterMax);
        loopBreak = l.fieldFor(counterMax);
        loopMax = l.fieldFor(counterMax);
        imbalance = l.field(1);
        migrationType = l.field(2);
        redoCnt = l.fieldFor(m + 1);
        redoMax = l.fieldFor(3);
        ldMoved = l.fieldFor(maxCap);
        groupImbalance = l.field(levels > 1 ? 1 : 0);
        redos = l.fieldFor(mon.redos() ? bound + 1 : 0);
        passes = l.fieldFor(mon.passes() ? m + 2 : 0);
        spurious = l.fieldFor(mon.spurious() ? bound + 1 : 0);
        work = l.fieldFor(mon.work() ? (long) (m + 2) * n : 0);
        examined = l.field(mon.pass() ? 1 : 0);
        allAffine = l.field(mon.pass() ? 1 : 0);
        pullsLeft = l.fieldFor(d.pulls);
        pat = new Layout.Field[n];
        len = new Layout.Field[n];
        entry = new Layout.Field[n][];
        foreign = new Layout.Field[n];
        load = new Layout.Field[n];
        for (int c : d.remote) {
            pat[c] = l.fieldFor(d.patterns[c].length - 1);
            len[c] = l.fieldFor(d.cap[c]);
            entry[c] = new Layout.Field[d.cap[c]];
            for (int i = 0; i < d.cap[c]; i++) {
                entry[c][i] = l.fieldFor(d.cap[c] - 1);
            }
            foreign[c] = l.fieldFor(d.receives[c] ? MAX_LOAD : 0);
        }
        for (int c : d.home) {
            load[c] = l.fieldFor(MAX_LOAD);
        }
        width = l.words();

        taskNames = new String[d.nrTasks];
        for (int c : d.remote) {
            for (int i = 0; i < d.cap[c]; i++) {
                taskNames[d.taskBase[c] + i] = "t" + c + "." + i;
            }
        }
    }

    /** What the packing assumes of a variant, one sentence each (the factory's {@code limits()}). */
    static List<String> limits() {
        return List.of(
                "env.loop is exact up to the horizon H = SCHED_NR_MIGRATE_BREAK + (most tasks on a runqueue) + 3 + "
                        + "(most CPUs that can be busiest) + 2 (41 at the default bounds); env.loop_break and env.loop_max "
                        + "from H up are one class; a variant whose env.loop passes H, or sets a counter below 0, is refused",
                "the counters are used only as the kernel does: env->loop++ / env->loop = 0, env->loop_break += or = "
                        + "SCHED_NR_MIGRATE_BREAK, compared in loop > loop_max, loop > loop_break and loop < nr_running",
                "env.imbalance is 0 or 1 at every cut (calculate_imbalance is abstracted to migrate_task, one task)",
                "env.migration_type is one of migrate_load, migrate_util, migrate_task, migrate_misfit (0..3)",
                "env.idle is CPU_IDLE, CPU_NOT_IDLE or CPU_NEWLY_IDLE",
                "env.dst_cpu stays in the balancing CPU's group at the current level (dst_grpmask), and "
                        + "env.dst_grpmask is that group's span",
                "env.src_cpu is the busiest CPU load_balance found, at every cut",
                "detached tasks are attached before load_balance lets other CPUs run (env.tasks empty at every cut)",
                "tasks move only to the balancing CPU's group at the current level; a CPU of that group holds at most "
                        + MAX_LOAD + " tasks the model does not name",
                "ld_moved is at most the most tasks a runqueue starts with; redo_cnt at most |cpus0 \\ local group| + 1; "
                        + "redo_max at most 3",
                "with one domain level, LBF_SOME_PINNED is not kept across the points where other CPUs run (only "
                        + "sd_parent's imbalance reads it, and there is no parent); with two levels it is kept",
                "env.new_dst_cpu is kept only while LBF_DST_PINNED is set (the kernel reads it only then)");
    }

    /** The redo bound {@code terminates} checks at {@code level}: |cpus0 \ local group| - 1. */
    int redoBound(int level) {
        return Math.max(0, d.candidates(level) - 1);
    }

    /** A machine for this domain with every task named and homed, runqueues empty. */
    Sched newSched() {
        Sched s = d.newSched();
        for (int c : d.remote) {
            for (int i = 0; i < d.cap[c]; i++) {
                s.setTask(d.taskBase[c] + i, 0, c, taskNames[d.taskBase[c] + i]);
            }
        }
        return s;
    }

    /** The affinity masks of CPU c's tasks in state s (its pattern). */
    long[] masks(long[] s, int c) {
        return d.patterns[c][pat[c].getInt(s)];
    }

    /** The {@code idle} argument of the call in state s. */
    int callIdle(long[] s) {
        return levels > 1 ? callIdle.getInt(s) : d.idle;
    }

    /** A fresh state at the start of the walk: every runqueue its pattern's, head first; the call at entry. */
    void initial(long[] s, int[] choice) {
        java.util.Arrays.fill(s, 0L);
        pc.set(s, ENTRY);
        callIdle.set(s, d.idle);
        pullsLeft.set(s, d.pulls);
        for (int j = 0; j < d.remote.length; j++) {
            int c = d.remote[j];
            pat[c].set(s, choice[j]);
            int tasks = d.patterns[c][choice[j]].length;
            len[c].set(s, tasks);
            for (int i = 0; i < tasks; i++) {
                entry[c][i].set(s, i);
            }
        }
        for (int c : d.home) {
            load[c].set(s, d.homeLoad);
        }
    }

    /* ---- state -> machine ---- */

    /** Loads state {@code s} into the machine and the call. */
    void load(long[] s, Sched k, LoadBalanceCall lb) {
        k.resetRqs();
        int lvl = level.getInt(s);
        k.setLevel(lvl);
        for (int c : d.remote) {
            long[] masks = masks(s, c);
            int base = d.taskBase[c];
            for (int i = 0; i < masks.length; i++) {
                k.setTask(base + i, masks[i], c, taskNames[base + i]);
            }
            int l = len[c].getInt(s);
            for (int j = 0; j < l; j++) {
                k.enqueueTail(c, base + entry[c][j].getInt(s));
            }
            k.setUnnamedTasks(c, foreign[c].getInt(s));
            if (masks.length > 0) {
                k.setCurr(c, base);
            }
        }
        for (int c : d.home) {
            k.setUnnamedTasks(c, load[c].getInt(s));
        }
        if (levels > 1) {
            k.setGroupImbalance(1, groupImbalance.get(s) != 0);
        }
        int at = pc.getInt(s);
        lb.start(dst, callIdle(s));
        lb.at = at;
        LbEnv env = lb.env;
        if (at != ENTRY) {
            env.dstCpu = dstCpu.getInt(s);
            env.dstGrpmask = d.localSpans[lvl];
            env.idle = envIdle.getInt(s);
        }
        lb.busiest = busiest.getInt(s) - 1;
        env.srcCpu = lb.busiest;
        env.flags = (allPinned.get(s) != 0 ? LBF_ALL_PINNED : 0) | (needBreak.get(s) != 0 ? LBF_NEED_BREAK : 0)
                | (dstPinned.get(s) != 0 ? LBF_DST_PINNED : 0) | (somePinned.get(s) != 0 ? LBF_SOME_PINNED : 0);
        env.newDstCpu = newDstCpu.getInt(s) - 1;
        env.cpus = cpus.get(s);
        env.loop = loop.getInt(s);
        env.loopBreak = loopBreak.getInt(s);
        env.loopMax = loopMax.getInt(s);
        env.imbalance = imbalance.get(s);
        env.migrationType = migrationType.getInt(s);
        env.redoCnt = redoCnt.getInt(s);
        env.redoMax = redoMax.getInt(s);
        lb.ldMoved = ldMoved.getInt(s);
        k.setMonitors(passes.getInt(s), work.get(s), examined.get(s) != 0, allAffine.get(s) != 0);
    }

    /* ---- machine -> state ---- */

    /** Writes the call and the runqueues after a step of CPU 0 that stopped at {@code at} (not an exit). */
    void store(long[] s, long[] out, int at, Sched k, LoadBalanceCall lb) {
        System.arraycopy(s, 0, out, 0, width);
        LbEnv env = lb.env;
        int lvl = level.getInt(s);
        String where = " (at " + LoadBalance.LABELS[at] + ")";
        if (env.idle != LbEnv.CPU_IDLE && env.idle != LbEnv.CPU_NOT_IDLE && env.idle != LbEnv.CPU_NEWLY_IDLE) {
            throw limit("env.idle must be CPU_IDLE, CPU_NOT_IDLE or CPU_NEWLY_IDLE: this variant set " + env.idle + where);
        }
        if (env.dstGrpmask != d.localSpans[lvl]) {
            throw limit("env.dst_grpmask must be the span of the balancing CPU's group " + LbRedoDecoder.cpuList(d.localSpans[lvl])
                    + ": this variant set " + LbRedoDecoder.cpuList(env.dstGrpmask) + where);
        }
        if (env.dstCpu < 0 || env.dstCpu >= n || (d.localSpans[lvl] & (1L << env.dstCpu)) == 0) {
            throw limit("env.dst_cpu must stay in the balancing CPU's group " + LbRedoDecoder.cpuList(d.localSpans[lvl])
                    + ": this variant moved it to CPU " + env.dstCpu + where);
        }
        if (env.srcCpu != lb.busiest) {
            throw limit("env.src_cpu must be the busiest CPU (" + lb.busiest + ") at every cut: this variant left "
                    + env.srcCpu + where);
        }
        if (env.nrTasks != 0) {
            throw limit("detached tasks must be attached before load_balance lets other CPUs run: this variant left "
                    + env.nrTasks + " on env.tasks" + where);
        }
        boolean dstPinnedSet = (env.flags & LBF_DST_PINNED) != 0;
        pc.set(out, at);
        busiest.set(out, lb.busiest + 1);
        allPinned.set(out, (env.flags & LBF_ALL_PINNED) != 0 ? 1 : 0);
        needBreak.set(out, (env.flags & LBF_NEED_BREAK) != 0 ? 1 : 0);
        dstPinned.set(out, dstPinnedSet ? 1 : 0);
        somePinned.set(out, (env.flags & LBF_SOME_PINNED) != 0 ? 1 : 0);
        dstCpu.set(out, env.dstCpu);
        if (dstPinnedSet && (env.newDstCpu < 0 || env.newDstCpu >= n)) {
            throw limit("env.new_dst_cpu must be a CPU while LBF_DST_PINNED is set: this variant left " + env.newDstCpu + where);
        }
        newDstCpu.set(out, dstPinnedSet ? env.newDstCpu + 1 : 0);
        envIdle.set(out, env.idle);
        cpus.set(out, env.cpus);
        storeCounters(out, env, where);
        put(out, imbalance, env.imbalance, "env.imbalance", "0 or 1 (calculate_imbalance is abstracted to one task)", where);
        put(out, migrationType, env.migrationType, "env.migration_type", "0..3 (enum migration_type)", where);
        put(out, redoCnt, env.redoCnt, "env.redo_cnt", "0.." + redoCnt.max(), where);
        put(out, redoMax, env.redoMax, "env.redo_max", "0..3", where);
        put(out, ldMoved, lb.ldMoved, "ld_moved", "0.." + ldMoved.max() + " (the most tasks a runqueue starts with)", where);
        if (levels > 1) {
            groupImbalance.set(out, lvl == 0 && k.groupImbalance(1) ? 1 : 0);
        }
        storeRqs(out, k, where);
        if (mon.passes()) {
            passes.set(out, Math.min(k.passes(), passes.max()));
        }
        if (mon.work()) {
            work.set(out, Math.min(k.statWork(), work.max()));
        }
        if (mon.pass()) {
            examined.set(out, k.examined() ? 1 : 0);
            allAffine.set(out, k.allAffine() ? 1 : 0);
        }
    }

    /**
     * The counters, abstracted (class comment): {@code loop} exact up to the horizon,
     * {@code loop_break} and {@code loop_max} exact below it and one class from it up.
     */
    private void storeCounters(long[] out, LbEnv env, String where) {
        if (exactCounters) {
            put(out, loop, env.loop, "env.loop", "0..65535 (unabstracted)", where);
            put(out, loopBreak, env.loopBreak, "env.loop_break", "0..65535 (unabstracted)", where);
            put(out, loopMax, env.loopMax, "env.loop_max", "0..65535 (unabstracted)", where);
            return;
        }
        if (env.loop < 0 || env.loop > horizon) {
            throw limit("keeps env.loop exact up to " + horizon + " (SCHED_NR_MIGRATE_BREAK "
                    + Math.max(LbEnv.SCHED_NR_MIGRATE_BREAK, d.migrateBreak) + " + " + maxCap + " tasks + " + MAX_LOAD
                    + " pulled + " + m + " CPUs that can be busiest + 2): this variant reached " + env.loop + where);
        }
        if (env.loopBreak < 0 || env.loopMax < 0) {
            throw limit("env.loop_break and env.loop_max must not be negative: this variant set loop_break " + env.loopBreak
                    + ", loop_max " + env.loopMax + where);
        }
        loop.set(out, env.loop);
        loopBreak.set(out, Math.min(env.loopBreak, horizon));
        loopMax.set(out, Math.min(env.loopMax, horizon));
    }

    /** Writes the runqueues: each CPU's own tasks in list order, tasks it received and the load of the balancing CPU's group. */
    void storeRqs(long[] out, Sched k, String where) {
        for (int c : d.remote) {
            Rq rq = k.cpuRq(c);
            int l = rq.length();
            int base = d.taskBase[c];
            int own = 0;
            for (int j = 0; j < l; j++) {
                int idx = rq.task(j) - base;
                if (idx < 0 || idx >= d.cap[c]) {
                    continue;
                }
                entry[c][own++].set(out, idx);
            }
            for (int j = own; j < d.cap[c]; j++) {
                entry[c][j].set(out, 0);
            }
            len[c].set(out, own);
            int received = rq.nrRunning - own;
            if (received != 0 && !d.receives[c]) {
                throw limit("tasks move only to the balancing CPU's group " + LbRedoDecoder.cpuList(d.localSpans[k.level()])
                        + ": this variant moved one to CPU " + c + where);
            }
            put(out, foreign[c], received, "tasks pulled to CPU " + c, "0.." + MAX_LOAD, where);
        }
        for (int c : d.home) {
            put(out, load[c], k.cpuRq(c).nrRunning, "tasks on CPU " + c, "0.." + MAX_LOAD
                    + " (its own and those pulled to it)", where);
        }
    }

    private void put(long[] s, Layout.Field f, long v, String what, String range, String where) {
        if (v < 0 || v > f.max()) {
            throw limit("packs " + what + " as " + range + ": this variant reached " + v + where);
        }
        f.set(s, v);
    }

    private ModelLimitException limit(String msg) {
        return new ModelLimitException(LbRedoFactory.NAME + " (variant " + variant + "): " + msg);
    }
}
