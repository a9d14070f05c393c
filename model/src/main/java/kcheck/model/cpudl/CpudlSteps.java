package kcheck.model.cpudl;

import kcheck.model.ModelLimitException;
import kcheck.model.StepSink;

/**
 * Step enumeration of the cpudl model, with the scratch space of one thread: decode the state into
 * a {@link Cpudl} of real u64 deadlines, run the variant's port on a copy for each call, encode
 * the result. Step numbers (actions), in emission order:
 *
 * <pre>
 *   c * dn + k                 cpudl_set(cpu=c, dl=dom[k])
 *   clearBase + c              cpudl_clear(cpu=c)                   (runqueue online)
 *   clearOffBase + c           cpudl_clear(cpu=c) on an offline rq   (hotplug=on)
 *   hotplugBase + 4c + h       h: 0 rq_offline_dl [cpu down], 1 rq_offline_dl [root domain change],
 *                                 2 rq_online_dl [cpu up], 3 rq_online_dl [root domain change]
 *   findBase + task * codes + answer
 * </pre>
 *
 * A task is (deadline, affinity, density, task_cpu); its answer is the CPU + 1 (n + 1: out of
 * range) for a v4.x {@code cpudl_find}, else {@code ret | later_mask << 1}.
 */
public final class CpudlSteps {
    /** Receives the calls the model offers at a state (for the conformance walk). */
    @FunctionalInterface
    public interface CallSink {
        /**
         * {@code kind}: 0 {@code cpudl_set(cpu, dl)}, 1 {@code cpudl_clear(cpu, online=flag)}, 2
         * {@code rq_offline_dl(cpu)}, 3 {@code rq_online_dl(cpu)} (flag: the runqueue has deadline
         * tasks, earliest {@code dl}), 4 {@code cpudl_find(task)} ({@code task} only valid during the call).
         */
        void call(int kind, int cpu, long dl, boolean flag, DlTask task);
    }

    private final CpudlModel m;
    private final CpudlLayout l;
    private final long[] nx;
    private final Cpudl cp;
    private final Cpudl work;
    private final Cpudl sh;
    private final Cpudl shWork;
    private final Cpumask later;
    private final long[] caps;
    private final DlTask task;
    private final CpudlRace race;

    CpudlSteps(CpudlModel m) {
        this.m = m;
        this.l = m.layout;
        int n = m.n;
        this.nx = new long[l.width];
        this.cp = Cpudl.init(n);
        this.work = Cpudl.init(n);
        this.sh = Cpudl.init(n);
        this.shWork = Cpudl.init(n);
        this.later = new Cpumask(n);
        this.caps = m.asymDims ? m.fixedCapacities() : null;
        this.task = new DlTask(0, m.aff[0], 0, 0);
        this.work.setAccessBudget(accessBudget(n));
        this.race = m.findRace ? new CpudlRace(n) : null;

    }

    /**
     * The element accesses one call may make: O(log n), generous (a heapify level reads and writes
     * at most about ten fields; a call runs at most two heapify walks and a removal). Beyond it the
     * call is stopped: {@code bounded-work} VIOLATED. Public: the generated-input suite bounds its calls the same way.
     */
    public static long accessBudget(int n) {
        return 64L * (kcheck.model.Layout.bitsFor(n) + 2);
    }


