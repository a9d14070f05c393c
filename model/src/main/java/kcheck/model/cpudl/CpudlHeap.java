package kcheck.model.cpudl;

/**
 * The variant contract of the cpudl model: one version of the SCHED_DEADLINE CPU heap
 * (kernel/sched/cpudeadline.c) and of the hotplug paths that call it (kernel/sched/deadline.c
 * {@code rq_online_dl}/{@code rq_offline_dl}). Each call is one whole operation under
 * {@code cp->lock}; the model runs it on a {@link Cpudl} holding the real u64 deadlines.
 *
 * <p>{@link #set} is {@code cpudl_set(cp, cpu, dl)} (v4.9 on) or {@code cpudl_set(cp, cpu, dl, 1)}
 * (v4.8); {@link #clear(Cpudl, int, boolean)} is {@code cpudl_clear(cp, cpu, online)} (mainline after
 * v6.18 with fix 382748c05e58, and the 6.1.y/6.12.y stable trees), {@code cpudl_clear(cp, cpu)} (v4.9 on) or
 * {@code cpudl_set(cp, cpu, 0, 0)} (v4.8). {@link #find(Cpudl, DlTask, Cpumask)} is
 * {@code cpudl_find()}: up to v4.x it returns the chosen CPU or -1 ({@link #findReturnsCpu()}
 * true); from v4.15 it returns 1 or 0 and leaves the candidates in {@code later_mask}, and from
 * v5.9 it is capacity-aware.
 *
 * <p>To check your own patch: {@code kcheck variant new cpudl NAME} writes a copy of
 * {@link CpudlV49} to edit, and {@code kcheck check cpudl --variant-file NAME.java} checks it
 * (in Java: {@link CpudlFactory#create(String, CpudlHeap, kcheck.model.Params, java.util.Set)}).
 */
public interface CpudlHeap {

    /** Records that {@code cpu} now runs a deadline task whose earliest deadline is {@code dl}. */
    void set(Cpudl cp, int cpu, long dl);

    /** Records that {@code cpu} no longer runs a deadline task (its runqueue is online). */
    void clear(Cpudl cp, int cpu);

    /**
     * {@code cpudl_clear(cp, cpu, online)}: records that {@code cpu} no longer runs a deadline task,
     * on a runqueue that is {@code online} or not. Versions before the {@code online} argument
     * (default) ignore it: that is the bug fixed by 382748c05e58.
     */
    default void clear(Cpudl cp, int cpu, boolean online) {
        clear(cp, cpu);
    }

    /**
     * {@code cpudl_find(cp, p, later_mask)} for a task with absolute deadline {@code deadline}
     * allowed on {@code allowed}; {@code laterMask} is the caller's scratch mask (filled as in
     * the kernel). Returns the chosen CPU or -1 (the v4.x contract).
     */
    default int find(Cpudl cp, long deadline, Cpumask allowed, Cpumask laterMask) {
        return CpudlFind.cpudlFind(cp, deadline, allowed, laterMask);
    }

    /**
     * {@code cpudl_find(cp, p, later_mask)} on a task. By default the v4.x form on the task's
     * deadline and affinity (capacity and {@code task_cpu} unread). Returns the chosen CPU or -1
     * when {@link #findReturnsCpu()}, else 1 (found: the candidates are in {@code laterMask}) or 0.
     */
    default int find(Cpudl cp, DlTask p, Cpumask laterMask) {
        return find(cp, p.deadline, p.cpusMask, laterMask);
    }

    /**
     * True if {@link #find(Cpudl, DlTask, Cpumask)} returns a CPU (v4.14 and before), false if it
     * returns 1/0 with the candidates in {@code later_mask} (v4.15 on).
     */
    default boolean findReturnsCpu() {
        return true;
    }

    /**
     * {@code rq_online_dl(rq)}'s calls into the heap when {@code cpu}'s runqueue joins the root
     * domain ({@code dlTasks}: {@code rq->dl.dl_nr_running > 0}, {@code earliest}:
     * {@code rq->dl.earliest_dl.curr}). Default: v4.9 until fix 382748c05e58 ({@code cpudl_set_freecpu}, then
     * {@code cpudl_set} if the runqueue has deadline tasks).
     */
    default void rqOnlineDl(Cpudl cp, int cpu, boolean dlTasks, long earliest) {
        cp.setFreecpu(cpu);
        if (dlTasks) {
            set(cp, cpu, earliest);
        }
    }

    /**
     * {@code rq_offline_dl(rq)}'s calls into the heap when {@code cpu}'s runqueue leaves the root
     * domain (CPU going down, or a root-domain rebuild). Default: v4.9 until fix 382748c05e58 ({@code cpudl_clear},
     * then {@code cpudl_clear_freecpu}).
     */
    default void rqOfflineDl(Cpudl cp, int cpu) {
        clear(cp, cpu);
        cp.clearFreecpu(cpu);
    }

    /** The kernel version (or posting) this implementation follows, e.g. {@code v4.9}. */
    String version();
}
