package kcheck.model.lbredo;

/**
 * The machine {@code load_balance()} runs on, as far as the redo path sees it: the scheduling
 * domain of the balancing CPU (its span, its groups, {@code cpu_active_mask}), one {@link Rq} per
 * CPU, and the tasks with their affinity masks ({@code p->cpus_ptr}). Reference code calls the
 * methods here under their kernel names in Java form.
 *
 * <p>Two things are not kernel code and are said so where they are used:
 * <ul>
 * <li>{@link #updateSdLbStats}: the group statistics pass of {@code find_busiest_group()} is
 * abstracted to a choice, made by whoever drives the code (the model checker or a random test),
 * among the CPUs that could be the busiest queue (see docs/models/lb-redo.md for why this is
 * sound for the redo properties);</li>
 * <li>monitors: {@code schedstat_inc()} of the per-task migration statistics, {@code set_task_cpu()}
 * and each statistics pass are recorded, so properties can say which tasks of busiest
 * {@code can_migrate_task()} examined in this pass and what each pass cost.</li>
 * </ul>
 * Up to 64 CPUs (cpumasks are {@code long}s).
 */
public final class Sched {
    /* per-task statistics can_migrate_task() increments (struct sched_statistics) */
    public static final int NR_FAILED_MIGRATIONS_AFFINE = 0;
    public static final int NR_FAILED_MIGRATIONS_RUNNING = 1;
    public static final int NR_FAILED_MIGRATIONS_HOT = 2;
    public static final int NR_FORCED_MIGRATIONS = 3;

    public final int nrCpus;
    private final long span;
    private long active;
    private final int[] groupOf;
    private final long[] groupSpan;
    private final Rq[] rqs;
    private final long[] cpusPtr;
    private final int[] taskCpu;
    private final String[] taskName;

    /* the choice update_sd_lb_stats() makes, and what it saw */
    int choice;
    int eligibleCount = -1;
    int busiestOfPass = -1;

    /* monitors */
    int passes;
    long statWork;
    boolean examined;
    boolean allAffine;
    int migrated;

    /**
     * A machine of {@code nrCpus} CPUs in groups {@code groupOf[cpu]} (0..k-1), with
     * {@code nrTasks} task slots; runqueues start empty.
     */
    public Sched(int nrCpus, int[] groupOf, long active, int nrTasks) {
        if (nrCpus < 1 || nrCpus > 64) {
            throw new IllegalArgumentException("cpus " + nrCpus);
        }
        this.nrCpus = nrCpus;
        this.span = nrCpus == 64 ? -1L : (1L << nrCpus) - 1;
        this.active = active & span;
        this.groupOf = groupOf.clone();
        int groups = 0;
        for (int g : groupOf) {
            groups = Math.max(groups, g + 1);
        }
        this.groupSpan = new long[groups];
        for (int c = 0; c < nrCpus; c++) {
            groupSpan[groupOf[c]] |= 1L << c;
        }
        this.rqs = new Rq[nrCpus];
        for (int c = 0; c < nrCpus; c++) {
            rqs[c] = new Rq(c, nrTasks);
        }
        this.cpusPtr = new long[nrTasks];
        this.taskCpu = new int[nrTasks];
        this.taskName = new String[nrTasks];
        for (int p = 0; p < nrTasks; p++) {
            taskName[p] = "t" + p;
        }
    }

    /* ---- what reference code calls ---- */

    /** {@code cpu_rq(cpu)}. */
    public Rq cpuRq(int cpu) {
        return rqs[cpu];
    }

    /** {@code sched_domain_span(sd)}. */
    public long schedDomainSpan() {
        return span;
    }

    /** {@code cpu_active_mask}. */
    public long cpuActiveMask() {
        return active;
    }

    /** {@code sched_group_span(sd->groups)}: the group of {@code cpu} (for {@code sd->groups}, the balancing CPU). */
    public long schedGroupSpanOf(int cpu) {
        return groupSpan[groupOf[cpu]];
    }

    /** {@code sched_group_span(group)}. */
    public long schedGroupSpan(int group) {
        return groupSpan[group];
    }

    /** The group {@code cpu} belongs to in this domain. */
    public int groupOf(int cpu) {
        return groupOf[cpu];
    }

    /** {@code idle_cpu(cpu)}: nothing runs there. */
    public boolean idleCpu(int cpu) {
        return rqs[cpu].nrRunning == 0;
    }

    /** {@code p->cpus_ptr}. */
    public long cpusPtr(int p) {
        return cpusPtr[p];
    }

    /** {@code task_cpu(p)}. */
    public int taskCpu(int p) {
        return taskCpu[p];
    }

    /** {@code task_running(rq, p)}: p is {@code rq->curr}. */
    public boolean taskRunning(Rq rq, int p) {
        return rq.curr == p;
    }

    /** {@code rq_lock_irqsave(rq, &rf)}. */
    public void rqLock(Rq rq) {
        if (rq.locked) {
            throw new IllegalStateException("rq " + rq.cpu + " locked twice");
        }
        rq.locked = true;
    }

    /** {@code rq_unlock(rq, &rf)}. */
    public void rqUnlock(Rq rq) {
        lockdepAssertHeld(rq);
        rq.locked = false;
    }

    /** {@code lockdep_assert_held(&rq->lock)}. */
    public void lockdepAssertHeld(Rq rq) {
        if (!rq.locked) {
            throw new IllegalStateException("rq " + rq.cpu + " lock not held");
        }
    }