    void successors(long[] s, StepSink out) {
        int n = m.n;
        int dn = m.dn;
        if (l.faultCode(s) != CpudlFault.NONE) {
            return; /* a state the kernel flagged: terminal */
        }
        int d = l.depth.getInt(s);
        l.decodeMain(s, cp, caps);
        long live = l.live(s);
        if (d < m.maxDepth) {
            boolean compare = m.same && l.premiseOff.get(s) == 0;
            if (compare) {
                l.decodeHeap(s, sh, true);
            }
            for (int c = 0; c < n; c++) {
                if (l.state(s, c) == CpudlLayout.OUT) {
                    continue;
                }
                /*
                 * the window holds the CPU's current deadline too: an update compares the new key with it (v4.8's
                 * cpudl_change_key), and in the kernel the old and the new earliest deadline of a runqueue are both
                 * near the clock
                 */
                long others = live;
                for (int k = 0; k < dn; k++) {
                    if (!m.dom.windowed(others | (1L << k))) {
                        continue;
                    }
                    if (!run(0, c, k, false, s) || !encode(s, d)) {
                        out.step(0, c * dn + k, nx);
                        continue;
                    }
                    l.ref[c].set(nx, k + 1);
                    if (l.hotplug) {
                        l.rqdl[c].set(nx, k + 1);
                    }
                    CpudlFault.Flagged raced = raceCheck(s);
                    finishOrFault(nx, d, 0, compare, c, k, false, s);
                    out.step(0, c * dn + k, nx);
                    if (raced != null) {
                        toFault(s, d, raced);
                        out.step(0, m.raceBase + c * dn + k, nx);
                    }
                }
            }
            for (int c = 0; c < n; c++) {
                int st = l.state(s, c);
                if (st == CpudlLayout.OUT) {
                    continue;
                }
                boolean online = st == CpudlLayout.ON;
                if (!run(1, c, -1, online, s) || !encode(s, d)) {
                    out.step(0, (online ? m.clearBase : m.clearOffBase) + c, nx);
                    continue;
                }
                l.ref[c].set(nx, 0);
                if (l.hotplug) {
                    l.rqdl[c].set(nx, 0);
                }
                CpudlFault.Flagged raced = raceCheck(s);
                finishOrFault(nx, d, 1, compare, c, -1, online, s);
                out.step(0, (online ? m.clearBase : m.clearOffBase) + c, nx);
                if (raced != null) {
                    toFault(s, d, raced);
                    out.step(0, m.raceBase + (online ? m.clearBase : m.clearOffBase) + c, nx);
                }
            }
            if (l.hotplug) {
                for (int c = 0; c < n; c++) {
                    int st = l.state(s, c);
                    for (int h = 0; h < 4; h++) {
                        boolean offline = h < 2;
                        if (offline ? st != CpudlLayout.ON : st != (h == 2 ? CpudlLayout.OFF : CpudlLayout.OUT)) {
                            continue;
                        }
                        if (!run(offline ? 2 : 3, c, -1, false, s) || !encode(s, d)) {
                            out.step(0, m.hotplugBase + 4 * c + h, nx);
                            continue;
                        }
                        if (offline) {
                            l.ref[c].set(nx, 0);
                            l.cpuState[c].set(nx, h == 0 ? CpudlLayout.OFF : CpudlLayout.OUT);
                        } else {
                            l.ref[c].set(nx, l.rqdl[c].get(s));
                            l.cpuState[c].set(nx, CpudlLayout.ON);
                        }
                        finishOrFault(nx, d, 2 + h, compare, c, -1, false, s);
                        out.step(0, m.hotplugBase + 4 * c + h, nx);
                    }
                }
            }
        }
        if (m.findSteps) {
            long refLive = 0;
            for (int c = 0; c < n; c++) {
                int code = l.ref[c].getInt(s);
                if (code != 0) {
                    refLive |= 1L << (code - 1);
                }
            }
            int dens = m.densities.length;
            for (int t = 0; t < dn; t++) {
                if (!m.dom.windowed(live | refLive | (1L << t))) {
                    continue;
                }
                for (int a = 0; a < m.affCount; a++) {
                    if (l.hotplug && !touchesOnline(s, m.aff[a])) {
                        continue;
                    }
                    for (int di = 0; di < dens; di++) {
                        for (int tc = 0; tc < m.taskCpus; tc++) {
                            task.deadline = m.dom.value(t);
                            task.cpusMask = m.aff[a];
                            task.dlDensity = m.densities[di];
                            task.cpu = tc;
                            cp.resetWrites();
                            int ans = m.impl.find(cp, task, later);
                            long code = answerCode(ans, later);
                            long taskIndex = (((long) t * m.affCount + a) * dens + di) * m.taskCpus + tc;
                            System.arraycopy(s, 0, nx, 0, l.width);
                            if (cp.warnings() != 0) {
                                toFault(s, l.depth.getInt(s), warned(cp));
                            }
                            out.step(0, (int) (m.findBase + taskIndex * m.codeCount + code), nx);
                        }
                    }
                }
            }
        }
    }

