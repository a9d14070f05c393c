package kcheck.model.lbredo;

/**
 * {@code struct lb_env} (kernel/sched/fair.c): the state one {@code load_balance()} call carries
 * across its {@code redo} and {@code more_balance} labels. Field names are the kernel's in Java
 * form. {@link #redoCnt} and {@link #redoMax} exist only in the RFC's version of the struct.
 *
 * <p>Not modelled (and so absent): {@code sd} (its statistics and balance interval),
 * {@code fbq_type} (NUMA classification).
 */
public final class LbEnv {
    /* env->flags (kernel/sched/fair.c, v5.11) */
    public static final int LBF_ALL_PINNED = 0x01;
    public static final int LBF_NEED_BREAK = 0x02;
    public static final int LBF_DST_PINNED = 0x04;
    public static final int LBF_SOME_PINNED = 0x08;
    /** v5.13 and later: set only in the {@code lb_env} of {@code active_load_balance_cpu_stop()}. */
    public static final int LBF_ACTIVE_LB = 0x10;

    /* enum cpu_idle_type (include/linux/sched/idle.h, v5.11) */
    public static final int CPU_IDLE = 0;
    public static final int CPU_NOT_IDLE = 1;
    public static final int CPU_NEWLY_IDLE = 2;

    /* enum migration_type (kernel/sched/fair.c, v5.11) */
    public static final int MIGRATE_LOAD = 0;
    public static final int MIGRATE_UTIL = 1;
    public static final int MIGRATE_TASK = 2;
    public static final int MIGRATE_MISFIT = 3;

    /** {@code static const unsigned int sched_nr_migrate_break = 32;} (v5.x; v6.x: {@code SCHED_NR_MIGRATE_BREAK}, see {@link Sched#schedNrMigrateBreak}) */
    public static final int SCHED_NR_MIGRATE_BREAK = 32;
    /** {@code sysctl_sched_nr_migrate}, default 32 (the value in use: {@link Sched#sysctlSchedNrMigrate}). */
    public static final int SYSCTL_SCHED_NR_MIGRATE = 32;

    public int srcCpu = -1;
    public int dstCpu;
    /** {@code env->dst_grpmask}: the span of the local group (the group of {@code dst_cpu}). */
    public long dstGrpmask;
    public int newDstCpu = -1;
    public int idle;
    public long imbalance;
    /** {@code env->cpus}: the CPUs still under consideration in this call. */
    public long cpus;
    public int flags;
    public int loop;
    public int loopBreak;
    public int loopMax;
    public int migrationType;
    /** {@code env->tasks}: tasks detached by {@code detach_tasks()}, waiting for {@code attach_tasks()}. */
    public final int[] tasks = new int[64];
    public int nrTasks;

    /** RFC only: {@code env->redo_cnt}. */
    public int redoCnt;
    /** RFC only: {@code env->redo_max}. */
    public int redoMax;

    /** The zero-initialised struct of a C designated initialiser: every field not named is 0. */
    public void clear() {
        srcCpu = -1;
        dstCpu = 0;
        dstGrpmask = 0;
        newDstCpu = -1;
        idle = 0;
        imbalance = 0;
        cpus = 0;
        flags = 0;
        loop = 0;
        loopBreak = 0;
        loopMax = 0;
        migrationType = MIGRATE_LOAD;
        nrTasks = 0;
        redoCnt = 0;
        redoMax = 0;
    }

    /** {@code list_add(&p->se.group_node, &env->tasks)}. */
    public void listAddTask(int p) {
        tasks[nrTasks++] = p;
    }
}
