package kcheck.model.cpudl;

import java.util.Arrays;

import kcheck.model.Kernel;

/**
 * {@code struct cpudl} (kernel/sched/cpudeadline.h): the max-heap of CPU deadlines of one root
 * domain. {@code elements[0..nr_cpu_ids-1]} is used twice: {@code elements[h].cpu} and
 * {@code elements[h].dl} for heap slots {@code h < size}, and {@code elements[c].idx} as the
 * reverse index (the heap slot of CPU {@code c}, or {@link #IDX_INVALID}).
 *
 * <p>Reads are plain accessors; every store to an element field goes through
 * {@link #setCpu}, {@link #setDl} or {@link #setIdx}, which count it in {@link #writes}: the
 * figure behind the "no real swaps" claim. {@code size} and {@code free_cpus} are not element
 * fields and are not counted.
 */
public final class Cpudl {
    /** {@code IDX_INVALID} (kernel/sched/cpudeadline.h): the CPU has no heap slot. */
    public static final int IDX_INVALID = -1;

    private final int nrCpus;
    /** {@code cp->size}: number of heap slots in use. */
    public int size;
    private final int[] cpu;
    private final long[] dl;
    private final int[] idx;
    /** {@code cp->free_cpus}: CPUs without a deadline task. */
    public final Cpumask freeCpus;
    /** Element field stores since the last {@link #resetWrites()}. */
    private long writes;
    /** Element field accesses since the last {@link #resetWrites()}, counted only while {@link #accessBudget} is set. */
    private long accesses;
    /** Accesses one call may make before it is stopped as runaway ({@link CpudlFault.Runaway}); 0: unbounded. */
    private long accessBudget;
    /** The kernel checks ({@code WARN_ON}) that fired since the last {@link #resetWrites()}: bit {@code 1 << code}. */
    private int warned;
    /** The value the first check that fired was about (a CPU id). */
    private long warnedValue;
    /** Records the views a lockless cpudl_find could read during a call ({@link CpudlRace}); null: not recording. */
    private CpudlRace race;

    /*
     * The kernel state outside struct cpudl that cpudeadline.c reads: not part of the heap, set by
     * the caller (the model's hotplug and capacity dimensions), copied by copyFrom.
     */
    /** {@code cpu_active_mask} (read by the v3.14 to v3.19 {@code cpudl_find()}); every CPU by default. */
    public final Cpumask cpuActiveMask;
    /** {@code arch_scale_cpu_capacity(cpu)} per CPU; {@link #SCHED_CAPACITY_SCALE} by default. */
    private final long[] capacity;
    /** {@code sched_asym_cpucap_active()}: the {@code sched_asym_cpucapacity} static key; off by default. */
    private boolean asymCpucap;

    /** {@code SCHED_CAPACITY_SCALE} (include/linux/sched.h): the capacity of the biggest CPU. */
    public static final long SCHED_CAPACITY_SCALE = 1024;

    private Cpudl(int nrCpus) {
        this.nrCpus = nrCpus;
        this.cpu = new int[nrCpus];
        this.dl = new long[nrCpus];
        this.idx = new int[nrCpus];
        this.freeCpus = new Cpumask(nrCpus);
        this.cpuActiveMask = new Cpumask(nrCpus);
        this.cpuActiveMask.setAll();
        this.capacity = new long[nrCpus];
        java.util.Arrays.fill(capacity, SCHED_CAPACITY_SCALE);
    }

    /**
     * {@code cpudl_init()}: zeroed elements ({@code kcalloc}), every {@code idx} invalid, empty
     * {@code free_cpus}; then {@code cpudl_set_freecpu()} for every CPU, as {@code rq_online_dl()}
     * does when each CPU joins the root domain with no deadline task.
     */
    @Kernel(function = "cpudl_init", file = "kernel/sched/cpudeadline.c", version = "v4.8")
    public static Cpudl init(int nrCpus) {
        if (nrCpus < 1) {
            throw new IllegalArgumentException("nr_cpu_ids " + nrCpus);
        }
        Cpudl cp = new Cpudl(nrCpus);
        cp.size = 0;
        for (int i = 0; i < nrCpus; i++) {
            cp.idx[i] = IDX_INVALID;
        }
        for (int i = 0; i < nrCpus; i++) {
            cp.setFreecpu(i);
        }
        return cp;
    }

