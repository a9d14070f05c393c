package kcheck.model.rwsem;

import static kcheck.model.rwsem.TaskProgram.ENQUEUED;
import static kcheck.model.rwsem.TaskProgram.HOLDS;
import static kcheck.model.rwsem.TaskProgram.IN_CAN_SPIN;
import static kcheck.model.rwsem.TaskProgram.IN_TRYLOCK_UNQUEUED;
import static kcheck.model.rwsem.TaskProgram.IN_UP_WRITE;
import static kcheck.model.rwsem.TaskProgram.OSQ;
import static kcheck.model.rwsem.TaskProgram.OWNER_STORE_PENDING;
import static kcheck.model.rwsem.TaskProgram.PREEMPT_OFF;
import static kcheck.model.rwsem.TaskProgram.RESCHED_LIVE;
import static kcheck.model.rwsem.TaskProgram.WAIT_LOCK;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import kcheck.model.Deadlock;
import kcheck.model.FieldSink;
import kcheck.model.Invariant;
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
 * The rwsem-owner model (KERNEL.md section 3): {@code readers} readers and {@code writers}
 * writers, each running its recorded {@link TaskProgram} (the variant's own code), over one
 * rw_semaphore.
 *
 * <p>State: {@code sem->count} as its active part and number of waiting biases,
 * {@code sem->owner}; per task its program node and its place in the wait list (0: not
 * queued; a queued reader whose place is 0 has been granted the lock); per writer whether it
 * has been woken, whether it is preempted ({@code on_cpu == 0}) and its need_resched flag.
 * Who holds {@code wait_lock} and the osq, and who holds the rwsem, are attributes of the
 * program nodes. Monitors, only for the properties that need them: per writer what its
 * {@code rwsem_can_spin_on_owner} saw, the spinner's attempt counters, and the missed-spin
 * counters.
 *
 * <p>Environment steps: a writer that holds the lock where preemption is enabled can be
 * preempted and later runs again; need_resched can be raised for a writer wherever its code may
 * still read it (from its {@code rwsem_down_write_failed} up to the end of spinning) and is
 * reset where it is dead. Readers are never preempted explicitly: a reader that takes no step
 * is indistinguishable from a preempted one (nothing reads a reader's {@code on_cpu}).
 */
final class RwsemOwnerModel implements Model {
    static final String[] COMPONENTS_WASTED = {"reader-held", "reader-held, owner stored"};
    static final String[] COMPONENTS_MISSED = {"owner NULL", "stale READER_OWNED"};
    private static final int PREEMPT = 0;
    private static final int RUN_AGAIN = 1;
    private static final int SET_NEED_RESCHED = 2;
    /** Saturation of the spin counters: "3" means 3 or more. */
    static final int SPIN_CAP = 3;

    private final String variant;
    private final Params params;
    private final RwsemDomain dom;
    private final int nr;
    private final int nw;
    private final int n;
    private final TaskProgram[] prog;
    private final boolean[] rt;
    private final int slots;
    private final int envBase;
    private final Set<String> selected;
    private final boolean canSpinMonitor;
    private final boolean k2Monitor;
    private final boolean wastedMonitor;
    private final boolean missedMonitor;

    private final Layout.Field cntA;
    private final Layout.Field cntK;
    private final Layout.Field owner;
    private final Layout.Field[] pc;
    private final Layout.Field[] qpos;
    private final Layout.Field[] woken;
    private final Layout.Field[] preempted;
    private final Layout.Field[] resched;
    /** spin-on-running-writer: can_spin loaded a NULL owner while a running writer was in its set_owner gap. */
    private final Layout.Field[] obsNull;
    /** The same observations for missed-spins, forgotten when the write lock is released. */
    private final Layout.Field[] missNull;
    private final Layout.Field[] missRo;
    /** Trylock loads on a lock held by settled readers since the last reset (KERNEL.md's count). */
    private final Layout.Field k2;
    /** The same without the settled clause. */
    private final Layout.Field wastedAll;
    private final Layout.Field missedNull;
    private final Layout.Field missedRo;
    /** At most the other writers decline on one hold. */
    private final int missedCap;
    private final int width;
    private final List<Property> properties;

    private final WriterSymmetry sym;

    /* per-thread scratch */
    private final long[] nx;
    private final int[] keys;
    private final long[] best;
    private final long[] cand;

    RwsemOwnerModel(String variant, Params params, RwsemDomain dom, TaskProgram[] prog, boolean[] rt, Set<String> selected) {
        this.variant = variant;
        this.params = params;
        this.dom = dom;
        this.nr = dom.readers();
        this.nw = dom.writers();
        this.n = nr + nw;
        this.prog = prog;
        this.rt = rt;
        this.slots = dom.maxOutcomes();
        int maxSize = 0;
        for (TaskProgram p : prog) {
            maxSize = Math.max(maxSize, p.size);
        }
        this.envBase = maxSize * slots;
        this.selected = selected;
        this.canSpinMonitor = selected.contains("spin-on-running-writer") || selected.contains("missed-spins");
        this.k2Monitor = selected.contains("no-spin-on-readers-k2");
        this.wastedMonitor = selected.contains("wasted-spins");
        this.missedMonitor = selected.contains("missed-spins");

        Layout layout = new Layout();
        cntA = layout.fieldFor(dom.maxActive());
        cntK = layout.fieldFor(dom.maxWaiting());
        owner = layout.fieldFor(dom.ownerSize() - 1);
        pc = new Layout.Field[n];
        qpos = new Layout.Field[n];
        for (int t = 0; t < n; t++) {
            pc[t] = layout.fieldFor(prog[t].size - 1);
            qpos[t] = layout.fieldFor(n);
        }
        woken = new Layout.Field[nw];
        preempted = new Layout.Field[nw];
        resched = new Layout.Field[nw];
        obsNull = new Layout.Field[nw];
        missNull = new Layout.Field[nw];
        missRo = new Layout.Field[nw];
        boolean spinProperty = selected.contains("spin-on-running-writer");
        for (int w = 0; w < nw; w++) {
            woken[w] = layout.field(1);
            preempted[w] = layout.field(1);
            resched[w] = layout.field(1);
            obsNull[w] = layout.field(spinProperty ? 1 : 0);
            missNull[w] = layout.field(missedMonitor ? 1 : 0);
            missRo[w] = layout.field(missedMonitor ? 1 : 0);
        }
        k2 = layout.fieldFor(k2Monitor || wastedMonitor ? SPIN_CAP : 0);
        wastedAll = layout.fieldFor(wastedMonitor ? SPIN_CAP : 0);
        missedNull = layout.fieldFor(missedMonitor ? Math.max(1, nw - 1) : 0);
        missedRo = layout.fieldFor(missedMonitor ? Math.max(1, nw - 1) : 0);
        missedCap = Math.max(1, nw - 1);
        width = layout.words();
        nx = new long[width];
        keys = new int[Math.max(1, nr)];
        best = new long[width];
        cand = new long[width];
        sym = WriterSymmetry.of(java.util.Arrays.copyOfRange(prog, nr, n), rt, dom);
        properties = buildProperties();
    }

    private RwsemOwnerModel(RwsemOwnerModel m) {
        this.variant = m.variant;
        this.params = m.params;
        this.dom = m.dom;
        this.nr = m.nr;
        this.nw = m.nw;
        this.n = m.n;
        this.prog = m.prog;
        this.rt = m.rt;
        this.slots = m.slots;
        this.envBase = m.envBase;
        this.selected = m.selected;
        this.canSpinMonitor = m.canSpinMonitor;
        this.k2Monitor = m.k2Monitor;
        this.wastedMonitor = m.wastedMonitor;
        this.missedMonitor = m.missedMonitor;
        this.cntA = m.cntA;
        this.cntK = m.cntK;
        this.owner = m.owner;
        this.pc = m.pc;
        this.qpos = m.qpos;
        this.woken = m.woken;
        this.preempted = m.preempted;
        this.resched = m.resched;
        this.obsNull = m.obsNull;
        this.missNull = m.missNull;
        this.missRo = m.missRo;
        this.k2 = m.k2;
        this.wastedAll = m.wastedAll;
        this.missedNull = m.missedNull;
        this.missedRo = m.missedRo;
        this.missedCap = m.missedCap;
        this.width = m.width;
        this.properties = m.properties;
        this.sym = m.sym;
        this.nx = new long[width];
        this.keys = new int[m.keys.length];
        this.best = new long[width];
        this.cand = new long[width];
    }

    @Override
    public Model fork() {
        return new RwsemOwnerModel(this);
    }

    @Override
    public String name() {
        return RwsemOwnerFactory.NAME;
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

    @Override
    public void initial(StateSink out) {
        long[] s = new long[width];
        for (int t = 0; t < n; t++) {
            pc[t].set(s, prog[t].root);
        }
        out.state(s);
    }

    /* ---------------- reading a packed state (thread-safe: no scratch) ---------------- */

    private long count(long[] s) {
        return RwsemCount.count(cntA.getInt(s), cntK.getInt(s));
    }

    private boolean isWriter(int t) {
        return t >= nr;
    }

    /** Task {@code t} holds the rwsem: past its acquiring step, or a queued reader granted the lock. */
    boolean heldBy(long[] s, int t) {
        int p = pc[t].getInt(s);
        return prog[t].has(p, HOLDS) || (!isWriter(t) && prog[t].has(p, ENQUEUED) && qpos[t].getInt(s) == 0);
    }

    int readersHolding(long[] s) {
        int c = 0;
        for (int r = 0; r < nr; r++) {
            if (heldBy(s, r)) {
                c++;
            }
        }
        return c;
    }

    int writersHolding(long[] s) {
        int c = 0;
        for (int t = nr; t < n; t++) {
            if (heldBy(s, t)) {
                c++;
            }
        }
        return c;
    }

    /** Every reader holding the lock has made its count step and (v4.8) its owner store. */
    private boolean readersSettled(long[] s) {
        for (int r = 0; r < nr; r++) {
            if (heldBy(s, r) && prog[r].has(pc[r].getInt(s), OWNER_STORE_PENDING)) {
                return false;
            }
        }
        return true;
    }

    /** {@code on_cpu} of writer {@code w}: not preempted and not asleep. */
    private boolean onCpu(long[] s, int w) {
        int t = nr + w;
        return preempted[w].getInt(s) == 0 && prog[t].op[pc[t].getInt(s)] != Op.SCHEDULE;
    }

    private int osqHolder(long[] s) {
        for (int t = nr; t < n; t++) {
            if (prog[t].has(pc[t].getInt(s), OSQ)) {
                return t;
            }
        }
        return -1;
    }

    /** {@code osq_is_locked()}: a spinner holds the osq, or a writer is in {@code osq_lock()}. */
    private boolean osqLocked(long[] s) {
        for (int t = nr; t < n; t++) {
            int p = pc[t].getInt(s);
            if (prog[t].has(p, OSQ) || prog[t].op[p] == Op.OSQ_LOCK) {
                return true;
            }
        }
        return false;
    }

    private int waitLockHolder(long[] s) {
        for (int t = 0; t < n; t++) {
            if (prog[t].has(pc[t].getInt(s), WAIT_LOCK)) {
                return t;
            }
        }
        return -1;
    }

    private int queueLength(long[] s) {
        int c = 0;
        for (int t = 0; t < n; t++) {
            if (qpos[t].getInt(s) > 0) {
                c++;
            }
        }
        return c;
    }

    private int taskAt(long[] s, int place) {
        for (int t = 0; t < n; t++) {
            if (qpos[t].getInt(s) == place) {
                return t;
            }
        }
        return -1;
    }

    /**
     * Another writer than {@code w} holds the write lock between its count step and its
     * {@code rwsem_set_owner}, and is on a CPU: a writer worth spinning on.
     */
    private boolean runningWriterWithoutOwner(long[] s, int w) {
        long o = owner.get(s);
        for (int v = 0; v < nw; v++) {
            int t = nr + v;
            if (v != w && heldBy(s, t) && !prog[t].has(pc[t].getInt(s), IN_UP_WRITE) && o != RwsemCount.writerTask(v)
                    && onCpu(s, v)) {
                return true;
            }
        }
        return false;
    }

    /* ---------------- successors ---------------- */

    @Override
    public void successors(long[] s, StepSink out) {
        for (int t = 0; t < n; t++) {
            int p = pc[t].getInt(s);
            TaskProgram tp = prog[t];
            Op op = tp.op[p];
            if (op == Op.END) {
                continue;
            }
            int w = t - nr;
            if (isWriter(t) && preempted[w].getInt(s) == 1) {
                System.arraycopy(s, 0, nx, 0, width);
                preempted[w].set(nx, 0);
                out.step(t, envBase + RUN_AGAIN, nx);
                continue;
            }
            switch (op) {
                case OSQ_LOCK -> {
                    /* a free osq is taken at once (xchg of the tail); a waiter gives up on need_resched */
                    if (osqHolder(s) < 0) {
                        step(s, t, p, 1, out);
                    } else if (resched[w].getInt(s) == 1) {
                        step(s, t, p, 0, out);
                    }
                }
                case SPIN_LOCK -> {
                    if (waitLockHolder(s) < 0) {
                        step(s, t, p, 0, out);
                    }
                }
                case SCHEDULE -> {
                    if (isWriter(t) ? woken[w].getInt(s) == 1 : qpos[t].getInt(s) == 0) {
                        step(s, t, p, 0, out);
                    }
                }
                default -> step(s, t, p, -1, out);
            }
            if (isWriter(t)) {
                if (tp.has(p, HOLDS) && !tp.has(p, PREEMPT_OFF)) {
                    System.arraycopy(s, 0, nx, 0, width);
                    preempted[w].set(nx, 1);
                    out.step(t, envBase + PREEMPT, nx);
                }
                if (tp.has(p, RESCHED_LIVE) && resched[w].getInt(s) == 0) {
                    System.arraycopy(s, 0, nx, 0, width);
                    resched[w].set(nx, 1);
                    out.step(t, envBase + SET_NEED_RESCHED, nx);
                }
            }
        }
    }

    /** Task {@code t} performs the operation at node {@code p} (outcome {@code forced} for guarded ones). */
    private void step(long[] s, int t, int p, int forced, StepSink out) {
        TaskProgram tp = prog[t];
        System.arraycopy(s, 0, nx, 0, width);
        int o = visible(t, tp, p, forced);
        int node = tp.next(p, o);
        while (node >= 0 && !tp.op[node].visible) {
            int lo = local(t, tp, node);
            int nn = tp.next(node, lo);
            if (nn < 0) {
                throw unrecorded(t, node, lo);
            }
            node = nn;
        }
        if (node < 0) {
            throw unrecorded(t, p, o);
        }
        pc[t].set(nx, node);
        if (isWriter(t)) {
            int w = t - nr;
            if (!tp.has(node, RESCHED_LIVE)) {
                resched[w].set(nx, 0);
            }
            if (!tp.has(node, ENQUEUED)) {
                woken[w].set(nx, 0);
            }
            if (canSpinMonitor) {
                canSpinMonitor(s, t, w, p, o, node);
            }
            if (k2Monitor || wastedMonitor) {
                spinMonitor(s, t, p, o);
            }
        }
        if ((k2Monitor || wastedMonitor) && readersHolding(s) == 0 && readersHolding(nx) > 0) {
            k2.set(nx, 0);
            wastedAll.set(nx, 0);
        }
        if (missedMonitor && writersHolding(s) > 0 && writersHolding(nx) == 0) {
            missedNull.set(nx, 0);
            missedRo.set(nx, 0);
            for (int w = 0; w < nw; w++) {
                missNull[w].set(nx, 0);
                missRo[w].set(nx, 0);
            }
        }
        out.step(t, p * slots + o, nx);
    }

    private IllegalStateException unrecorded(int t, int node, int outcome) {
        return new IllegalStateException(RwsemOwnerFactory.NAME + " " + variant + ": " + actors().get(t) + " at "
                + prog[t].describe(node, dom) + ": outcome " + prog[t].outcomeText(node, outcome, dom)
                + " was never recorded (a count outside the modelled range, or an undefined operation)");
    }

    /**
     * What {@code rwsem_can_spin_on_owner} saw: at its owner load, whether another writer held
     * the lock in its set_owner gap on a CPU while owner was NULL (or a stale READER_OWNED);
     * when it returns, whether it declined. The property's observation is kept until the
     * return; the metric's is forgotten when the write lock is released, so that the metric
     * counts declines per write-lock hold.
     */
    private void canSpinMonitor(long[] s, int t, int w, int p, int o, int node) {
        TaskProgram tp = prog[t];
        if (!tp.has(p, IN_CAN_SPIN)) {
            return;
        }
        boolean sawNull = obsNull[w].getInt(s) == 1;
        boolean missN = missNull[w].getInt(s) == 1;
        boolean missR = missRo[w].getInt(s) == 1;
        if (tp.op[p] == Op.OWNER_READ && runningWriterWithoutOwner(s, w)) {
            sawNull |= o == RwsemCount.NULL;
            missN |= o == RwsemCount.NULL;
            missR |= o == RwsemCount.RWSEM_READER_OWNED;
        }
        if (!tp.has(node, IN_CAN_SPIN)) {
            if (missedMonitor && tp.op[node] != Op.OSQ_LOCK) {
                Layout.Field f = missN ? missedNull : missR ? missedRo : null;
                if (f != null) {
                    if (f.get(nx) >= missedCap) {
                        throw new IllegalStateException("missed-spins: more declines on one write-lock hold than other writers");
                    }
                    f.set(nx, f.get(nx) + 1);
                }
            }
            sawNull = false;
            missN = false;
            missR = false;
        }
        obsNull[w].set(nx, sawNull ? 1 : 0);
        missNull[w].set(nx, missN ? 1 : 0);
        missRo[w].set(nx, missR ? 1 : 0);
    }

    private void spinMonitor(long[] s, int t, int p, int o) {
        TaskProgram tp = prog[t];
        if (tp.op[p] == Op.OSQ_LOCK && o == 1) {
            k2.set(nx, 0);
            wastedAll.set(nx, 0);
            return;
        }
        if (tp.op[p] != Op.COUNT_READ || !tp.has(p, OSQ) || !tp.has(p, IN_TRYLOCK_UNQUEUED)) {
            return;
        }
        if (readersHolding(s) == 0 || writersHolding(s) > 0) {
            return;
        }
        bump(wastedAll);
        if (readersSettled(s)) {
            bump(k2);
        }
    }

    private void bump(Layout.Field f) {
        long v = f.get(nx);
        if (v < f.max()) {
            f.set(nx, Math.min(SPIN_CAP, v + 1));
        }
    }

    /** Performs visible operation {@code p} of task {@code t} on {@code nx}; returns its outcome. */
    private int visible(int t, TaskProgram tp, int p, int forced) {
        switch (tp.op[p]) {
            case COUNT_READ:
                return countIndex(count(nx), t, p);
            case COUNT_ADD_RETURN:
            case COUNT_FETCH_ADD:
            case COUNT_ADD: {
                long old = count(nx);
                setCount(old + tp.arg0[p], t, p);
                return countIndex(old, t, p);
            }
            case COUNT_CMPXCHG: {
                long old = count(nx);
                if (old == tp.arg0[p]) {
                    setCount(tp.arg1[p], t, p);
                }
                return countIndex(old, t, p);
            }
            case OWNER_READ:
                return owner.getInt(nx);
            case OWNER_WRITE:
                owner.set(nx, tp.arg0[p]);
                return 0;
            case ON_CPU:
                return onCpu(nx, RwsemCount.writerIndex(tp.arg0[p])) ? 1 : 0;
            case OSQ_LOCK:
                return forced;
            case OSQ_IS_LOCKED:
                return osqLocked(nx) ? 1 : 0;
            case SPIN_TRYLOCK:
                return waitLockHolder(nx) < 0 ? 1 : 0;
            case SCHEDULE:
                if (isWriter(t)) {
                    woken[t - nr].set(nx, 0);
                }
                return 0;
            case WAKE_FRONT_WRITER: {
                int f = taskAt(nx, 1);
                if (f < 0 || !isWriter(f)) {
                    throw new IllegalStateException("wake front writer: the front waiter is not a writer");
                }
                woken[f - nr].set(nx, 1);
                return 0;
            }
            case GRANT_READERS: {
                int k = (int) tp.arg0[p];
                for (int u = 0; u < n; u++) {
                    int q = qpos[u].getInt(nx);
                    if (q >= 1 && q <= k) {
                        if (isWriter(u)) {
                            throw new IllegalStateException("grant readers: a writer is among the first " + k + " waiters");
                        }
                        qpos[u].set(nx, 0);
                    } else if (q > k) {
                        qpos[u].set(nx, q - k);
                    }
                }
                return 0;
            }
            default:
                return 0;
        }
    }

    /** Performs local operation {@code node} of task {@code t} on {@code nx}; returns its outcome. */
    private int local(int t, TaskProgram tp, int node) {
        switch (tp.op[node]) {
            case NEED_RESCHED:
                return isWriter(t) ? resched[t - nr].getInt(nx) : 0;
            case LIST_EMPTY:
                return queueLength(nx) == 0 ? 1 : 0;
            case LIST_ADD_TAIL:
                qpos[t].set(nx, queueLength(nx) + 1);
                return 0;
            case LIST_IS_SINGULAR:
                return queueLength(nx) == 1 ? 1 : 0;
            case LIST_DEL: {
                int q = qpos[t].getInt(nx);
                for (int u = 0; u < n; u++) {
                    int x = qpos[u].getInt(nx);
                    if (x > q) {
                        qpos[u].set(nx, x - 1);
                    }
                }
                qpos[t].set(nx, 0);
                return 0;
            }
            case FRONT_IS_WRITER: {
                int f = taskAt(nx, 1);
                return f >= 0 && isWriter(f) ? 1 : 0;
            }
            case LEADING_READERS: {
                int k = 0;
                while (true) {
                    int f = taskAt(nx, k + 1);
                    if (f < 0 || isWriter(f)) {
                        return k;
                    }
                    k++;
                }
            }
            case WRITER_AFTER: {
                int f = taskAt(nx, (int) tp.arg0[node] + 1);
                return f >= 0 && isWriter(f) ? 1 : 0;
            }
            case WAITER_TASK_NULL:
                return qpos[t].getInt(nx) == 0 ? 1 : 0;
            default:
                throw new IllegalStateException("not a local operation: " + tp.op[node]);
        }
    }

    private int countIndex(long c, int t, int p) {
        int i = dom.countIndex(c);
        if (i < 0) {
            throw new IllegalStateException(RwsemOwnerFactory.NAME + " " + variant + ": count " + Long.toHexString(c)
                    + " outside the modelled range at " + actors().get(t) + ": " + prog[t].describe(p, dom));
        }
        return i;
    }

    private void setCount(long c, int t, int p) {
        countIndex(c, t, p);
        cntA.set(nx, RwsemCount.active(c));
        cntK.set(nx, RwsemCount.waiting(c));
    }

    @Override
    public boolean isFinal(long[] s) {
        for (int t = 0; t < n; t++) {
            if (prog[t].op[pc[t].getInt(s)] != Op.END) {
                return false;
            }
        }
        return true;
    }

    /* ---------------- symmetry ---------------- */

    @Override
    public List<String> reductions() {
        List<String> out = new ArrayList<>();
        if (nr > 1) {
            out.add("reader-symmetry: readers run one program and nothing refers to a reader's identity; readers are"
                    + " sorted by (program node, wait-list place), which permutes the wait list consistently");
        }
        if (!sym.trivial()) {
            out.add("writer-symmetry: writers with the same RT flag are interchangeable once task pointers in owner and"
                    + " in their programs are renamed; the least of the " + sym.perms.length + " renamings is stored");
        }
        return out;
    }

    @Override
    public void canonicalize(long[] s) {
        if (nr > 1) {
            sortReaders(s);
        }
        if (sym.trivial()) {
            return;
        }
        System.arraycopy(s, 0, best, 0, width);
        for (int i = 1; i < sym.perms.length; i++) {
            int[] pi = sym.perms[i];
            System.arraycopy(s, 0, cand, 0, width);
            for (int w = 0; w < nw; w++) {
                int v = pi[w];
                int t = nr + w;
                int u = nr + v;
                pc[u].set(cand, sym.pcMap[i][w][pc[t].getInt(s)]);
                qpos[u].set(cand, qpos[t].get(s));
                woken[v].set(cand, woken[w].get(s));
                preempted[v].set(cand, preempted[w].get(s));
                resched[v].set(cand, resched[w].get(s));
                obsNull[v].set(cand, obsNull[w].get(s));
                missNull[v].set(cand, missNull[w].get(s));
                missRo[v].set(cand, missRo[w].get(s));
            }
            owner.set(cand, WriterSymmetry.rename(owner.get(s), pi));
            if (less(cand, best)) {
                System.arraycopy(cand, 0, best, 0, width);
            }
        }
        System.arraycopy(best, 0, s, 0, width);
    }

    private boolean less(long[] a, long[] b) {
        for (int i = 0; i < width; i++) {
            if (a[i] != b[i]) {
                return a[i] < b[i];
            }
        }
        return false;
    }

    private void sortReaders(long[] s) {
        int mul = n + 1;
        for (int r = 0; r < nr; r++) {
            keys[r] = pc[r].getInt(s) * mul + qpos[r].getInt(s);
        }
        for (int i = 1; i < nr; i++) {
            int k = keys[i];
            int j = i - 1;
            while (j >= 0 && keys[j] > k) {
                keys[j + 1] = keys[j];
                j--;
            }
            keys[j + 1] = k;
        }
        for (int r = 0; r < nr; r++) {
            pc[r].set(s, keys[r] / mul);
            qpos[r].set(s, keys[r] % mul);
        }
    }

    /* ---------------- traces ---------------- */

    @Override
    public List<String> actors() {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < nr; r++) {
            out.add("reader " + r);
        }
        for (int w = 0; w < nw; w++) {
            out.add("writer " + w + (rt[w] ? " (RT)" : ""));
        }
        return out;
    }

    @Override
    public StepInfo describe(int actor, int action) {
        if (action >= envBase) {
            return switch (action - envBase) {
                case PREEMPT -> new StepInfo("preempted (on_cpu = 0)", "scheduler (kernel/sched/core.c)");
                case RUN_AGAIN -> new StepInfo("runs again (on_cpu = 1)", "scheduler (kernel/sched/core.c)");
                default -> new StepInfo("need_resched set", "scheduler: set_tsk_need_resched (kernel/sched/core.c)");
            };
        }
        TaskProgram tp = prog[actor];
        int p = action / slots;
        int o = action % slots;
        String out = tp.outcomeText(p, o, dom);
        return new StepInfo(tp.describe(p, dom) + (out.isEmpty() ? "" : " " + out), tp.cite[p]);
    }

    private String name(int t) {
        return isWriter(t) ? "writer" + (t - nr) : "reader" + t;
    }

    @Override
    public void decode(long[] s, FieldSink out) {
        for (int t = 0; t < n; t++) {
            TaskProgram tp = prog[t];
            int p = pc[t].getInt(s);
            String at = tp.op[p] == Op.END ? "done" : tp.describe(p, dom) + " (" + tp.site[p] + ")";
            out.field(t, name(t) + ".at", (heldBy(s, t) ? "[holds] " : "") + at);
            int q = qpos[t].getInt(s);
            if (q > 0) {
                out.field(t, name(t) + ".waiter", "queued #" + q);
            } else if (!isWriter(t) && tp.has(p, ENQUEUED)) {
                out.field(t, name(t) + ".waiter", "granted (task = NULL)");
            }
            if (isWriter(t)) {
                int w = t - nr;
                if (preempted[w].getInt(s) == 1) {
                    out.field(t, name(t) + ".on_cpu", "0");
                }
                if (resched[w].getInt(s) == 1) {
                    out.field(t, name(t) + ".need_resched", "1");
                }
                if (woken[w].getInt(s) == 1) {
                    out.field(t, name(t) + ".woken", "1");
                }
            }
        }
        out.field(FieldSink.SHARED, "count", RwsemCount.show(count(s)));
        out.field(FieldSink.SHARED, "owner", RwsemCount.showOwner(owner.get(s)));
        int wl = waitLockHolder(s);
        out.field(FieldSink.SHARED, "wait_lock", wl < 0 ? "free" : actors().get(wl));
        int osq = osqHolder(s);
        out.field(FieldSink.SHARED, "osq", osq < 0 ? "free" : actors().get(osq));
        if (k2Monitor || wastedMonitor) {
            out.field(FieldSink.SHARED, "spins-on-readers", Long.toString(k2.get(s)));
        }
        if (wastedMonitor) {
            out.field(FieldSink.SHARED, "spins-on-readers-strict", Long.toString(wastedAll.get(s)));
        }
        if (missedMonitor) {
            out.field(FieldSink.SHARED, "missed", missedNull.get(s) + "/" + missedRo.get(s));
        }
    }

    /* ---------------- properties ---------------- */

    @Override
    public List<Property> properties() {
        return properties;
    }

    private List<Property> buildProperties() {
        List<Property> out = new ArrayList<>();
        for (Property p : List.of(new Exclusion(), new OwnerSound(), new NoSpinOnReaders(false), new NoSpinOnReaders(true),
                new NoSpinOnReadersK2(), new SpinOnRunningWriter(), new WastedSpins(), new MissedSpins(), Deadlock.standard(),
                new ReaderOwnedNoWriter(), new NullOwnerNoWriter())) {
            if (selected.contains(p.id())) {
                out.add(p);
            }
        }
        return out;
    }

    private String holders(long[] s) {
        StringBuilder b = new StringBuilder();
        for (int t = 0; t < n; t++) {
            if (heldBy(s, t)) {
                b.append(b.length() == 0 ? "" : ", ").append(actors().get(t));
            }
        }
        return b.length() == 0 ? "nobody" : b.toString();
    }

    /** {@code exclusion}: never a writer with readers, never two writers. */
    final class Exclusion extends Invariant {
        Exclusion() {
            super("exclusion", RwsemOwnerFactory.describe("exclusion"));
        }

        @Override
        public boolean holds(long[] s) {
            int w = writersHolding(s);
            return w == 0 || (w == 1 && readersHolding(s) == 0);
        }

        @Override
        public String explain(long[] s) {
            return "the lock is held by " + holders(s) + " at once (count = " + RwsemCount.show(count(s)) + ")";
        }
    }

    /** {@code owner-sound}: owner names a writer only while that writer holds the write lock. */
    final class OwnerSound extends Invariant {
        OwnerSound() {
            super("owner-sound", RwsemOwnerFactory.describe("owner-sound"));
        }

        @Override
        public boolean holds(long[] s) {
            long o = owner.get(s);
            return o < 2 || heldBy(s, nr + RwsemCount.writerIndex(o));
        }

        @Override
        public String explain(long[] s) {
            return "owner = " + RwsemCount.showOwner(owner.get(s)) + " but that writer does not hold the write lock (held by "
                    + holders(s) + ")";
        }
    }

    /**
     * {@code no-spin-on-readers} (and {@code -strict}): a cycle of steps of the spinner (the
     * writer holding the osq) taken while readers, and no writer, hold the lock and (not
     * strict) every such reader has made its owner store, is a spinner that never stops.
     */
    final class NoSpinOnReaders extends Progress {
        private final boolean strict;

        NoSpinOnReaders(boolean strict) {
            super(strict ? "no-spin-on-readers-strict" : "no-spin-on-readers",
                    RwsemOwnerFactory.describe(strict ? "no-spin-on-readers-strict" : "no-spin-on-readers"));
            this.strict = strict;
        }

        @Override
        public boolean isProgress(long[] from, int actor, int action, long[] to) {
            if (action >= envBase || !isWriter(actor) || !prog[actor].has(pc[actor].getInt(from), OSQ)) {
                return true;
            }
            if (readersHolding(from) == 0 || writersHolding(from) > 0) {
                return true;
            }
            return !strict && !readersSettled(from);
        }
    }

    /** {@code no-spin-on-readers-k2}: KERNEL.md's count of trylock attempts on a reader-held lock, bound 2. */
    final class NoSpinOnReadersK2 extends Metric {
        NoSpinOnReadersK2() {
            super("no-spin-on-readers-k2", RwsemOwnerFactory.describe("no-spin-on-readers-k2"));
        }

        @Override
        public long value(long[] s, int c) {
            return k2.get(s);
        }

        @Override
        public long bound() {
            return 2;
        }

        /** The counter stops at SPIN_CAP; reaching it means the spinner's loop repeats (the no-spin-on-readers lasso). */
        @Override
        public long saturation() {
            return SPIN_CAP;
        }
    }

    /** {@code spin-on-running-writer}: a NULL owner with a running writer in its set_owner gap makes can_spin true. */
    final class SpinOnRunningWriter extends StepProperty {
        SpinOnRunningWriter() {
            super("spin-on-running-writer", RwsemOwnerFactory.describe("spin-on-running-writer"));
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            if (action >= envBase || !isWriter(actor)) {
                return true;
            }
            TaskProgram tp = prog[actor];
            int p = action / slots;
            int o = action % slots;
            int node = pc[actor].getInt(to);
            if (!tp.has(p, IN_CAN_SPIN) || tp.has(node, IN_CAN_SPIN) || tp.op[node] == Op.OSQ_LOCK) {
                return true;
            }
            int w = actor - nr;
            boolean sawNull = obsNull[w].getInt(from) == 1
                    || (tp.op[p] == Op.OWNER_READ && o == RwsemCount.NULL && runningWriterWithoutOwner(from, w));
            return !sawNull;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            return actors().get(actor) + ": rwsem_can_spin_on_owner loaded owner = NULL while another writer held the"
                    + " write lock (count step done, owner not yet set) on a CPU, and returned false: it does not spin";
        }
    }

    /**
     * {@code wasted-spins}: the spinner's unqueued trylock loads of count on a lock held by
     * readers only, since the readers took it (or the spinner took the osq): all of them, and
     * those made after every such reader stored its owner marker.
     */
    final class WastedSpins extends Metric {
        WastedSpins() {
            super("wasted-spins", RwsemOwnerFactory.describe("wasted-spins"));
        }

        @Override
        public int components() {
            return 2;
        }

        @Override
        public String componentName(int c) {
            return COMPONENTS_WASTED[c];
        }

        @Override
        public long value(long[] s, int c) {
            return c == 0 ? wastedAll.get(s) : k2.get(s);
        }

        /** Both counters stop at SPIN_CAP, reached only on the spinner's repeating loop. */
        @Override
        public long saturation() {
            return SPIN_CAP;
        }
    }

    /** {@code missed-spins}: writers that declined to spin on one running writer holding the lock. */
    final class MissedSpins extends Metric {
        MissedSpins() {
            super("missed-spins", RwsemOwnerFactory.describe("missed-spins"));
        }

        @Override
        public int components() {
            return 2;
        }

        @Override
        public String componentName(int c) {
            return COMPONENTS_MISSED[c];
        }

        @Override
        public long value(long[] s, int c) {
            return c == 0 ? missedNull.get(s) : missedRo.get(s);
        }
    }

    /** The false claim {@code READER_OWNED => no writer}, kept as a documented test. */
    final class ReaderOwnedNoWriter extends Invariant {
        ReaderOwnedNoWriter() {
            super("reader-owned-no-writer", RwsemOwnerFactory.describe("reader-owned-no-writer"));
        }

        @Override
        public boolean holds(long[] s) {
            return owner.get(s) != RwsemCount.RWSEM_READER_OWNED || writersHolding(s) == 0;
        }

        @Override
        public String explain(long[] s) {
            return "owner = READER_OWNED while " + holders(s) + " holds the write lock: the marker is sticky";
        }
    }

    /** The false claim {@code owner NULL => no writer}, kept as a documented test. */
    final class NullOwnerNoWriter extends Invariant {
        NullOwnerNoWriter() {
            super("null-owner-no-writer", RwsemOwnerFactory.describe("null-owner-no-writer"));
        }

        @Override
        public boolean holds(long[] s) {
            return owner.get(s) != RwsemCount.NULL || writersHolding(s) == 0;
        }

        @Override
        public String explain(long[] s) {
            return "owner = NULL while " + holders(s) + " holds the write lock";
        }
    }
}
