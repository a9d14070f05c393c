package kcheck.model.cpudl;

/**
 * The variant contract of the cpudl model: one version of the SCHED_DEADLINE CPU heap
 * (kernel/sched/cpudeadline.c). Each call is one whole operation under {@code cp->lock}; the
 * model runs it on a {@link Cpudl} holding the real u64 deadlines.
 *
 * <p>{@link #set} is {@code cpudl_set(cp, cpu, dl)} (v4.9) or {@code cpudl_set(cp, cpu, dl, 1)}
 * (v4.8); {@link #clear} is {@code cpudl_clear(cp, cpu)} (v4.9) or
 * {@code cpudl_set(cp, cpu, 0, 0)} (v4.8). {@link #find} is {@code cpudl_find()}, the same code
 * in every version modelled here.
 *
 * <p>To check your own patch: {@code kcheck variant new cpudl NAME} writes a copy of
 * {@link CpudlV49} to edit, and {@code kcheck check cpudl --variant-file NAME.java} checks it
 * (in Java: {@link CpudlFactory#create(String, CpudlHeap, kcheck.model.Params, java.util.Set)}).
 */
public interface CpudlHeap {

    /** Records that {@code cpu} now runs a deadline task whose earliest deadline is {@code dl}. */
    void set(Cpudl cp, int cpu, long dl);

    /** Records that {@code cpu} no longer runs a deadline task. */
    void clear(Cpudl cp, int cpu);

    /**
     * {@code cpudl_find(cp, p, later_mask)} for a task with absolute deadline {@code deadline}
     * allowed on {@code allowed}; {@code laterMask} is the caller's scratch mask (filled as in
     * the kernel). Returns the chosen CPU or -1.
     */
    default int find(Cpudl cp, long deadline, Cpumask allowed, Cpumask laterMask) {
        return CpudlFind.cpudlFind(cp, deadline, allowed, laterMask);
    }

    /** The kernel version (or posting) this implementation follows, e.g. {@code v4.9}. */
    String version();
}