    /**
     * Environment assumption of the hotplug dimension: a task being placed may run on at least one
     * CPU whose runqueue is online in this root domain (the kernel requires a deadline task's
     * affinity to span its root domain, and moves tasks off CPUs going down). Without it an empty
     * heap would make {@code cpudl_find} read a stale {@code elements[0]} for a task that can run
     * nowhere.
     */
    private boolean touchesOnline(long[] s, Cpumask allowed) {
        for (int c = 0; c < m.n; c++) {
            if (allowed.testCpu(c) && l.state(s, c) == CpudlLayout.ON) {
                return true;
            }
        }
        return false;
    }

    /** The answer of a find as a step code (see the class comment). */
    long answerCode(int ans, Cpumask laterMask) {
        int n = m.n;
        if (m.findCpu) {
            return ans >= -1 && ans < n ? ans + 1 : n + 1;
        }
        if (ans != 0 && ans != 1) {
            throw new ModelLimitException("cpudl expects a v4.15+ cpudl_find (findReturnsCpu() false) to return 0 or 1: this variant "
                    + "returned " + ans);
        }
        return ans | laterMask.low64() << 1;
    }

    /**
     * Runs one operation of the variant on a copy of the decoded heap ({@link #work}): kind 0 set,
     * 1 clear, 2 rq_offline_dl, 3 rq_online_dl. Returns false, with {@link #nx} the fault state, when
     * the call ends in a state the kernel would flag: a {@code WARN_ON} fired (checked first: in the
     * kernel it fires before the access it guards), an access outside {@code elements[]}, or more
     * accesses than the O(log n) budget (a loop that does not end).
     */
    private boolean run(int kind, int c, int k, boolean online, long[] s) {
        work.copyFrom(cp);
        work.resetWrites();
        CpudlFault.Flagged f = null;
        boolean record = race != null && kind <= 1;
        if (record) {
            work.recordRace(race);
        }
        try {
            apply(m.impl, work, kind, c, k, online, s);
        } catch (CpudlFault.Runaway e) {
            f = new CpudlFault.Flagged(CpudlFault.WORK, 0, e.budget);
        } catch (IndexOutOfBoundsException e) {
            f = new CpudlFault.Flagged(CpudlFault.BOUNDS, 0, outOfBoundsIndex(e));
        } finally {
            if (record) {
                work.recordRace(null);
            }
        }
        if (work.warnings() != 0) {
            f = warned(work);
        }
        if (f != null) {
            toFault(s, l.depth.getInt(s), f);
            return false;
        }
        return true;
    }

    /** The first kernel check that fired on {@code c}, as a fault. */
    private static CpudlFault.Flagged warned(Cpudl c) {
        int code = Integer.numberOfTrailingZeros(c.warnings());
        return new CpudlFault.Flagged(code, 0, c.warnedValue());
    }

    /** The index of an {@code IndexOutOfBoundsException} ("Index 5 out of bounds for length 4"), or Long.MIN_VALUE. */
    private static long outOfBoundsIndex(IndexOutOfBoundsException e) {
        String msg = e.getMessage();
        if (msg != null && msg.startsWith("Index ")) {
            int end = msg.indexOf(' ', 6);
            try {
                return Long.parseLong(msg.substring(6, end < 0 ? msg.length() : end));
            } catch (NumberFormatException x) {
                return Long.MIN_VALUE;
            }
        }
        return Long.MIN_VALUE;
    }

    /**
     * With {@code find-race}: the fault of a lockless cpudl_find racing with the call just run
     * ({@link #work} after, {@link #cp} before, {@link #nx} the successor with its reference), or null.
     */
    private CpudlFault.Flagged raceCheck(long[] s) {
        if (race == null) {
            return null;
        }
        return race.check(m, cp, s, nx, l.live(s) | l.live(nx), task);
    }