    /** {@code cpudl_set_freecpu()}: marks {@code cpu} free (called from {@code rq_online_dl()}; v4.x to v6.17). */
    @Kernel(function = "cpudl_set_freecpu", file = "kernel/sched/cpudeadline.c", version = "v4.8")
    public void setFreecpu(int c) {
        freeCpus.setCpu(c);
    }

    /** {@code cpudl_clear_freecpu()}: marks {@code cpu} not free (called from {@code rq_offline_dl()}; v4.x to v6.17). */
    @Kernel(function = "cpudl_clear_freecpu", file = "kernel/sched/cpudeadline.c", version = "v4.8")
    public void clearFreecpu(int c) {
        freeCpus.clearCpu(c);
    }

    /** {@code arch_scale_cpu_capacity(cpu)}. */
    @Kernel(function = "arch_scale_cpu_capacity", file = "include/linux/arch_topology.h", version = "v6.12")
    public long archScaleCpuCapacity(int c) {
        return capacity[c];
    }

    /** {@code sched_asym_cpucap_active()}. */
    @Kernel(function = "sched_asym_cpucap_active", file = "kernel/sched/sched.h", version = "v6.12", line = 2057)
    public boolean schedAsymCpucapActive() {
        return asymCpucap;
    }

    /**
     * Sets the CPU capacities ({@code arch_scale_cpu_capacity}); the asymmetric-capacity key is on
     * iff they are not all equal (the kernel enables {@code sched_asym_cpucapacity} when the
     * topology has CPUs of different capacities).
     */
    public void setCapacities(long... caps) {
        if (caps.length != nrCpus) {
            throw new IllegalArgumentException(caps.length + " capacities for " + nrCpus + " CPUs");
        }
        System.arraycopy(caps, 0, capacity, 0, nrCpus);
        boolean asym = false;
        for (long c : caps) {
            asym |= c != caps[0];
        }
        asymCpucap = asym;
    }

    /** Sets one capacity and the asymmetric key explicitly (for tests and the conformance driver). */
    public void setCapacity(int c, long cap) {
        capacity[c] = cap;
    }

    public void setAsymCpucap(boolean on) {
        asymCpucap = on;
    }

    public int nrCpus() {
        return nrCpus;
    }

    /** {@code cp->elements[h].cpu}. */
    public int cpu(int h) {
        touch();
        return cpu[h];
    }

    /** {@code cp->elements[h].dl}. */
    public long dl(int h) {
        touch();
        return dl[h];
    }

    /** {@code cp->elements[c].idx}. */
    public int idx(int c) {
        touch();
        return idx[c];
    }

    /** {@code cp->elements[h].cpu = v} (counted). */
    public void setCpu(int h, int v) {
        if (race != null) {
            race.view(this);
        }
        cpu[h] = v;
        writes++;
        touch();
        if (race != null) {
            race.view(this);
        }
    }

    /** {@code cp->elements[h].dl = v} (counted). */
    public void setDl(int h, long v) {
        if (race != null) {
            race.view(this);
        }
        dl[h] = v;
        writes++;
        touch();
        if (race != null) {
            race.view(this);
        }
    }

    /** {@code cp->elements[c].idx = v} (counted). */
    public void setIdx(int c, int v) {
        if (race != null) {
            race.view(this);
        }
        idx[c] = v;
        writes++;
        touch();
        if (race != null) {
            race.view(this);
        }
    }

    public long writes() {
        return writes;
    }

    public void resetWrites() {
        writes = 0;
        accesses = 0;
        warned = 0;
        warnedValue = 0;
    }

    private void touch() {
        if (accessBudget != 0 && ++accesses > accessBudget) {
            throw new CpudlFault.Runaway(accessBudget);
        }
    }

    /**
     * Bounds the element accesses of each following call (0: unbounded): a call beyond it throws
     * {@link CpudlFault.Runaway}, so a heapify loop that never ends is a verdict, not a hang.
     */
    public void setAccessBudget(long budget) {
        accessBudget = budget;
    }

    /** Starts (non-null) or stops recording the views a lockless cpudl_find could read. */
    void recordRace(CpudlRace r) {
        if (r != null) {
            r.reset();
            r.view(this);
        } else if (race != null) {
            race.view(this);
        }
        race = r;
    }

