package kcheck.model.cpudl;

import kcheck.model.Layout;
import kcheck.model.ModelLimitException;

/**
 * How a cpudl state is packed into {@code long}s, and the conversions between a packed state and
 * a {@link Cpudl} / {@link CpudlReference}. Fields, in packing order: per heap slot
 * {@code elements[h].cpu} and {@code elements[h].dl} (an index into the deadline domain, 0 for the
 * value 0), per CPU {@code elements[c].idx + 1} and its {@code free_cpus} bit and the reference
 * map (deadline index + 1, 0 = no deadline), {@code size}, the call count; then the monitors
 * (only when their property is selected: the last call's stores for {@code writes}, the other
 * version's heap for {@code same-heap}); then the hotplug dimension (per CPU the runqueue's
 * state and its earliest deadline) and the capacity dimension (per CPU big or little), only when
 * those parameters are on, so that at their defaults the packing is the one of earlier releases.
 *
 * <p>Every value a variant stores is checked here, where the packing assumes it. A value outside
 * the field's kernel meaning (a size beyond nr_cpu_ids, a slot's cpu that is not a CPU, an idx
 * that is neither IDX_INVALID nor a slot, more stores than O(log n)) is a state the kernel would
 * flag: {@link CpudlFault.Flagged}, a verdict. Only a deadline outside the {@code keys} domain, which
 * the kernel allows, is a {@link ModelLimitException}.
 */
final class CpudlLayout {
    /** Runqueue states of the hotplug dimension (field {@code cpuState}). */
    static final int ON = 0;
    /** The CPU is going down (or down, attached to this root domain): runqueue offline, not active. */
    static final int OFF = 1;
    /** The runqueue is attached to another root domain; the CPU stays active. */
    static final int OUT = 2;

    final int n;
    final DeadlineDomain dom;
    final int dn;
    final boolean hotplug;
    final boolean capacityBits;

    final Layout.Field[] slotCpu;
    final Layout.Field[] slotDl;
    final Layout.Field[] idxF;
    final Layout.Field[] free;
    final Layout.Field[] ref;
    final Layout.Field size;
    final Layout.Field depth;
    final Layout.Field writes;
    final Layout.Field opKind;
    final Layout.Field[] shCpu;
    final Layout.Field[] shDl;
    final Layout.Field[] shIdx;
    final Layout.Field shSize;
    final Layout.Field premiseOff;
    final Layout.Field[] cpuState;
    final Layout.Field[] rqdl;
    final Layout.Field[] big;
    /** A state the kernel would flag ({@link CpudlFault}): its code, argument (slot or CPU) and value (16-bit). */
    final Layout.Field fault;
    final Layout.Field faultArg;
    final Layout.Field faultValue;
    final int width;

    CpudlLayout(int n, int maxDepth, DeadlineDomain dom, boolean writesOn, boolean same, boolean hotplug, boolean capacityBits) {
        this.n = n;
        this.dom = dom;
        this.dn = dom.size();
        this.hotplug = hotplug;
        this.capacityBits = capacityBits;
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
        writes = layout.fieldFor(writesOn ? maxWrites(n) : 0);
        opKind = layout.field(writesOn ? (hotplug ? 2 : 1) : 0);
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
        cpuState = new Layout.Field[n];
        rqdl = new Layout.Field[n];
        big = new Layout.Field[n];
        for (int c = 0; c < n; c++) {
            cpuState[c] = layout.field(hotplug ? 2 : 0);
            rqdl[c] = layout.fieldFor(hotplug ? dn : 0);
            big[c] = layout.field(capacityBits ? 1 : 0);
        }
        fault = layout.fieldFor(CpudlFault.MAX);
        faultArg = layout.fieldFor(Math.max(n, 1));
        faultValue = layout.field(16);
        width = layout.words();
    }

    /** The largest number of element stores per call the {@code writes} field holds. */
    static long maxWrites(int n) {
        return 16 + 12L * (Layout.bitsFor(n) + 2);
    }

    /* ---- heap ---- */

    long slotValue(int code) {
        return code == 0 ? 0L : dom.value(code - 1);
    }

    int slotCode(long v, int h) {
        if (v == 0) {
            return 0;
        }
        int i = dom.indexOf(v);
        if (i < 0) {
            throw new ModelLimitException("cpudl packs heap deadlines as indices into the keys domain " + dom + ": this variant stored "
                    + Deadlines.format(v) + " in elements[" + h + "].dl, a value it was never given");
        }
        return i + 1;
    }

    void decodeHeap(long[] s, Cpudl c, boolean shadow) {
        Layout.Field sz = shadow ? shSize : size;
        Layout.Field[] cpus = shadow ? shCpu : slotCpu;
        Layout.Field[] dls = shadow ? shDl : slotDl;
        Layout.Field[] idxs = shadow ? shIdx : idxF;
        c.size = sz.getInt(s);
        for (int h = 0; h < n; h++) {
            c.loadSlot(h, cpus[h].getInt(s), slotValue(dls[h].getInt(s)));
        }
        for (int x = 0; x < n; x++) {
            c.loadIdx(x, idxs[x].getInt(s) - 1);
        }
    }

