package kcheck.model.lbredo;

import static kcheck.model.lbredo.LbEnv.CPU_NEWLY_IDLE;
import static kcheck.model.lbredo.LbEnv.LBF_ALL_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_DST_PINNED;
import static kcheck.model.lbredo.LbEnv.LBF_NEED_BREAK;
import static kcheck.model.lbredo.LoadBalance.ENTRY;

import kcheck.model.Layout;

/**
 * The lb-redo state layout: which packed field holds which part of the call, the runqueues and
 * the monitors, and the packing between a state and the machine the reference code runs on
 * ({@link Sched} and {@link LoadBalanceCall}).
 *
 * <p>Per CPU outside the local group: its pattern (the tasks' masks, fixed for the run), the length
 * of its {@code cfs_tasks} list and the list itself (task indices within the pattern, head
 * first). Monitors exist only when a selected property reads them ({@link LbRedoMonitors}).
 */
final class LbRedoLayout {
    /** pc value after the call has returned. */
    static final int DONE = 5;

    final LbDomain d;
    final LbRedoMonitors mon;
    final String variant;
    final int n;
    final int dst;
    /** |cpus0 \ local group|: how many CPUs can ever be the busiest queue. */
    final int m;

    final Layout.Field pc;
    final Layout.Field busiest;
    final Layout.Field allPinned;
    final Layout.Field needBreak;
    final Layout.Field cpus;
    final Layout.Field loop;
    final Layout.Field loopBreak;
    final Layout.Field loopMax;
    final Layout.Field imbalance;
    final Layout.Field migrationType;
    final Layout.Field redoCnt;
    final Layout.Field redoMax;
    final Layout.Field ldMoved;
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
    final int width;

    /** "t&lt;cpu&gt;.&lt;i&gt;", by global task number. */
    final String[] taskNames;

    LbRedoLayout(LbDomain d, LbRedoMonitors mon, String variant) {
        this.d = d;
        this.mon = mon;
        this.variant = variant;
        this.n = d.nrCpus;
        this.dst = LbDomain.DST_CPU;
        this.m = d.candidates();
        int bound = Math.max(0, m - 1);
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
    }

    /** The redo bound {@code terminates} checks: |cpus0 \ local group| - 1. */
    int redoBound() {
        return Math.max(0, m - 1);
    }

    /** A machine for this domain with every task named and homed, runqueues empty. */
    Sched newSched() {
        Sched s = new Sched(n, d.groupOf, d.active, Math.max(1, d.nrTasks));
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

    /* ---- state -> machine ---- */

    /** Loads state {@code s} into the machine and the call. */
    void load(long[] s, Sched k, LoadBalanceCall lb) {
        k.resetRqs();
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
            if (masks.length > 0) {
                k.setCurr(c, base);
            }
        }
        int at = pc.getInt(s);
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

    /* ---- machine -> state ---- */

    /** Writes the call and the runqueues after a step of CPU 0 that stopped at {@code at} (not an exit). */
    void store(long[] s, long[] out, int at, Sched k, LoadBalanceCall lb) {
        System.arraycopy(s, 0, out, 0, width);
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
            Rq rq = k.cpuRq(c);
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

    private static void put(long[] s, Layout.Field f, long v, String what) {
        if (v < 0 || v > f.max()) {
            throw new IllegalStateException(what + " = " + v + " does not fit the model's state (max " + f.max() + ")");
        }
        f.set(s, v);
    }
}
