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
    /** Most tasks a CPU without modelled tasks may hold: 1 in the default shape (only CPU 0 receives, one task a call), else {@link #MAX_LOAD}. */
    private final int maxLoad;
    /** Most tasks a CPU of the balancing CPU's groups may hold: {@link #MAX_LOAD}, one more per domain level above two. */
    private final int loadMax;

    final Layout.Field pc;
    final Layout.Field level;
    final Layout.Field callIdle;
    final Layout.Field busiest;
    final Layout.Field allPinned;
    final Layout.Field needBreak;
    final Layout.Field dstPinned;
    final Layout.Field somePinned;
    /** {@code env.dst_cpu}, as an index into {@link #dstChoices}. */
    private final Layout.Field dstCpu;
    /** {@code env.new_dst_cpu} while {@code LBF_DST_PINNED} is set, as 1 + an index into {@link #dstChoices}; 0 otherwise. */
    private final Layout.Field newDstCpu;
    /** The CPUs that can be {@code dst_cpu}: the balancing CPU's group at some level, ascending. */
    private final int[] dstChoices;
    /** CPU number -> index into {@link #dstChoices}, -1 for a CPU that cannot be {@code dst_cpu}. */
    private final int[] dstIndex;
    final Layout.Field envIdle;
    /** {@code env.dst_grpmask} is the local group's span, not its balance mask (they differ only with overlapping groups). */
    final Layout.Field grpmaskSpan;
    /** Per level: the local group's span ({@code sched_group_span(sd->groups)}). */
    private final long[] localGroupSpans;
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
        this.loadMax = MAX_LOAD + Math.max(0, levels - 2);
        this.m = d.maxCandidates();
        this.exactCounters = exactCounters;
        int bound = Math.max(0, m - 1);
        int cap = 0;
        for (int c : d.remote) {
            cap = Math.max(cap, d.cap[c]);
        }
        this.maxCap = cap;
        this.horizon = exactCounters ? -1 : Math.max(LbEnv.SCHED_NR_MIGRATE_BREAK, d.migrateBreak) + maxCap + loadMax + m + 2;
        long counterMax = exactCounters ? 0xffff : horizon;
        this.maxLoad = d.plain ? 1 : loadMax;
        Packer l = new Packer();
        Slot sPc = l.fieldFor(DONE);
        Slot sLevel = l.fieldFor(levels - 1);
        Slot sCallIdle = l.fieldFor(levels > 1 ? LbEnv.CPU_NEWLY_IDLE : 0);
        Slot sBusiest = l.fieldFor(n);
        Slot sAllPinned = l.field(1);
        Slot sNeedBreak = l.field(1);
        Slot sDstPinned = l.field(1);
        Slot sSomePinned = l.field(levels > 1 ? 1 : 0);
        long dsts = 0;
        for (long local : d.localSpans) {
            dsts |= local;
        }
        dstChoices = new int[Long.bitCount(dsts)];
        dstIndex = new int[n];
        java.util.Arrays.fill(dstIndex, -1);
        int k = 0;
        for (long x = dsts; x != 0; x &= x - 1) {
            int c = Long.numberOfTrailingZeros(x);
            dstIndex[c] = k;
            dstChoices[k++] = c;
        }
        Slot sDstCpu = l.fieldFor(dstChoices.length - 1);
        Slot sNewDstCpu = l.fieldFor(dstChoices.length);
        Slot sEnvIdle = l.fieldFor(LbEnv.CPU_NEWLY_IDLE);
        localGroupSpans = new long[levels];
        boolean overlap = false;
        for (int lv = 0; lv < levels; lv++) {
            Sched.SchedDomain sd = d.levels[lv];
            localGroupSpans[lv] = sd.groupSpan()[sd.groupOf()[dst]];
            overlap |= localGroupSpans[lv] != d.localSpans[lv];
        }
        Slot sGrpmaskSpan = l.field(overlap ? 1 : 0);
        Slot sCpus = l.field(n);
        Slot sLoop = l.fieldFor(counterMax);
        Slot sLoopBreak = l.fieldFor(counterMax);
        Slot sLoopMax = l.fieldFor(counterMax);
        Slot sImbalance = l.field(1);
        Slot sMigrationType = l.field(2);
        Slot sRedoCnt = l.fieldFor(m + 1);
        Slot sRedoMax = l.fieldFor(3);
        Slot sLdMoved = l.fieldFor(maxCap);
        Slot sGroupImbalance = l.field(levels > 1 ? 1 : 0);
        Slot sRedos = l.fieldFor(mon.redos() ? bound + 1 : 0);
        Slot sPasses = l.fieldFor(mon.passes() ? m + 2 : 0);
        Slot sSpurious = l.fieldFor(mon.spurious() ? bound + 1 : 0);
        Slot sWork = l.fieldFor(mon.work() ? (long) (m + 2) * n : 0);
        Slot sExamined = l.field(mon.pass() ? 1 : 0);
        Slot sAllAffine = l.field(mon.pass() ? 1 : 0);
        Slot sPullsLeft = l.fieldFor(d.pulls);
        Slot[] sPat = new Slot[n];
        Slot[] sLen = new Slot[n];
        Slot[][] sEntry = new Slot[n][];
        Slot[] sForeign = new Slot[n];
        Slot[] sLoad = new Slot[n];
        for (int c : d.remote) {
            sPat[c] = l.fieldFor(d.patterns[c].length - 1);
            sLen[c] = l.fieldFor(d.cap[c]);
            sEntry[c] = new Slot[d.cap[c]];
            for (int i = 0; i < d.cap[c]; i++) {
                sEntry[c][i] = l.fieldFor(d.cap[c] - 1);
            }
            sForeign[c] = l.fieldFor(d.receives[c] ? loadMax : 0);
        }
        for (int c : d.home) {
            sLoad[c] = l.fieldFor(maxLoad);
        }
        width = l.pack();
        pc = sPc.field;
        level = sLevel.field;
        callIdle = sCallIdle.field;
        busiest = sBusiest.field;
        allPinned = sAllPinned.field;
        needBreak = sNeedBreak.field;
        dstPinned = sDstPinned.field;
        somePinned = sSomePinned.field;
        dstCpu = sDstCpu.field;
        newDstCpu = sNewDstCpu.field;
        envIdle = sEnvIdle.field;
        grpmaskSpan = sGrpmaskSpan.field;
        cpus = sCpus.field;
        loop = sLoop.field;
        loopBreak = sLoopBreak.field;
        loopMax = sLoopMax.field;
        imbalance = sImbalance.field;
        migrationType = sMigrationType.field;
        redoCnt = sRedoCnt.field;
        redoMax = sRedoMax.field;
        ldMoved = sLdMoved.field;
        groupImbalance = sGroupImbalance.field;
        redos = sRedos.field;
        passes = sPasses.field;
        spurious = sSpurious.field;
        work = sWork.field;
        examined = sExamined.field;
        allAffine = sAllAffine.field;
        pullsLeft = sPullsLeft.field;
        pat = new Layout.Field[n];
        len = new Layout.Field[n];
        entry = new Layout.Field[n][];
        foreign = new Layout.Field[n];
        load = new Layout.Field[n];
        for (int c : d.remote) {
            pat[c] = sPat[c].field;
            len[c] = sLen[c].field;
            entry[c] = new Layout.Field[d.cap[c]];
            for (int i = 0; i < d.cap[c]; i++) {
                entry[c][i] = sEntry[c][i].field;
            }
            foreign[c] = sForeign[c].field;
        }
        for (int c : d.home) {
            load[c] = sLoad[c].field;
        }

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
                "env.dst_grpmask is the balancing CPU's group at the current level: its group_balance_mask or its span "
                        + "(they differ with topology=overlap); env.dst_cpu outside the balance mask is the verdict "
                        + "dst-in-balance-mask, not a limit",
                "env.src_cpu is the busiest CPU load_balance found, at every cut",
                "detached tasks are attached before load_balance lets other CPUs run (env.tasks empty at every cut)",
                "tasks move only to the balancing CPU's group at the current level; a CPU of that group holds at most "
                        + MAX_LOAD + " tasks the model does not name, one more per domain level above two (1 in the default shape: one level, newly idle, "
                        + "masks=own, where only CPU 0 receives, one task a call)",
                "ld_moved is at most the most tasks a runqueue starts with; redo_cnt at most |cpus0 \\ local group| + 1; "
                        + "redo_max at most 3",
                "with one domain level, LBF_SOME_PINNED is not kept across the points where other CPUs run (only "
                        + "sd_parent's imbalance reads it, and there is no parent); with two levels it is kept",
                "env.new_dst_cpu is a CPU of the balancing CPU's group, kept only while LBF_DST_PINNED is set (the kernel "
                        + "reads it only then)");
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

    /** {@code env.dst_cpu} in state s. */
    int dstCpu(long[] s) {
        return dstChoices[dstCpu.getInt(s)];
    }

    void setDstCpu(long[] s, int cpu) {
        dstCpu.set(s, dstIndex[cpu]);
    }

    /** {@code env.new_dst_cpu} in state s while {@code LBF_DST_PINNED} is set, else -1. */
    int newDstCpu(long[] s) {
        int v = newDstCpu.getInt(s);
        return v == 0 ? -1 : dstChoices[v - 1];
    }

    void setNewDstCpu(long[] s, int cpu) {
        newDstCpu.set(s, cpu < 0 ? 0 : dstIndex[cpu] + 1);
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
            long hotSet = d.hot[c][pat[c].getInt(s)];
            int base = d.taskBase[c];
            for (int i = 0; i < masks.length; i++) {
                k.setTask(base + i, masks[i], c, taskNames[base + i]);
                k.setTaskHot(base + i, (hotSet >>> i & 1) != 0);
            }
            int l = len[c].getInt(s);
            for (int j = 0; j < l; j++) {
                k.enqueueTail(c, base + entry[c][j].getInt(s));
            }
            if (d.receives[c]) {
                k.setUnnamedTasks(c, foreign[c].getInt(s));
            }
            if (masks.length > 0) {
                k.setCurr(c, base);
            }
        }
        for (int c : d.home) {
            k.setUnnamedTasks(c, load[c].getInt(s));
        }
        if (lvl + 1 < levels) {
            k.setGroupImbalance(lvl + 1, groupImbalance.get(s) != 0);
        }
        int at = pc.getInt(s);
        lb.start(dst, callIdle(s));
        lb.at = at;
        LbEnv env = lb.env;
        if (at != ENTRY) {
            env.dstCpu = dstCpu(s);
            env.dstGrpmask = grpmaskSpan.get(s) != 0 ? localGroupSpans[lvl] : d.localSpans[lvl];
            env.idle = envIdle.getInt(s);
        }
        lb.busiest = busiest.getInt(s) - 1;
        env.srcCpu = lb.busiest;
        env.flags = (allPinned.get(s) != 0 ? LBF_ALL_PINNED : 0) | (needBreak.get(s) != 0 ? LBF_NEED_BREAK : 0)
                | (dstPinned.get(s) != 0 ? LBF_DST_PINNED : 0) | (somePinned.get(s) != 0 ? LBF_SOME_PINNED : 0);
        env.newDstCpu = newDstCpu(s);
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
        if (env.idle != LbEnv.CPU_IDLE && env.idle != LbEnv.CPU_NOT_IDLE && env.idle != LbEnv.CPU_NEWLY_IDLE) {
            throw limit("env.idle must be CPU_IDLE, CPU_NOT_IDLE or CPU_NEWLY_IDLE: this variant set " + env.idle + where(at));
        }
        if (env.dstGrpmask != d.localSpans[lvl] && env.dstGrpmask != localGroupSpans[lvl]) {
            throw limit("env.dst_grpmask must be the balancing CPU's group: its group_balance_mask "
                    + LbRedoDecoder.cpuList(d.localSpans[lvl]) + " or its span " + LbRedoDecoder.cpuList(localGroupSpans[lvl])
                    + ": this variant set " + LbRedoDecoder.cpuList(env.dstGrpmask) + where(at));
        }
        if (env.dstCpu < 0 || env.dstCpu >= n || (d.localSpans[lvl] & (1L << env.dstCpu)) == 0) {
            throw limit("env.dst_cpu must stay in the balancing CPU's group " + LbRedoDecoder.cpuList(d.localSpans[lvl])
                    + ": this variant moved it to CPU " + env.dstCpu + where(at));
        }
        if (env.srcCpu != lb.busiest) {
            throw limit("env.src_cpu must be the busiest CPU (" + lb.busiest + ") at every cut: this variant left "
                    + env.srcCpu + where(at));
        }
        if (env.nrTasks != 0) {
            throw limit("detached tasks must be attached before load_balance lets other CPUs run: this variant left "
                    + env.nrTasks + " on env.tasks" + where(at));
        }
        boolean dstPinnedSet = (env.flags & LBF_DST_PINNED) != 0;
        pc.set(out, at);
        busiest.set(out, lb.busiest + 1);
        allPinned.set(out, (env.flags & LBF_ALL_PINNED) != 0 ? 1 : 0);
        needBreak.set(out, (env.flags & LBF_NEED_BREAK) != 0 ? 1 : 0);
        dstPinned.set(out, dstPinnedSet ? 1 : 0);
        somePinned.set(out, (env.flags & LBF_SOME_PINNED) != 0 ? 1 : 0);
        setDstCpu(out, env.dstCpu);
        if (dstPinnedSet && (env.newDstCpu < 0 || env.newDstCpu >= n || (d.localSpans[lvl] & (1L << env.newDstCpu)) == 0)) {
            throw limit("env.new_dst_cpu must be a CPU of the balancing CPU's group " + LbRedoDecoder.cpuList(d.localSpans[lvl])
                    + " while LBF_DST_PINNED is set: this variant left " + env.newDstCpu + where(at));
        }
        setNewDstCpu(out, dstPinnedSet ? env.newDstCpu : -1);
        envIdle.set(out, env.idle);
        grpmaskSpan.set(out, env.dstGrpmask != d.localSpans[lvl] ? 1 : 0);
        cpus.set(out, env.cpus);
        storeCounters(out, env, at);
        if (!fits(imbalance, env.imbalance)) {
            throw range("env.imbalance", "0 or 1 (calculate_imbalance is abstracted to one task)", env.imbalance, at);
        }
        imbalance.set(out, env.imbalance);
        if (!fits(migrationType, env.migrationType)) {
            throw range("env.migration_type", "0..3 (enum migration_type)", env.migrationType, at);
        }
        migrationType.set(out, env.migrationType);
        if (!fits(redoCnt, env.redoCnt)) {
            throw range("env.redo_cnt", "0.." + redoCnt.max(), env.redoCnt, at);
        }
        redoCnt.set(out, env.redoCnt);
        if (!fits(redoMax, env.redoMax)) {
            throw range("env.redo_max", "0..3", env.redoMax, at);
        }
        redoMax.set(out, env.redoMax);
        if (!fits(ldMoved, lb.ldMoved)) {
            throw range("ld_moved", "0.." + ldMoved.max() + " (the most tasks a runqueue starts with)", lb.ldMoved, at);
        }
        ldMoved.set(out, lb.ldMoved);
        if (levels > 1) {
            groupImbalance.set(out, lvl + 1 < levels && k.groupImbalance(lvl + 1) ? 1 : 0);
        }
        storeRqs(out, k, at);
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
    private void storeCounters(long[] out, LbEnv env, int at) {
        if (exactCounters) {
            if (!fits(loop, env.loop) || !fits(loopBreak, env.loopBreak) || !fits(loopMax, env.loopMax)) {
                throw range("env.loop, loop_break and loop_max", "0..65535 (unabstracted)",
                        Math.max(env.loop, Math.max(env.loopBreak, env.loopMax)), at);
            }
            loop.set(out, env.loop);
            loopBreak.set(out, env.loopBreak);
            loopMax.set(out, env.loopMax);
            return;
        }
        if (env.loop < 0 || env.loop > horizon) {
            throw limit("keeps env.loop exact up to " + horizon + " (SCHED_NR_MIGRATE_BREAK "
                    + Math.max(LbEnv.SCHED_NR_MIGRATE_BREAK, d.migrateBreak) + " + " + maxCap + " tasks + " + loadMax
                    + " received + " + m + " CPUs that can be busiest + 2): this variant reached " + env.loop + where(at));
        }
        if (env.loopBreak < 0 || env.loopMax < 0) {
            throw limit("env.loop_break and env.loop_max must not be negative: this variant set loop_break " + env.loopBreak
                    + ", loop_max " + env.loopMax + where(at));
        }
        loop.set(out, env.loop);
        loopBreak.set(out, Math.min(env.loopBreak, horizon));
        loopMax.set(out, Math.min(env.loopMax, horizon));
    }

    /** Writes the runqueues: each CPU's own tasks in list order, tasks it received and the load of the balancing CPU's group. */
    void storeRqs(long[] out, Sched k, int at) {
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
                        + ": this variant moved one to CPU " + c + where(at));
            }
            if (!fits(foreign[c], received)) {
                throw range("tasks pulled to CPU " + c, "0.." + loadMax, received, at);
            }
            foreign[c].set(out, received);
        }
        for (int c : d.home) {
            int tasks = k.cpuRq(c).nrRunning;
            if (!fits(load[c], tasks)) {
                throw range("tasks on CPU " + c, "0.." + maxLoad + " (its own and those pulled to it)", tasks, at);
            }
            load[c].set(out, tasks);
        }
    }

    private static boolean fits(Layout.Field f, long v) {
        return v >= 0 && v <= f.max();
    }

    private ModelLimitException range(String what, String range, long v, int at) {
        return limit("packs " + what + " as " + range + ": this variant reached " + v + where(at));
    }

    /** Where a limit was hit, for its message: the cut the call stopped at, or its return (-1). */
    private static String where(int at) {
        return at < 0 ? " (when load_balance returned)" : " (at " + LoadBalance.LABELS[at] + ")";
    }

    private ModelLimitException limit(String msg) {
        return new ModelLimitException(LbRedoFactory.NAME + " (variant " + variant + "): " + msg);
    }

    /** A field request: its width, and the field once {@link Packer#pack} placed it. */
    private static final class Slot {
        final int bits;
        Layout.Field field;

        Slot(int bits) {
            this.bits = bits;
        }
    }

    /**
     * Places the fields in as few words as it can: first-fit decreasing into 64-bit words, then
     * declared word by word, so that {@link Layout}'s sequential packing reproduces the bins (an
     * item of a later bin never fits the free bits of an earlier one).
     */
    private static final class Packer {
        private final java.util.List<Slot> slots = new java.util.ArrayList<>();

        Slot field(int bits) {
            Slot s = new Slot(bits);
            slots.add(s);
            return s;
        }

        Slot fieldFor(long maxValue) {
            return field(Layout.bitsFor(maxValue));
        }

        /** Places every field; returns the number of words. */
        int pack() {
            java.util.List<Slot> order = new java.util.ArrayList<>(slots);
            order.sort((a, b) -> Integer.compare(b.bits, a.bits));
            java.util.List<java.util.List<Slot>> bins = new java.util.ArrayList<>();
            java.util.List<Integer> free = new java.util.ArrayList<>();
            for (Slot s : order) {
                if (s.bits == 0) {
                    continue;
                }
                int b = 0;
                while (b < bins.size() && free.get(b) < s.bits) {
                    b++;
                }
                if (b == bins.size()) {
                    bins.add(new java.util.ArrayList<>());
                    free.add(64);
                }
                bins.get(b).add(s);
                free.set(b, free.get(b) - s.bits);
            }
            Layout l = new Layout();
            for (java.util.List<Slot> bin : bins) {
                for (Slot s : bin) {
                    s.field = l.field(s.bits);
                }
            }
            for (Slot s : slots) {
                if (s.bits == 0) {
                    s.field = l.field(0);
                }
            }
            return l.words();
        }
    }
}