    /** The heap, {@code free_cpus} and the environment ({@code cpu_active_mask}, capacities) of {@code s}. */
    void decodeMain(long[] s, Cpudl c, long[] capacities) {
        decodeHeap(s, c, false);
        c.freeCpus.clearAll();
        for (int x = 0; x < n; x++) {
            if (free[x].get(s) != 0) {
                c.freeCpus.setCpu(x);
            }
        }
        if (hotplug) {
            for (int x = 0; x < n; x++) {
                if (cpuState[x].getInt(s) == OFF) {
                    c.cpuActiveMask.clearCpu(x);
                } else {
                    c.cpuActiveMask.setCpu(x);
                }
            }
        }
        if (capacities != null) {
            if (capacityBits) {
                for (int x = 0; x < n; x++) {
                    capacities[x] = big[x].get(s) != 0 ? CpudlCapacity.BIG : CpudlCapacity.LITTLE;
                }
            }
            c.setCapacities(capacities);
        }
    }

    void decodeRef(long[] s, CpudlReference r) {
        r.clearAll();
        for (int c = 0; c < n; c++) {
            int code = ref[c].getInt(s);
            if (code != 0) {
                r.set(c, dom.value(code - 1));
            }
            r.setOnline(c, !hotplug || cpuState[c].getInt(s) == ON);
        }
    }

    void encodeHeap(Cpudl c, long[] t, boolean shadow) {
        Layout.Field sz = shadow ? shSize : size;
        Layout.Field[] cpus = shadow ? shCpu : slotCpu;
        Layout.Field[] dls = shadow ? shDl : slotDl;
        Layout.Field[] idxs = shadow ? shIdx : idxF;
        if (c.size < 0 || c.size > n) {
            throw new CpudlFault.Flagged(CpudlFault.SIZE, 0, c.size);
        }
        sz.set(t, c.size);
        int kept = Math.max(c.size, 1);
        for (int h = 0; h < n; h++) {
            if (h < kept) {
                int x = c.cpu(h);
                if (x < 0 || x >= n) {
                    /* slot 0 of an empty heap is read by the next cpudl_find as best_cpu (cpudeadline.c:151) */
                    throw h < c.size ? new CpudlFault.Flagged(CpudlFault.SLOT_CPU, h, x) : new CpudlFault.Flagged(CpudlFault.WARN_FIND_BEST_CPU, 0, x);
                }
                cpus[h].set(t, x);
                dls[h].set(t, slotCode(c.dl(h), h));
            } else {
                cpus[h].set(t, 0);
                dls[h].set(t, 0);
            }
        }
        for (int x = 0; x < n; x++) {
            int i = c.idx(x);
            if (i < -1 || i >= n) {
                throw new CpudlFault.Flagged(CpudlFault.IDX, x, i);
            }
            idxs[x].set(t, i + 1);
        }
    }

    void encodeMain(Cpudl c, long[] t) {
        encodeHeap(c, t, false);
        for (int x = 0; x < n; x++) {
            free[x].set(t, c.freeCpus.testCpu(x) ? 1 : 0);
        }
    }

    void zeroShadow(long[] t) {
        shSize.set(t, 0);
        for (int h = 0; h < n; h++) {
            shCpu[h].set(t, 0);
            shDl[h].set(t, 0);
            shIdx[h].set(t, 0);
        }
    }

    /** Stores the element-store count of the last call ({@code kind}: 0 set, 1 clear, 2 a hotplug path). */
    void setWrites(long[] t, long stores, int kind) {
        if (stores > writes.max()) {
            throw new CpudlFault.Flagged(CpudlFault.WORK, 1, writes.max());
        }
        writes.set(t, stores);
        opKind.set(t, kind);
    }

    /** Marks {@code t} as the fault state of {@code f}. */
    void setFault(long[] t, CpudlFault.Flagged f) {
        fault.set(t, f.code);
        faultArg.set(t, Math.max(0, Math.min(f.arg, (int) faultArg.max())));
        long v = f.value < Short.MIN_VALUE || f.value > Short.MAX_VALUE ? Short.MIN_VALUE : f.value;
        faultValue.set(t, v & 0xffff);
    }

    int faultCode(long[] s) {
        return fault.getInt(s);
    }

    /** The fault state's explanation ({@link CpudlFault#explain}). */
    String faultExplanation(long[] s) {
        long v = (short) faultValue.getInt(s);
        return CpudlFault.explain(fault.getInt(s), faultArg.getInt(s), v == Short.MIN_VALUE ? Long.MIN_VALUE : v, n);
    }

    /* ---- hotplug and the reference ---- */

    int state(long[] s, int c) {
        return hotplug ? cpuState[c].getInt(s) : ON;
    }

    /**
     * Bit k set iff some CPU's runqueue has a deadline task with earliest deadline dom[k]: the
     * deadlines the window assumption ranges over (with hotplug, also those of runqueues that are
     * not in the heap now).
     */
    long live(long[] s) {
        long live = 0;
        for (int c = 0; c < n; c++) {
            int code = hotplug ? rqdl[c].getInt(s) : ref[c].getInt(s);
            if (code != 0) {
                live |= 1L << (code - 1);
            }
        }
        return live;
    }

    /** The runqueue's earliest deadline code (index + 1, 0 = none). */
    int rqCode(long[] s, int c) {
        return hotplug ? rqdl[c].getInt(s) : ref[c].getInt(s);
    }
}
