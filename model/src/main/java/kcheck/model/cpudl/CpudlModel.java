package kcheck.model.cpudl;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import kcheck.model.FieldSink;
import kcheck.model.Invariant;
import kcheck.model.Kernel;
import kcheck.model.Layout;
import kcheck.model.Metric;
import kcheck.model.Model;
import kcheck.model.Params;
import kcheck.model.Property;
import kcheck.model.StateSink;
import kcheck.model.StepInfo;
import kcheck.model.StepProperty;
import kcheck.model.StepSink;

/**
 * The cpudl model (KERNEL.md section 2): one actor, the caller holding {@code cp->lock}, performs
 * whole operations with arguments from a finite domain: {@code cpudl_set(cpu, dl)} for every CPU
 * and every deadline of the domain, {@code cpudl_clear(cpu)} for every CPU, and (when
 * {@code find-sound} is selected) {@code cpudl_find(dl, allowed)} for every deadline and every
 * affinity of the domain (all CPUs, each single CPU, all but one CPU).
 *
 * <p>State: the heap ({@code size}, {@code elements[h].cpu}, {@code elements[h].dl} as an index
 * into the domain, {@code elements[c].idx}), {@code free_cpus}, the reference map (the caller's
 * own record of which CPU has which deadline), and the number of set/clear calls so far, bounded
 * by {@code depth}. Each step decodes the heap into a {@link Cpudl} of real u64 deadlines, runs
 * the variant's Java port on it, and encodes the result.
 *
 * <p>Abstractions, each exact: heap slots {@code h >= max(size, 1)} are stored as zero (no
 * operation reads a slot beyond {@code size} that an earlier operation left there; slot 0 is
 * kept because {@code cpudl_find} reads {@code elements[0]} even when the heap is empty).
 * {@code cpudl_find} changes nothing, so its steps are self-loops that do not count towards the
 * depth. Environment assumption (KERNEL.md): live deadlines, and the deadline of a task being
 * placed, always lie within one window of 2^63, so a {@code cpudl_set} or {@code cpudl_find} that
 * would break that is not offered.
 *
 * <p>Monitors, only when selected: {@code same-heap} runs the other version's heap on the same
 * operations while the live keys are distinct and in (0, 2^63) (when that premise first fails
 * the copy is cleared and the comparison stops for the rest of the sequence); {@code writes}
 * keeps the element stores of the last operation.
 */
final class CpudlModel implements Model {
    private final String variant;
    private final Params params;
    private final CpudlHeap impl;
    private final CpudlHeap partner;
    private final int n;
    private final int maxDepth;
    private final DeadlineDomain dom;
    private final int dn;
    private final boolean findSteps;
    private final boolean same;
    private final boolean writesOn;
    private final Set<String> selected;

    private final Cpumask[] aff;
    private final int affCount;

    private final Layout.Field[] slotCpu;
    private final Layout.Field[] slotDl;
    private final Layout.Field[] idxF;
    private final Layout.Field[] free;
    private final Layout.Field[] ref;
    private final Layout.Field size;
    private final Layout.Field depth;
    private final Layout.Field writes;
    private final Layout.Field opKind;
    private final Layout.Field[] shCpu;
    private final Layout.Field[] shDl;
    private final Layout.Field[] shIdx;
    private final Layout.Field shSize;
    private final Layout.Field premiseOff;
    private final int width;

    private final int clearBase;
    private final int findBase;
    private final String setCite;
    private final String clearCite;
    private final String findCite;
    private final List<Property> properties;
    private final ThreadLocal<Scratch> scratch;

    /* per-fork scratch */
    private final long[] nx;
    private final Cpudl cp;
    private final Cpudl work;
    private final Cpudl sh;
    private final Cpudl shWork;
    private final Cpumask later;
    private final int[] valueCount;

