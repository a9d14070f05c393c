package kcheck.model.cpudl;

/**
 * States the kernel itself would flag, reached by a call of the variant: a {@code WARN_ON} of
 * cpudeadline.c that fired, a field of {@code struct cpudl} outside its meaning, an access outside
 * {@code elements[]}, or a call that does not terminate within its O(log n) work bound. Each is a
 * verdict on a named property (never a limit of the model): the step leads to a terminal state
 * that carries the fault's code, where (kernel) and what (argument, value).
 *
 * <p>The codes, their properties and the one-line explanation live here; {@link CpudlLayout}
 * packs them, {@link CpudlSteps} produces them, {@link CpudlProperties} checks them.
 */
public final class CpudlFault {
    private CpudlFault() {
    }

    /** No fault. */
    public static final int NONE = 0;
    /** {@code WARN_ON(!cpu_present(cpu))} in cpudl_set / cpudl_clear. */
    public static final int WARN_CPU_PRESENT = 1;
    /** {@code WARN_ON(best_cpu != -1 && !cpu_present(best_cpu))} in cpudl_find. */
    public static final int WARN_FIND_BEST_CPU = 2;
    /** {@code cp->size} outside 0..nr_cpu_ids. */
    public static final int SIZE = 3;
    /** {@code elements[h].cpu} (h < size) not a CPU id. */
    public static final int SLOT_CPU = 4;
    /** {@code elements[c].idx} neither IDX_INVALID nor a slot. */
    public static final int IDX = 5;
    /** An access outside {@code elements[0..nr_cpu_ids-1]}. */
    public static final int BOUNDS = 6;
    /** A call beyond its work bound (a heapify loop that does not end). */
    public static final int WORK = 7;
    /** A lockless cpudl_find racing with the call offers a CPU usable neither before nor after it ({@link CpudlRace}). */
    public static final int RACE = 8;
    /** Largest code. */
    public static final int MAX = 8;

    /** The property each code violates (index = code). */
    private static final String[] PROPERTY = {null, "warn-cpu-present", "warn-find-best-cpu", "sanity-fields", "sanity-fields",
        "sanity-fields", "sanity-bounds", "bounded-work", "find-race"};

    static String property(int code) {
        return PROPERTY[code];
    }

    /** True if {@code id} is one of the fault properties. */
    static boolean isFaultProperty(String id) {
        for (String p : PROPERTY) {
            if (id.equals(p)) {
                return true;
            }
        }
        return false;
    }

    /** The explanation of a fault state: {@code arg} is a slot or CPU, {@code value} the offending value. */
    static String explain(int code, int arg, long value, int n) {
        return switch (code) {
            case WARN_CPU_PRESENT -> "kernel/sched/cpudeadline.c:179/222 (v6.12) WARN_ON(!cpu_present(cpu)) fired: cpudl_set/cpudl_clear "
                    + "was called for cpu " + value + ", not a present CPU (0.." + (n - 1) + ")";
            case WARN_FIND_BEST_CPU -> "kernel/sched/cpudeadline.c:151 (v6.12) WARN_ON(best_cpu != -1 && !cpu_present(best_cpu)): the "
                    + "heap root elements[0].cpu = " + value + " that cpudl_find reads as best_cpu is not a present CPU (0.." + (n - 1) + ")";
            case SIZE -> "cp->size = " + value + " is outside 0.." + n + " (nr_cpu_ids: the number of heap entries)";
            case SLOT_CPU -> "elements[" + arg + "].cpu = " + value + " (slot " + arg + " < size) is not a CPU id 0.." + (n - 1);
            case IDX -> "elements[" + arg + "].idx = " + value + " is neither IDX_INVALID (-1) nor a heap slot 0.." + (n - 1);
            case BOUNDS -> "the call accessed elements[] outside 0.." + (n - 1) + " (an out-of-bounds access in the kernel"
                    + (value != Long.MIN_VALUE ? ": index " + value : "") + ")";
            case WORK -> "the call did not finish within its O(log n) work bound (" + (arg == 0 ? "element accesses" : "element stores")
                    + " > " + value + "): a heapify loop that does not end";
            case RACE -> "a cpudl_find racing with this call (task #" + value + ", reading free_cpus, elements[0].cpu and "
                    + "elements[0].dl at points of the call's stores) offers cpu " + arg + ", which the task could use neither before nor "
                    + "after the call (not allowed, or neither free nor in the heap)";
            default -> "no fault";
        };
    }

    /**
     * Thrown (by the layout's encoding, or the step runner) when a call leaves a state the kernel
     * would flag; the step then leads to the fault state.
     */
    static final class Flagged extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int code;
        final int arg;
        final long value;

        Flagged(int code, int arg, long value) {
            super(null, null, false, false);
            this.code = code;
            this.arg = arg;
            this.value = value;
        }
    }

    /**
     * Thrown by {@link Cpudl} when a call exceeds its access budget (set by the step runner): a
     * heapify loop that would never end in the kernel.
     */
    public static final class Runaway extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final long budget;

        Runaway(long budget) {
            super(null, null, false, false);
            this.budget = budget;
        }

        /** The element accesses the call was allowed. */
        public long budget() {
            return budget;
        }
    }

    /**
     * For code that is not a Java port (a kernel tree's compiled C): a call that wrote or read
     * outside {@code elements[]}, or crashed doing so: the sanity-bounds fault.
     */
    public static RuntimeException outOfBounds(long value) {
        return new Flagged(BOUNDS, 0, value);
    }

    /** For code that is not a Java port: a call that did not return (the bounded-work fault). */
    public static RuntimeException runaway(long budget) {
        return new Runaway(budget);
    }
}
