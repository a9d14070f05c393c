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
 * The balancing CPU may have more than one domain level ({@link SchedDomain}, lowest first); the
 * reference code sees the level of the current call ({@link #setLevel}) and its parent.
 * Up to 64 CPUs (cpumasks are {@code long}s).
 */
public final class Sched {
    /* per-task statistics can_migrate_task() increments (struct sched_statistics) */
    public static final int NR_FAILED_MIGRATIONS_AFFINE = 0;
    public static final int NR_FAILED_MIGRATIONS_RUNNING = 1;
    public static final int NR_FAILED_MIGRATIONS_HOT = 2;
    public static final int NR_FORCED_MIGRATIONS = 3;

    /**
     * One {@code struct sched_domain} of the balancing CPU: its span, its groups (the group of each
     * CPU of the span, -1 outside), each group's span and balance mask ({@code group_balance_mask()},
     * equal to the span for the non-overlapping groups modelled here), and whether its CPUs share
     * capacity ({@code SD_SHARE_CPUCAPACITY}: an SMT domain).
     */
    public record SchedDomain(String name, long span, int[] groupOf, long[] groupSpan, long[] groupBalanceMask,
                              boolean shareCpuCapacity) {

        /** A domain over {@code span} with groups {@code groupOf[cpu]} (0..k-1, -1 outside the span). */
        public static SchedDomain of(String name, long span, int[] groupOf, boolean shareCpuCapacity) {
            int groups = 0;
            for (int g : groupOf) {
                groups = Math.max(groups, g + 1);
            }
            long[] gs = new long[groups];
            for (int c = 0; c < groupOf.length; c++) {
                if (groupOf[c] >= 0) {
                    gs[groupOf[c]] |= 1L << c;
                }
            }
            return new SchedDomain(name, span, groupOf.clone(), gs, gs.clone(), shareCpuCapacity);
        }
    }

    public final int nrCpus;
    private final long possible;
    private long active;
    private final SchedDomain[] domains;
    /** The domain the current call balances ({@code sd}); {@code domains[level + 1]} is {@code sd->parent}. */
    private int level;
    /** {@code sd->groups->sgc->imbalance} of each level's local group. */
    private final boolean[] groupImbalance;
    private final Rq[] rqs;
    private final long[] cpusPtr;
    private final int[] taskCpu;
    private final String[] taskName;
    /** Per task: task_hot() is true for it in this call (the environment's choice, {@code hot=some}). */
    private final boolean[] hot;
    private final long[] smtMask;
    /** {@code sysctl_sched_nr_migrate} (debugfs {@code sched/nr_migrate}), default 32. */
    private int sysctlSchedNrMigrate = LbEnv.SYSCTL_SCHED_NR_MIGRATE;
    /** {@code SCHED_NR_MIGRATE_BREAK} (v6.x): 32, or 8 with {@code CONFIG_PREEMPT_RT}. */
    private int schedNrMigrateBreak = LbEnv.SCHED_NR_MIGRATE_BREAK;

    /* the choice update_sd_lb_stats() makes, and what it saw */
    int choice;
    int eligibleCount = -1;
    /** calculate_imbalance() may also compute 0 (the environment's choice): every busiest candidate twice. */
    private boolean zeroImbalance;
    /** The imbalance the last pass's calculate_imbalance() computed, in tasks (1, or 0 when chosen). */
    private int imbalanceOfPass = 1;
    int busiestOfPass = -1;

    /* monitors */
    int passes;
    long statWork;
    boolean examined;
    boolean allAffine;
    int migrated;
    /** Tasks examined by can_migrate_task() since {@link #resetStep}. */
    int examinedInStep;
    /** CPUs set_task_cpu() moved tasks to since {@link #resetStep}. */
    long migratedTo;
    boolean imbalanceSetInStep;

    /**
     * Where the operations the reference code performs go, one text each, for {@code kcheck conform lb-redo}
     * ({@link LbRedoPaths}): the calls the kernel makes into the rest of the scheduler (idle_cpu, rq_lock,
     * deactivate_task, set_task_cpu, schedstat_inc, the busiest search, ...). Null: not recorded (the model).
     */
    private java.util.function.Consumer<String> ops;

    /**
     * A machine of {@code nrCpus} CPUs in one domain spanning them all, in groups
     * {@code groupOf[cpu]} (0..k-1), with {@code nrTasks} task slots; runqueues start empty.
     */
    public Sched(int nrCpus, int[] groupOf, long active, int nrTasks) {
        this(nrCpus, new SchedDomain[] {SchedDomain.of("domain", nrCpus == 64 ? -1L : (1L << nrCpus) - 1, groupOf, false)},
                active, nrTasks);
    }

    /**
     * A machine of {@code nrCpus} CPUs whose balancing CPU has the domains {@code domains}, lowest
     * first ({@code for_each_domain()} order: each is the parent of the one before), with
     * {@code nrTasks} task slots; runqueues start empty, the current domain is the lowest.
     */
    public Sched(int nrCpus, SchedDomain[] domains, long active, int nrTasks) {
        if (nrCpus < 1 || nrCpus > 64) {
            throw new IllegalArgumentException("cpus " + nrCpus);
        }
        this.nrCpus = nrCpus;
        this.possible = nrCpus == 64 ? -1L : (1L << nrCpus) - 1;
        this.active = active & possible;
        this.domains = domains.clone();
        this.groupImbalance = new boolean[domains.length];
        this.rqs = new Rq[nrCpus];
        for (int c = 0; c < nrCpus; c++) {
            rqs[c] = new Rq(c, nrTasks);
        }
        this.cpusPtr = new long[nrTasks];
        this.taskCpu = new int[nrTasks];
        this.taskName = new String[nrTasks];
        this.hot = new boolean[nrTasks];
        for (int p = 0; p < nrTasks; p++) {
            taskName[p] = "t" + p;
        }
        this.smtMask = new long[nrCpus];
        for (int c = 0; c < nrCpus; c++) {
            smtMask[c] = 1L << c;
        }
    }

    /** Records the operations of the reference code into {@code sink} (null: stop recording). */
    public void recordOps(java.util.function.Consumer<String> sink) {
        ops = sink;
    }

    /** Callers test {@code ops != null} first, so that the model's search builds no text. */
    private void op(String text) {
        ops.accept(text);
    }

    /** The task's name in recorded operations: {@code t} and its slot. */
    static String opTask(int p) {
        return "t" + p;
    }

    /* ---- what reference code calls ---- */

    /** {@code cpu_rq(cpu)}. */
    public Rq cpuRq(int cpu) {
        return rqs[cpu];
    }

    /**
     * {@code WARN_ON_ONCE(cond)} (or {@code BUG_ON(cond)}) of the ported code: a true condition is a
     * violation of {@code check}'s property and ends the step.
     */
    public void warnOnOnce(boolean cond, LbCheck check) {
        if (cond) {
            throw new LbCheck.Failed(check, check.description);
        }
    }

    /** {@code sched_domain_span(sd)}. */
    public long schedDomainSpan() {
        return domains[level].span();
    }

    /** {@code sd->parent != NULL}. */
    public boolean sdParent() {
        return level + 1 < domains.length;
    }

    /** {@code sd_parent->groups->sgc->imbalance}: the parent level's imbalance flag for our group. */
    public boolean sdParentGroupImbalance() {
        return sdParent() && groupImbalance[level + 1];
    }

    /** Sets {@code sd_parent->groups->sgc->imbalance} (only with a parent domain). */
    public void setSdParentGroupImbalance(boolean v) {
        if (!sdParent()) {
            throw new LbCheck.Failed(LbCheck.SD_PARENT_NULL, "sd->parent is NULL at the top domain");
        }
        groupImbalance[level + 1] = v;
        imbalanceSetInStep |= v;
    }

    /** Monitor: {@code sd_parent->groups->sgc->imbalance} was set to 1 since {@link #resetStep}. */
    public boolean imbalanceSetInStep() {
        return imbalanceSetInStep;
    }

    /** {@code sd->flags & SD_SHARE_CPUCAPACITY}: the current domain is an SMT domain. */
    public boolean sdShareCpuCapacity() {
        return domains[level].shareCpuCapacity();
    }

    /** {@code cpu_smt_mask(cpu)}: the CPU's SMT siblings (itself alone on a machine without SMT). */
    public long cpuSmtMask(int cpu) {
        return smtMask[cpu];
    }

    /** {@code is_core_idle(cpu)}: every SMT sibling of {@code cpu} is idle. */
    public boolean isCoreIdle(int cpu) {
        for (long m = cpuSmtMask(cpu); m != 0; m &= m - 1) {
            int sibling = Long.numberOfTrailingZeros(m);
            if (sibling != cpu && !idleCpu(sibling)) {
                return false;
            }
        }
        return true;
    }

    /** {@code sysctl_sched_nr_migrate}. */
    public int sysctlSchedNrMigrate() {
        return sysctlSchedNrMigrate;
    }

    /** {@code SCHED_NR_MIGRATE_BREAK} (v6.x; v5.x has {@code sched_nr_migrate_break = 32}). */
    public int schedNrMigrateBreak() {
        return schedNrMigrateBreak;
    }

    /** {@code cpu_active_mask}. */
    public long cpuActiveMask() {
        return active;
    }

    /** {@code sched_group_span(sd->groups)}: the group of {@code cpu} (for {@code sd->groups}, the balancing CPU). */
    public long schedGroupSpanOf(int cpu) {
        SchedDomain sd = domains[level];
        return sd.groupSpan()[sd.groupOf()[cpu]];
    }

    /** {@code group_balance_mask(sd->groups)}: the balance mask of {@code cpu}'s group. */
    public long groupBalanceMaskOf(int cpu) {
        SchedDomain sd = domains[level];
        return sd.groupBalanceMask()[sd.groupOf()[cpu]];
    }

    /**
     * The CPUs whose group (in {@code groupOf}) is {@code cpu}'s: the groups {@code find_busiest_group}
     * compares. Equal to the span unless groups overlap ({@code topology=overlap}), where a span also
     * holds CPUs of another group.
     */
    public long groupMembersOf(int cpu) {
        SchedDomain sd = domains[level];
        int g = sd.groupOf()[cpu];
        long m = 0;
        for (int c = 0; c < sd.groupOf().length; c++) {
            if (sd.groupOf()[c] == g) {
                m |= 1L << c;
            }
        }
        return m;
    }

    /** {@code sched_group_span(group)}. */
    public long schedGroupSpan(int group) {
        return domains[level].groupSpan()[group];
    }

    /** The group {@code cpu} belongs to in this domain (-1 outside its span). */
    public int groupOf(int cpu) {
        return domains[level].groupOf()[cpu];
    }

    /** {@code idle_cpu(cpu)}: nothing runs there. */
    public boolean idleCpu(int cpu) {
        if (ops != null) {
            op("idle_cpu " + cpu);
        }
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

    /**
     * {@code migrate_degrades_locality(p, env)} then {@code task_hot(p, env)}, with
     * {@code env->sd->nr_balance_failed > env->sd->cache_nice_tries} folded in: 1 when the task
     * counts as cache-hot for this call, 0 when cold. The environment chooses per task at the start
     * of the call ({@code hot=some}): sysctl_sched_migration_cost against the time since the task ran,
     * the buddy and core-cookie rules and the failure counter are all outside the mechanism. SMT
     * siblings share their cache ({@code SD_SHARE_CPUCAPACITY}: never hot, kernel/sched/fair.c:9382).
     */
    public int taskHot(int p) {
        if (ops != null) {
            op("task_hot " + opTask(p));
        }
        if (sdShareCpuCapacity()) {
            return 0;
        }
        return hot[p] ? 1 : 0;
    }

    /** {@code task_running(rq, p)}: p is {@code rq->curr}. */
    public boolean taskRunning(Rq rq, int p) {
        if (ops != null) {
            op("task_on_cpu " + opTask(p));
        }
        return rq.curr == p;
    }

    /** {@code rq_lock_irqsave(rq, &rf)}. */
    public void rqLock(Rq rq) {
        if (ops != null) {
            op("rq_lock " + rq.cpu);
        }
        if (rq.locked) {
            throw new LbCheck.Failed(LbCheck.WARN_RQ_LOCK_RECURSION, "rq " + rq.cpu + " locked twice");
        }
        rq.locked = true;
    }

    /** {@code rq_unlock(rq, &rf)}. */
    public void rqUnlock(Rq rq) {
        lockdepAssertHeld(rq);
        if (ops != null) {
            op("rq_unlock " + rq.cpu);
        }
        rq.locked = false;
    }

    /** {@code lockdep_assert_held(&rq->lock)}. */
    public void lockdepAssertHeld(Rq rq) {
        if (!rq.locked) {
            throw new LbCheck.Failed(LbCheck.WARN_RQ_HELD, "rq " + rq.cpu + " lock not held");
        }
    }

    /** {@code deactivate_task(rq, p, DEQUEUE_NOCLOCK)}: off {@code cfs_tasks}, {@code nr_running--}. */
    public void deactivateTask(Rq rq, int p) {
        lockdepAssertHeld(rq);
        if (ops != null) {
            op("deactivate_task " + rq.cpu + " " + opTask(p));
        }
        rq.listDel(p);
        rq.nrRunning--;
    }

    /** {@code activate_task(rq, p, ENQUEUE_NOCLOCK)}: onto the head of {@code cfs_tasks}, {@code nr_running++}. */
    public void activateTask(Rq rq, int p) {
        lockdepAssertHeld(rq);
        if (ops != null) {
            op("activate_task " + rq.cpu + " " + opTask(p));
        }
        rq.listAdd(p);
        rq.nrRunning++;
    }

    /** {@code set_task_cpu(p, cpu)}: p migrates (counted as a task of busiest examined and not pinned away). */
    public void setTaskCpu(int p, int cpu) {
        if (ops != null) {
            op("set_task_cpu " + opTask(p) + " " + cpu);
        }
        if (taskCpu[p] == cpu) {
            throw new LbCheck.Failed(LbCheck.NO_SELF_MIGRATION, taskName[p] + " migrated to its own CPU " + cpu);
        }
        taskCpu[p] = cpu;
        examined = true;
        allAffine = false;
        migrated++;
        examinedInStep++;
        migratedTo |= 1L << cpu;
    }

    /**
     * {@code schedstat_inc(p->se.statistics.<stat>)}: the outcome of {@code can_migrate_task()}
     * for p. {@link #NR_FAILED_MIGRATIONS_AFFINE} means p's affinity excludes {@code dst_cpu}.
     */
    public void schedstatInc(int p, int stat) {
        if (ops != null) {
            op("schedstat " + opTask(p) + " " + switch (stat) {
                case NR_FAILED_MIGRATIONS_AFFINE -> "nr_failed_migrations_affine";
                case NR_FAILED_MIGRATIONS_RUNNING -> "nr_failed_migrations_running";
                case NR_FAILED_MIGRATIONS_HOT -> "nr_failed_migrations_hot";
                default -> "nr_forced_migrations";
            });
        }
        if (stat == NR_FORCED_MIGRATIONS) {
            return;
        }
        examined = true;
        examinedInStep++;
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
        if (ops != null) {
            op(String.format(java.util.Locale.ROOT, "find_src_group dst=%d cpus=%x idle=%s flags=%x", env.dstCpu, env.cpus,
                    LbRedoPaths.idleLetter(env.idle), env.flags));
        }
        long scanned = schedDomainSpan() & env.cpus;
        passes++;
        statWork += Long.bitCount(scanned);
        examined = false;
        allAffine = true;
        /* the local group is sd->groups, the group dst_cpu balances for: its members by group, not its span (NUMA groups overlap) */
        long candidates = scanned & ~groupMembersOf(env.dstCpu);
        int count = 0;
        for (long m = candidates; m != 0; m &= m - 1) {
            if (rqs[Long.numberOfTrailingZeros(m)].nrRunning >= 2) {
                count++;
            }
        }
        int choices = zeroImbalance ? 2 : 1;
        eligibleCount = count * choices;
        busiestOfPass = -1;
        if (count == 0) {
            return -1;
        }
        imbalanceOfPass = choice % choices == 1 ? 0 : 1;
        int want = Math.min(choice / choices, count - 1);
        for (long m = candidates; m != 0; m &= m - 1) {
            int c = Long.numberOfTrailingZeros(m);
            if (rqs[c].nrRunning >= 2 && want-- == 0) {
                busiestOfPass = c;
                return c;
            }
        }
        throw new AssertionError();
    }

    /**
     * {@code calculate_imbalance()}, abstracted to {@code migrate_task}: one task, or (with
     * {@code zero-imbalance=on}, the environment's choice) none, as when half of the idle-CPU
     * difference rounds down to 0.
     */
    public int calculateImbalance() {
        return imbalanceOfPass;
    }

    /** Lets calculate_imbalance() compute 0 as well as 1. */
    public void setZeroImbalance(boolean on) {
        zeroImbalance = on;
    }

    /** The CPU the last statistics pass settled on ({@code find_busiest_queue()} returns it). */
    public int busiestOfPass() {
        if (ops != null) {
            op("find_src_rq");
        }
        return busiestOfPass;
    }

    /* ---- set-up and inspection, for drivers (the model, tests) ---- */

    /** Sets task p's affinity and home CPU. */
    public void setTask(int p, long cpusPtr, int cpu, String name) {
        this.cpusPtr[p] = cpusPtr;
        this.taskCpu[p] = cpu;
        this.taskName[p] = name;
    }

    /** Sets whether task_hot() finds task p cache-hot in this call. */
    public void setTaskHot(int p, boolean h) {
        hot[p] = h;
    }

    /** Whether the environment made task p cache-hot for this call (before the SMT-domain rule of {@link #taskHot}). */
    boolean hotForConform(int p) {
        return hot[p];
    }

    /** Sets task p's affinity. */
    public void setCpusPtr(int p, long mask) {
        cpusPtr[p] = mask;
    }

    public void setCpuActiveMask(long mask) {
        active = mask & possible;
    }

    /** Makes domain {@code level} (0 = lowest) the one the next call balances. */
    public void setLevel(int level) {
        if (level < 0 || level >= domains.length) {
            throw new IllegalArgumentException("level " + level);
        }
        this.level = level;
    }

    public int level() {
        return level;
    }

    public int levels() {
        return domains.length;
    }

    public SchedDomain domain(int level) {
        return domains[level];
    }

    /** Makes the CPUs of {@code core} SMT siblings of each other ({@code cpu_smt_mask()}). */
    public void setSmtCore(long core) {
        for (long m = core; m != 0; m &= m - 1) {
            smtMask[Long.numberOfTrailingZeros(m)] = core;
        }
    }

    /** Sets {@code sd->groups->sgc->imbalance} of level {@code level}'s local group. */
    public void setGroupImbalance(int level, boolean v) {
        groupImbalance[level] = v;
    }

    public boolean groupImbalance(int level) {
        return groupImbalance[level];
    }

    /** Sets {@code sysctl_sched_nr_migrate} and {@code SCHED_NR_MIGRATE_BREAK}. */
    public void setNrMigrate(int sysctlSchedNrMigrate, int schedNrMigrateBreak) {
        this.sysctlSchedNrMigrate = sysctlSchedNrMigrate;
        this.schedNrMigrateBreak = schedNrMigrateBreak;
    }

    /** Sets the number of tasks on {@code cpu} the model does not name (see {@link Rq#extra}). */
    public void setUnnamedTasks(int cpu, int n) {
        rqs[cpu].setExtra(n);
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

    /**
     * Another CPU takes the non-running task p off {@code cpu}'s runqueue (the environment's pull, under that
     * runqueue's lock, between two pieces of the balancing CPU's call).
     */
    public void pullAway(int cpu, int p) {
        rqs[cpu].listDel(p);
        rqs[cpu].nrRunning--;
    }

    /** Empties every runqueue. */
    public void resetRqs() {
        for (Rq r : rqs) {
            r.reset();
        }
        java.util.Arrays.fill(groupImbalance, false);
    }

    /** Resets the monitors and the statistics-pass choice for the next step. */
    public void resetStep(int choice) {
        this.choice = choice;
        this.eligibleCount = -1;
        this.busiestOfPass = -1;
        this.examinedInStep = 0;
        this.migratedTo = 0;
        this.imbalanceSetInStep = false;
    }

    /** Monitor: tasks can_migrate_task() examined in this step. */
    public int examinedInStep() {
        return examinedInStep;
    }

    /** Monitor: CPUs tasks were migrated to in this step. */
    public long migratedTo() {
        return migratedTo;
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