    CpudlModel(String variant, Params params, CpudlHeap impl, CpudlHeap partner, Set<String> selected) {
        this.variant = variant;
        this.params = params;
        this.impl = impl;
        this.partner = partner;
        this.selected = selected;
        this.n = params.integer("cpus");
        this.maxDepth = params.integer("depth");
        this.dom = DeadlineDomain.named(params.get("keys"));
        this.dn = dom.size();
        this.findSteps = selected.contains("find-sound");
        this.same = selected.contains("same-heap");
        this.writesOn = selected.contains("writes");

        List<Cpumask> masks = new ArrayList<>();
        Cpumask all = new Cpumask(n);
        all.setAll();
        masks.add(all);
        if (n >= 2) {
            for (int c = 0; c < n; c++) {
                Cpumask one = new Cpumask(n);
                one.setCpu(c);
                masks.add(one);
            }
        }
        if (n >= 3) {
            for (int c = 0; c < n; c++) {
                Cpumask others = new Cpumask(n);
                others.setAll();
                others.clearCpu(c);
                masks.add(others);
            }
        }
        this.aff = masks.toArray(Cpumask[]::new);
        this.affCount = aff.length;

        Layout layout = new Layout();
        slotCpu = new Layout.Field[n];
        slotDl = new Layout.Field[n];
        idxF = new Layout.Field[n];
        free = new Layout.Field[n];
        ref = new Layout.Field[n];
        for (int h = 0; h < n; h++) {
            slotCpu[h] = layout.fieldFor(n - 1);
            slotDl[h] = layout.fieldFor(dn);
        }
        for (int c = 0; c < n; c++) {
            idxF[c] = layout.fieldFor(n);
            free[c] = layout.field(1);
            ref[c] = layout.fieldFor(dn);
        }
        size = layout.fieldFor(n);
        depth = layout.fieldFor(maxDepth);
        long wmax = 16 + 12L * (Layout.bitsFor(n) + 2);
        writes = layout.fieldFor(writesOn ? wmax : 0);
        opKind = layout.field(writesOn ? 1 : 0);
        shCpu = new Layout.Field[n];
        shDl = new Layout.Field[n];
        shIdx = new Layout.Field[n];
        for (int h = 0; h < n; h++) {
            shCpu[h] = layout.fieldFor(same ? n - 1 : 0);
            shDl[h] = layout.fieldFor(same ? dn : 0);
        }
        for (int c = 0; c < n; c++) {
            shIdx[c] = layout.fieldFor(same ? n : 0);
        }
        shSize = layout.fieldFor(same ? n : 0);
        premiseOff = layout.field(same ? 1 : 0);
        width = layout.words();

        clearBase = n * dn;
        findBase = clearBase + n;
        setCite = cite(impl, "set", "cpudl_set", Cpudl.class, int.class, long.class);
        clearCite = cite(impl, "clear", "cpudl_clear", Cpudl.class, int.class);
        findCite = cite(impl, "find", "cpudl_find", Cpudl.class, long.class, Cpumask.class, Cpumask.class);
        properties = buildProperties();
        final int cpus = n;
        final int w = width;
        scratch = ThreadLocal.withInitial(() -> new Scratch(cpus, w));

        nx = new long[width];
        cp = Cpudl.init(n);
        work = Cpudl.init(n);
        sh = Cpudl.init(n);
        shWork = Cpudl.init(n);
        later = new Cpumask(n);
        valueCount = new int[dn];
    }

    private CpudlModel(CpudlModel m) {
        this.variant = m.variant;
        this.params = m.params;
        this.impl = m.impl;
        this.partner = m.partner;
        this.n = m.n;
        this.maxDepth = m.maxDepth;
        this.dom = m.dom;
        this.dn = m.dn;
        this.findSteps = m.findSteps;
        this.same = m.same;
        this.writesOn = m.writesOn;
        this.selected = m.selected;
        this.aff = m.aff;
        this.affCount = m.affCount;
        this.slotCpu = m.slotCpu;
        this.slotDl = m.slotDl;
        this.idxF = m.idxF;
        this.free = m.free;
        this.ref = m.ref;
        this.size = m.size;
        this.depth = m.depth;
        this.writes = m.writes;
        this.opKind = m.opKind;
        this.shCpu = m.shCpu;
        this.shDl = m.shDl;
        this.shIdx = m.shIdx;
        this.shSize = m.shSize;
        this.premiseOff = m.premiseOff;
        this.width = m.width;
        this.clearBase = m.clearBase;
        this.findBase = m.findBase;
        this.setCite = m.setCite;
        this.clearCite = m.clearCite;
        this.findCite = m.findCite;
        this.properties = m.properties;
        this.scratch = m.scratch;
        this.nx = new long[width];
        this.cp = Cpudl.init(n);
        this.work = Cpudl.init(n);
        this.sh = Cpudl.init(n);
        this.shWork = Cpudl.init(n);
        this.later = new Cpumask(n);
        this.valueCount = new int[dn];
    }