    /** {@code deactivate_task(rq, p, DEQUEUE_NOCLOCK)}: off {@code cfs_tasks}, {@code nr_running--}. */
    public void deactivateTask(Rq rq, int p) {
        lockdepAssertHeld(rq);
        rq.listDel(p);
        rq.nrRunning--;
    }

    /** {@code activate_task(rq, p, ENQUEUE_NOCLOCK)}: onto the head of {@code cfs_tasks}, {@code nr_running++}. */
    public void activateTask(Rq rq, int p) {
        lockdepAssertHeld(rq);
        rq.listAdd(p);
        rq.nrRunning++;
    }

    /** {@code set_task_cpu(p, cpu)}: p migrates (counted as a task of busiest examined and not pinned away). */
    public void setTaskCpu(int p, int cpu) {
        taskCpu[p] = cpu;
        examined = true;
        allAffine = false;
        migrated++;
    }

    /**
     * {@code schedstat_inc(p->se.statistics.<stat>)}: the outcome of {@code can_migrate_task()}
     * for p. {@link #NR_FAILED_MIGRATIONS_AFFINE} means p's affinity excludes {@code dst_cpu}.
     */
    public void schedstatInc(int p, int stat) {
        if (stat == NR_FORCED_MIGRATIONS) {
            return;
        }
        examined = true;
        if (stat != NR_FAILED_MIGRATIONS_AFFINE) {
            allAffine = false;
        }
    }

    /**
     * {@code update_sd_lb_stats()} and the decision of {@code find_busiest_group()} and
     * {@code find_busiest_queue()}, abstracted: one statistics pass over every CPU of the domain
     * still in {@code env->cpus} (counted: it is the O(CPUs) cost of a redo), then a choice among
     * the CPUs that may be the busiest queue: in {@code env->cpus}, outside the local group, with
     * {@code nr_running >= 2}. Returns the chosen CPU, or -1 if there is none (balanced).
     */
    public int updateSdLbStats(LbEnv env) {
        if (eligibleCount >= 0) {
            throw new IllegalStateException("two statistics passes without the balancing CPU yielding: "
                    + "load_balance must let other CPUs run after find_busiest_queue");
        }
        long scanned = span & env.cpus;
        passes++;
        statWork += Long.bitCount(scanned);
        examined = false;
        allAffine = true;
        long candidates = scanned & ~groupSpan[groupOf[env.dstCpu]];
        int count = 0;
        for (long m = candidates; m != 0; m &= m - 1) {
            if (rqs[Long.numberOfTrailingZeros(m)].nrRunning >= 2) {
                count++;
            }
        }
        eligibleCount = count;
        busiestOfPass = -1;
        if (count == 0) {
            return -1;
        }
        int want = Math.min(choice, count - 1);
        for (long m = candidates; m != 0; m &= m - 1) {
            int c = Long.numberOfTrailingZeros(m);
            if (rqs[c].nrRunning >= 2 && want-- == 0) {
                busiestOfPass = c;
                return c;
            }
        }
        throw new AssertionError();
    }

    /** The CPU the last statistics pass settled on ({@code find_busiest_queue()} returns it). */
    public int busiestOfPass() {
        return busiestOfPass;
    }

    /* ---- set-up and inspection, for drivers (the model, tests) ---- */

    /** Sets task p's affinity and home CPU. */
    public void setTask(int p, long cpusPtr, int cpu, String name) {
        this.cpusPtr[p] = cpusPtr;
        this.taskCpu[p] = cpu;
        this.taskName[p] = name;
    }

    /** Sets task p's affinity. */
    public void setCpusPtr(int p, long mask) {
        cpusPtr[p] = mask;
    }

    public void setCpuActiveMask(long mask) {
        active = mask & span;
    }

    /** Appends task p at the tail of {@code cpu}'s runqueue (build runqueues head first). */
    public void enqueueTail(int cpu, int p) {
        rqs[cpu].append(p);
        taskCpu[p] = cpu;
    }

    /** Makes p the running task of {@code cpu}. */
    public void setCurr(int cpu, int p) {
        rqs[cpu].curr = p;
    }

    /** Empties every runqueue. */
    public void resetRqs() {
        for (Rq r : rqs) {
            r.reset();
        }
    }

    /** Resets the monitors and the statistics-pass choice for the next step. */
    public void resetStep(int choice) {
        this.choice = choice;
        this.eligibleCount = -1;
        this.busiestOfPass = -1;
    }

    /** Number of busiest candidates the statistics pass of the last step saw (-1: no pass). */
    public int eligibleCount() {
        return eligibleCount;
    }

    public String taskName(int p) {
        return taskName[p];
    }

    public int nrTasks() {
        return cpusPtr.length;
    }

    /** Monitor: statistics passes so far. */
    public int passes() {
        return passes;
    }

    /** Monitor: per-CPU statistics updates so far (CPUs scanned, summed over passes). */
    public long statWork() {
        return statWork;
    }

    /** Monitor: a task of busiest was examined by {@code can_migrate_task()} in this pass. */
    public boolean examined() {
        return examined;
    }

    /** Monitor: every task examined in this pass was refused because its affinity excludes {@code dst_cpu}. */
    public boolean allAffine() {
        return allAffine;
    }

    /** Monitor: tasks migrated by {@code detach_tasks()} so far. */
    public int migrated() {
        return migrated;
    }

    /** Sets the monitors (drivers restore them from a packed state). */
    public void setMonitors(int passes, long statWork, boolean examined, boolean allAffine) {
        this.passes = passes;
        this.statWork = statWork;
        this.examined = examined;
        this.allAffine = allAffine;
        this.migrated = 0;
    }
}