    /** {@code elements[h].cpu} without counting an access (for the race views). */
    int rawCpu(int h) {
        return cpu[h];
    }

    /** {@code elements[h].dl} without counting an access (for the race views). */
    long rawDl(int h) {
        return dl[h];
    }

    /** {@code cpu_present(cpu)}: every CPU id below {@code nr_cpu_ids} is present (the model has no physically absent CPU). */
    @Kernel(function = "cpu_present", file = "include/linux/cpumask.h", version = "v6.12")
    public boolean cpuPresent(int c) {
        return c >= 0 && c < nrCpus;
    }

    /** {@code WARN_ON(cond)}: records that kernel check {@code code} ({@link CpudlFault}) fired about {@code value}. */
    public boolean warnOn(boolean cond, int code, long value) {
        if (cond) {
            if (warned == 0) {
                warnedValue = value;
            }
            warned |= 1 << code;
        }
        return cond;
    }

    /** The checks that fired since the last {@link #resetWrites()}, bit {@code 1 << code}. */
    public int warnings() {
        return warned;
    }

    /** The value the first check that fired was about. */
    public long warnedValue() {
        return warnedValue;
    }

    /** {@code parent(i)} in kernel/sched/cpudeadline.c. */
    @Kernel(function = "parent", file = "kernel/sched/cpudeadline.c", version = "v4.8")
    public static int parent(int i) {
        return (i - 1) >> 1;
    }

    /** {@code left_child(i)} in kernel/sched/cpudeadline.c. */
    @Kernel(function = "left_child", file = "kernel/sched/cpudeadline.c", version = "v4.8")
    public static int leftChild(int i) {
        return (i << 1) + 1;
    }

    /** {@code right_child(i)} in kernel/sched/cpudeadline.c. */
    @Kernel(function = "right_child", file = "kernel/sched/cpudeadline.c", version = "v4.8")
    public static int rightChild(int i) {
        return (i << 1) + 2;
    }

    /** Raw store without counting, for decoding a packed state. */
    public void loadSlot(int h, int c, long d) {
        cpu[h] = c;
        dl[h] = d;
    }

    /** Raw store without counting, for decoding a packed state. */
    public void loadIdx(int c, int i) {
        idx[c] = i;
    }

    /** Copies everything from {@code o} (same CPU count), including the write counter. */
    public void copyFrom(Cpudl o) {
        size = o.size;
        System.arraycopy(o.cpu, 0, cpu, 0, nrCpus);
        System.arraycopy(o.dl, 0, dl, 0, nrCpus);
        System.arraycopy(o.idx, 0, idx, 0, nrCpus);
        freeCpus.copyFrom(o.freeCpus);
        writes = o.writes;
        cpuActiveMask.copyFrom(o.cpuActiveMask);
        System.arraycopy(o.capacity, 0, capacity, 0, nrCpus);
        asymCpucap = o.asymCpucap;
    }

    /**
     * True if the heap slots in use, the reverse index and {@code size} are identical (the
     * {@code same-heap} comparison). Slots at or beyond {@code size} are not compared.
     */
    public boolean sameHeapAs(Cpudl o) {
        if (o.nrCpus != nrCpus || o.size != size) {
            return false;
        }
        for (int h = 0; h < size; h++) {
            if (cpu[h] != o.cpu[h] || dl[h] != o.dl[h]) {
                return false;
            }
        }
        return Arrays.equals(idx, o.idx);
    }

    /** {@code [1:2^63+2 0:2^63+1]}: the slots in use as cpu:dl. */
    public String heapString() {
        StringBuilder b = new StringBuilder("[");
        for (int h = 0; h < size; h++) {
            if (h > 0) {
                b.append(' ');
            }
            b.append(cpu[h]).append(':').append(Deadlines.format(dl[h]));
        }
        return b.append(']').toString();
    }

    /** {@code [1 0 - -]}: the reverse index by CPU, {@code -} for invalid. */
    public String idxString() {
        StringBuilder b = new StringBuilder("[");
        for (int c = 0; c < nrCpus; c++) {
            if (c > 0) {
                b.append(' ');
            }
            b.append(idx[c] == IDX_INVALID ? "-" : Integer.toString(idx[c]));
        }
        return b.append(']').toString();
    }

    @Override
    public String toString() {
        return "heap=" + heapString() + " idx=" + idxString() + " free=" + freeCpus;
    }
}