    @Override
    public Model fork() {
        return new CpudlModel(this);
    }

    private static String cite(CpudlHeap impl, String method, String fallback, Class<?>... types) {
        try {
            Method m = impl.getClass().getMethod(method, types);
            Kernel k = m.getAnnotation(Kernel.class);
            if (k == null && method.equals("find")) {
                k = CpudlFind.class.getMethod("cpudlFind", types).getAnnotation(Kernel.class);
            }
            if (k != null) {
                return Kernel.Cite.of(k);
            }
        } catch (NoSuchMethodException e) {
            // fall through
        }
        return fallback + " (kernel/sched/cpudeadline.c, " + impl.version() + ")";
    }

    @Override
    public String name() {
        return CpudlFactory.NAME;
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

    /* ---- packing ---- */

    private long slotValue(int code) {
        return code == 0 ? 0L : dom.value(code - 1);
    }

    private int slotCode(long v) {
        if (v == 0) {
            return 0;
        }
        int i = dom.indexOf(v);
        if (i < 0) {
            throw new IllegalStateException("cpudl: the heap holds deadline " + Deadlines.format(v) + ", not in the domain " + dom);
        }
        return i + 1;
    }

    private void decodeHeap(long[] s, Cpudl c, Layout.Field sz, Layout.Field[] cpus, Layout.Field[] dls, Layout.Field[] idxs) {
        c.size = sz.getInt(s);
        for (int h = 0; h < n; h++) {
            c.loadSlot(h, cpus[h].getInt(s), slotValue(dls[h].getInt(s)));
        }
        for (int x = 0; x < n; x++) {
            c.loadIdx(x, idxs[x].getInt(s) - 1);
        }
    }

    private void decodeMain(long[] s, Cpudl c) {
        decodeHeap(s, c, size, slotCpu, slotDl, idxF);
        c.freeCpus.clearAll();
        for (int x = 0; x < n; x++) {
            if (free[x].get(s) != 0) {
                c.freeCpus.setCpu(x);
            }
        }
    }

    private void decodeShadow(long[] s, Cpudl c) {
        decodeHeap(s, c, shSize, shCpu, shDl, shIdx);
    }

    private void decodeRef(long[] s, CpudlReference r) {
        r.clearAll();
        for (int c = 0; c < n; c++) {
            int code = ref[c].getInt(s);
            if (code != 0) {
                r.set(c, dom.value(code - 1));
            }
        }
    }

    private void encodeHeap(Cpudl c, long[] t, Layout.Field sz, Layout.Field[] cpus, Layout.Field[] dls, Layout.Field[] idxs) {
        if (c.size < 0 || c.size > n) {
            throw new IllegalStateException("cpudl: size " + c.size + " out of 0.." + n);
        }
        sz.set(t, c.size);
        int kept = Math.max(c.size, 1);
        for (int h = 0; h < n; h++) {
            if (h < kept) {
                int x = c.cpu(h);
                if (x < 0 || x >= n) {
                    throw new IllegalStateException("cpudl: heap slot " + h + " holds cpu " + x);
                }
                cpus[h].set(t, x);
                dls[h].set(t, slotCode(c.dl(h)));
            } else {
                cpus[h].set(t, 0);
                dls[h].set(t, 0);
            }
        }
        for (int x = 0; x < n; x++) {
            int i = c.idx(x);
            if (i < -1 || i >= n) {
                throw new IllegalStateException("cpudl: elements[" + x + "].idx = " + i);
            }
            idxs[x].set(t, i + 1);
        }
    }

    private void encodeMain(Cpudl c, long[] t) {
        encodeHeap(c, t, size, slotCpu, slotDl, idxF);
        for (int x = 0; x < n; x++) {
            free[x].set(t, c.freeCpus.testCpu(x) ? 1 : 0);
        }
    }

    private void zeroShadow(long[] t) {
        shSize.set(t, 0);
        for (int h = 0; h < n; h++) {
            shCpu[h].set(t, 0);
            shDl[h].set(t, 0);
            shIdx[h].set(t, 0);
        }
    }

    @Override
    public void initial(StateSink out) {
        long[] s = new long[width];
        Cpudl init = Cpudl.init(n);
        encodeMain(init, s);
        if (same) {
            encodeHeap(init, s, shSize, shCpu, shDl, shIdx);
        }
        out.state(s);
    }

    /* ---- steps ---- */

    @Override
    public void successors(long[] s, StepSink out) {
        int d = depth.getInt(s);
        decodeMain(s, cp);
        if (d < maxDepth) {
            boolean compare = same && premiseOff.get(s) == 0;
            if (compare) {
                decodeShadow(s, sh);
            }
            long live = 0;
            java.util.Arrays.fill(valueCount, 0);
            for (int c = 0; c < n; c++) {
                int code = ref[c].getInt(s);
                if (code != 0) {
                    valueCount[code - 1]++;
                    live |= 1L << (code - 1);
                }
            }
            for (int c = 0; c < n; c++) {
                int own = ref[c].getInt(s);
                long others = own != 0 && valueCount[own - 1] == 1 ? live & ~(1L << (own - 1)) : live;
                for (int k = 0; k < dn; k++) {
                    if (!dom.windowed(others | (1L << k))) {
                        continue;
                    }
                    if (!run(0, c, k)) {
                        continue;
                    }
                    System.arraycopy(s, 0, nx, 0, width);
                    encodeMain(work, nx);
                    ref[c].set(nx, k + 1);
                    finish(nx, d, 0, work.writes(), compare, c, k);
                    out.step(0, c * dn + k, nx);
                }
            }
            for (int c = 0; c < n; c++) {
                if (!run(1, c, -1)) {
                    continue;
                }
                System.arraycopy(s, 0, nx, 0, width);
                encodeMain(work, nx);
                ref[c].set(nx, 0);
                finish(nx, d, 1, work.writes(), compare, c, -1);
                out.step(0, clearBase + c, nx);
            }
        }
        if (findSteps) {
            long live = 0;
            for (int c = 0; c < n; c++) {
                int code = ref[c].getInt(s);
                if (code != 0) {
                    live |= 1L << (code - 1);
                }
            }
            for (int t = 0; t < dn; t++) {
                if (!dom.windowed(live | (1L << t))) {
                    continue;
                }
                for (int a = 0; a < affCount; a++) {
                    int ans = impl.find(cp, dom.value(t), aff[a], later);
                    int code = ans >= -1 && ans < n ? ans + 1 : n + 1;
                    System.arraycopy(s, 0, nx, 0, width);
                    out.step(0, findBase + (t * affCount + a) * (n + 2) + code, nx);
                }
            }
        }
    }

    /**
     * Runs one operation of the variant on a copy of the decoded heap ({@link #work}). An
     * implementation that indexes outside {@code elements[]} (a memory-safety error in the
     * kernel) can only do so from a heap whose index is already inconsistent (so
     * {@code index-consistent} is violated already): that step is not explored. From a
     * consistent heap it is a bug of the variant and is reported as such.
     */
    private boolean run(int kind, int c, int k) {
        work.copyFrom(cp);
        work.resetWrites();
        try {
            if (kind == 0) {
                impl.set(work, c, dom.value(k));
            } else {
                impl.clear(work, c);
            }
            return true;
        } catch (IndexOutOfBoundsException e) {
            if (CpudlInvariants.indexConsistent(cp) != null) {
                return false;
            }
            throw new IllegalStateException("cpudl variant " + variant + ": " + describe(0, kind == 0 ? c * dn + k : clearBase + c)
                    .label() + " on the consistent heap " + cp + " indexes outside elements[]: " + e.getMessage(), e);
        }
    }

    /** Depth, writes monitor and the other version's heap, after a set ({@code kind} 0) or clear (1) on {@code cpu}. */
    private void finish(long[] t, int d, int kind, long stores, boolean compare, int cpu, int k) {
        depth.set(t, d + 1);
        if (writesOn) {
            writes.set(t, Math.min(stores, writes.max()));
            opKind.set(t, kind);
        }
        if (compare) {
            if (premise(t)) {
                shWork.copyFrom(sh);
                if (kind == 0) {
                    partner.set(shWork, cpu, dom.value(k));
                } else {
                    partner.clear(shWork, cpu);
                }
                encodeHeap(shWork, t, shSize, shCpu, shDl, shIdx);
            } else {
                premiseOff.set(t, 1);
                zeroShadow(t);
            }
        }
    }

    /** True if the live keys of {@code t} are distinct and in (0, 2^63). */
    private boolean premise(long[] t) {
        long seen = 0;
        for (int c = 0; c < n; c++) {
            int code = ref[c].getInt(t);
            if (code == 0) {
                continue;
            }
            long bit = 1L << (code - 1);
            if ((seen & bit) != 0 || dom.value(code - 1) <= 0) {
                return false;
            }
            seen |= bit;
        }
        return true;
    }

    @Override
    public boolean isFinal(long[] s) {
        return depth.getInt(s) == maxDepth;
    }

    @Override
    public List<String> actors() {
        return List.of("caller");
    }

    @Override
    public StepInfo describe(int actor, int action) {
        if (action < clearBase) {
            return new StepInfo("cpudl_set(cpu=" + action / dn + ", dl=" + Deadlines.format(dom.value(action % dn)) + ")", setCite);
        }
        if (action < findBase) {
            return new StepInfo("cpudl_clear(cpu=" + (action - clearBase) + ")", clearCite);
        }
        int f = action - findBase;
        int code = f % (n + 2);
        int ta = f / (n + 2);
        int t = ta / affCount;
        int a = ta % affCount;
        String ans = code == n + 1 ? "invalid" : Integer.toString(code - 1);
        return new StepInfo("cpudl_find(dl=" + Deadlines.format(dom.value(t)) + ", allowed=" + aff[a] + ") = " + ans, findCite);
    }

    @Override
    public void decode(long[] s, FieldSink out) {
        Cpudl c = Cpudl.init(n);
        decodeMain(s, c);
        CpudlReference r = new CpudlReference(n);
        decodeRef(s, r);
        String op = "op " + depth.getInt(s) + ": ";
        out.field(FieldSink.SHARED, "heap", op + c.heapString());
        out.field(FieldSink.SHARED, "idx", op + c.idxString());
        out.field(FieldSink.SHARED, "free_cpus", c.freeCpus.toString());
        out.field(FieldSink.SHARED, "reference", r.toString());
        if (writesOn) {
            out.field(FieldSink.SHARED, "writes", writes.get(s) + (depth.getInt(s) == 0 ? ""
                    : opKind.get(s) == 0 ? " (cpudl_set)" : " (cpudl_clear)"));
        }
        if (same) {
            String p = partner.version();
            if (premiseOff.get(s) != 0) {
                out.field(FieldSink.SHARED, p + ".heap", "not compared: live keys not distinct in (0, 2^63)");
                out.field(FieldSink.SHARED, p + ".idx", "-");
            } else {
                Cpudl o = Cpudl.init(n);
                decodeShadow(s, o);
                out.field(FieldSink.SHARED, p + ".heap", op + o.heapString());
                out.field(FieldSink.SHARED, p + ".idx", op + o.idxString());
            }
        }
    }

    @Override
    public List<Property> properties() {
        return properties;
    }

    private List<Property> buildProperties() {
        List<Property> out = new ArrayList<>();
        for (Property p : List.of(new HeapOrder(), new IndexConsistent(), new RootIsLatest(), new FreeCpus(), new FindSound(),
                new SameHeap(), new Writes())) {
            if (selected.contains(p.id())) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * Per-thread scratch for property predicates (they run on several workers at once), with the
     * packed state last decoded into it: the invariants of one state, and the many
     * {@code cpudl_find} steps from one state, decode it once.
     */
    private static final class Scratch {
        final Cpudl cp;
        final Cpudl other;
        final CpudlReference ref;
        final long[] heapOf;
        final long[] refOf;
        boolean heapValid;
        boolean refValid;

        Scratch(int n, int width) {
            cp = Cpudl.init(n);
            other = Cpudl.init(n);
            ref = new CpudlReference(n);
            heapOf = new long[width];
            refOf = new long[width];
        }
    }

    /** The thread's scratch with the heap (main, and the other version's) of {@code s} decoded. */
    private Scratch heapOf(long[] s) {
        Scratch x = scratch.get();
        if (!x.heapValid || !java.util.Arrays.equals(x.heapOf, s)) {
            decodeMain(s, x.cp);
            if (same) {
                decodeShadow(s, x.other);
            }
            System.arraycopy(s, 0, x.heapOf, 0, width);
            x.heapValid = true;
        }
        return x;
    }

    /** The thread's scratch with the reference map of {@code s} decoded. */
    private Scratch refOf(long[] s) {
        Scratch x = scratch.get();
        if (!x.refValid || !java.util.Arrays.equals(x.refOf, s)) {
            decodeRef(s, x.ref);
            System.arraycopy(s, 0, x.refOf, 0, width);
            x.refValid = true;
        }
        return x;
    }

    private String heapCheck(long[] s, String id) {
        Scratch x = heapOf(s);
        return switch (id) {
            case "heap-order" -> CpudlInvariants.heapOrder(x.cp);
            case "index-consistent" -> CpudlInvariants.indexConsistent(x.cp);
            case "free-cpus" -> CpudlInvariants.freeCpus(x.cp);
            case "root-is-latest" -> CpudlInvariants.rootIsLatest(x.cp, refOf(s).ref);
            case "same-heap" -> premiseOff.get(s) != 0 ? null
                    : CpudlInvariants.sameHeap(x.cp, x.other, variant, partner.version());
            default -> throw new IllegalArgumentException(id);
        };
    }

    /** An invariant checked by {@link #heapCheck}. */
    private class HeapInvariant extends Invariant {
        HeapInvariant(String id) {
            super(id, CpudlFactory.describe(id));
        }

        @Override
        public boolean holds(long[] s) {
            return heapCheck(s, id()) == null;
        }

        @Override
        public String explain(long[] s) {
            String why = heapCheck(s, id());
            return why == null ? description() : why;
        }
    }

    /** {@code heap-order}: no slot is later than its parent. */
    final class HeapOrder extends HeapInvariant {
        HeapOrder() {
            super("heap-order");
        }
    }

    /** {@code index-consistent}: the reverse index matches the heap slots. */
    final class IndexConsistent extends HeapInvariant {
        IndexConsistent() {
            super("index-consistent");
        }
    }

    /** {@code root-is-latest}: the root is the latest entry of the reference map. */
    final class RootIsLatest extends HeapInvariant {
        RootIsLatest() {
            super("root-is-latest");
        }
    }

    /** {@code free-cpus}: free_cpus is exactly the CPUs without a heap entry. */
    final class FreeCpus extends HeapInvariant {
        FreeCpus() {
            super("free-cpus");
        }
    }

    /** {@code same-heap}: the other version's heap is identical while the premise holds. */
    final class SameHeap extends HeapInvariant {
        SameHeap() {
            super("same-heap");
        }
    }

    /** {@code find-sound}: each cpudl_find step's answer is one the reference map allows. */
    final class FindSound extends StepProperty {
        FindSound() {
            super("find-sound", CpudlFactory.describe("find-sound"));
        }

        private String check(long[] from, int action) {
            if (action < findBase) {
                return null;
            }
            int f = action - findBase;
            int code = f % (n + 2);
            int ta = f / (n + 2);
            int t = ta / affCount;
            int a = ta % affCount;
            int ans = code == n + 1 ? n : code - 1;
            return CpudlInvariants.findSound(ans, dom.value(t), aff[a], refOf(from).ref);
        }

        @Override
        public boolean holds(long[] from, int actor, int action, long[] to) {
            return check(from, action) == null;
        }

        @Override
        public String explain(long[] from, int actor, int action, long[] to) {
            String why = check(from, action);
            return why == null ? description() : why;
        }
    }

    /** {@code writes}: element stores of the last cpudl_set and cpudl_clear call. */
    final class Writes extends Metric {
        Writes() {
            super("writes", CpudlFactory.describe("writes"));
        }

        @Override
        public int components() {
            return 2;
        }

        @Override
        public String componentName(int c) {
            return c == 0 ? "cpudl_set" : "cpudl_clear";
        }

        @Override
        public long value(long[] s, int c) {
            return depth.getInt(s) > 0 && opKind.getInt(s) == c ? writes.get(s) : 0;
        }
    }
}