    /** Encodes {@link #work} into {@link #nx} (a copy of {@code s}); false, with {@link #nx} the fault state, if a field is outside its meaning. */
    private boolean encode(long[] s, int d) {
        System.arraycopy(s, 0, nx, 0, l.width);
        try {
            l.encodeMain(work, nx);
            return true;
        } catch (CpudlFault.Flagged f) {
            toFault(s, d, f);
            return false;
        }
    }

    /** {@link #nx} := the fault state after {@code s}: the heap as it was, one call more, the fault recorded. */
    private void toFault(long[] s, int d, CpudlFault.Flagged f) {
        System.arraycopy(s, 0, nx, 0, l.width);
        l.depth.set(nx, Math.min(d + 1, (int) l.depth.max()));
        l.setFault(nx, f);
    }

    private void finishOrFault(long[] t, int d, int kind, boolean compare, int cpu, int k, boolean online, long[] s) {
        try {
            finish(t, d, kind, compare, cpu, k, online, s);
        } catch (CpudlFault.Flagged f) {
            toFault(s, d, f);
        }
    }

    private void apply(CpudlHeap heap, Cpudl on, int kind, int c, int k, boolean online, long[] s) {
        switch (kind) {
            case 0 -> heap.set(on, c, m.dom.value(k));
            case 1 -> heap.clear(on, c, online);
            case 2 -> heap.rqOfflineDl(on, c);
            default -> {
                int code = l.rqdl[c].getInt(s);
                heap.rqOnlineDl(on, c, code != 0, code == 0 ? 0 : m.dom.value(code - 1));
            }
        }
    }

    /** Depth, writes monitor and the other version's heap, after an operation ({@code kind} as in {@link #run}, 2..5 hotplug). */
    private void finish(long[] t, int d, int kind, boolean compare, int cpu, int k, boolean online, long[] s) {
        l.depth.set(t, d + 1);
        if (m.writesOn) {
            l.setWrites(t, work.writes(), Math.min(kind, 2));
        }
        if (compare) {
            if (premise(t)) {
                shWork.copyFrom(sh);
                int op = kind <= 1 ? kind : kind <= 3 ? 2 : 3;
                apply(m.partner, shWork, op, cpu, k, online, s);
                l.encodeHeap(shWork, t, true);
            } else {
                l.premiseOff.set(t, 1);
                l.zeroShadow(t);
            }
        }
    }

    /** True if the live keys of {@code t} are distinct and in (0, 2^63). */
    private boolean premise(long[] t) {
        long seen = 0;
        for (int c = 0; c < m.n; c++) {
            int code = l.ref[c].getInt(t);
            if (code == 0) {
                continue;
            }
            long bit = 1L << (code - 1);
            if ((seen & bit) != 0 || m.dom.value(code - 1) <= 0) {
                return false;
            }
            seen |= bit;
        }
        return true;
    }

    /** The calls at {@code s}, in step order (for the conformance walk; calls that end in a fault are left out). */
    void calls(long[] s, CallSink sink) {
        StepSink collect = (actor, action, next) -> {
            if (l.faultCode(next) == CpudlFault.NONE) {
                emitCall(s, action, sink);
            }
        };
        successors(s, collect);
    }

    private void emitCall(long[] s, int action, CallSink sink) {
        if (action < m.clearBase) {
            sink.call(0, action / m.dn, m.dom.value(action % m.dn), false, null);
        } else if (action < m.clearOffBase) {
            sink.call(1, action - m.clearBase, 0, true, null);
        } else if (action < m.hotplugBase) {
            sink.call(1, action - m.clearOffBase, 0, false, null);
        } else if (action < m.findBase) {
            int c = (action - m.hotplugBase) / 4;
            int h = (action - m.hotplugBase) % 4;
            int code = l.rqdl[c].getInt(s);
            sink.call(h < 2 ? 2 : 3, c, code == 0 ? 0 : m.dom.value(code - 1), code != 0, null);
        } else {
            sink.call(4, -1, 0, false, m.decoder.find(action).task());
        }
    }
}
