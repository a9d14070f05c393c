package kcheck.model.lbredo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import kcheck.model.ModelInputException;

/**
 * The machine one lb-redo instance explores: the scheduling domains of the balancing CPU
 * ({@code dst_cpu} = CPU 0), lowest first, each split into groups; the idle type CPU 0 balances
 * with; the tasks on every CPU that can be the busiest queue at some level, with their affinity
 * masks; how many pulls other CPUs may make concurrently; and the kernel's migration limits
 * ({@code sysctl_sched_nr_migrate}, {@code SCHED_NR_MIGRATE_BREAK}).
 *
 * <p>Each CPU that carries tasks has one or more <em>patterns</em> (its initial runqueue: the
 * tasks' masks head first; the head task is {@code rq->curr}). The initial states are the choices
 * of one pattern per CPU. Within a symmetry class (CPUs that play the same role and whose masks
 * name no CPU of the class but their own), only sorted choices are enumerated: every other
 * choice is a renaming of one of them.
 *
 * <p>Topologies ({@code --param topology=}):
 * <ul>
 * <li>{@code flat}: one domain of {@code cpus} CPUs in {@code groups} contiguous groups;</li>
 * <li>{@code smt}: SMT pairs inside an MC domain: the MC domain's groups are the pairs (cores),
 * and CPU 0 first balances its SMT domain {0,1} ({@code SD_SHARE_CPUCAPACITY}, one group per CPU),
 * then the MC domain, as {@code for_each_domain()} walks them;</li>
 * <li>{@code cluster}: the same two-level walk with clusters: an MC domain of CPU 0's cluster
 * (one group per CPU) under a package domain whose groups are the clusters;</li>
 * <li>{@code overlap}: one NUMA-style domain whose local group's span holds a CPU of the next group;</li>
 * <li>{@code smt-llc}: three levels, SMT {0,1}, the MC domain of the LLC {0..3} (groups: its two
 * cores), the package; CPUs 1..3 start busy or idle.</li>
 * </ul>
 */
public final class LbDomain {
    public static final String RACE = "race";
    public static final String PINNED = "pinned";
    public static final String ALL = "all";

    public static final String FLAT = "flat";
    public static final String SMT = "smt";
    public static final String CLUSTER = "cluster";
    /**
     * NUMA-style overlapping groups ({@code SD_OVERLAP}): one domain whose local group's span also
     * holds the first CPU of the next group, while its {@code group_balance_mask} is its own CPUs only.
     */
    public static final String OVERLAP = "overlap";
    /**
     * Three levels with SMT inside an LLC: CPU 0's SMT pair {0,1}, the MC domain of its LLC {0..3}
     * whose groups are the cores {0,1} and {2,3}, and the package domain whose groups are that LLC
     * and the other CPUs (SMT pairs too). Each of CPUs 1..3 starts busy (its task patterns) or idle
     * (no task): the idle state of a sibling and of another core of the LLC, which
     * {@code should_we_balance()} reads through {@code idle_cpu()} and {@code is_core_idle()}.
     */
    public static final String SMT_LLC = "smt-llc";

    /** Masks: every CPU, or the task's own CPU only. */
    public static final String MASKS_OWN = "own";
    /** Masks: also "own CPU and another CPU of the balancing CPU's group", which makes {@code LBF_DST_PINNED} arise. */
    public static final String MASKS_LOCAL = "local";
    /** Masks: every mask over the machine's CPUs that contains the task's own CPU. */
    public static final String MASKS_ANY = "any";

    /** The balancing CPU. */
    public static final int DST_CPU = 0;

    /** Largest number of initial states {@code masks=any} may enumerate. */
    static final long MAX_INITIAL = 250_000;

    final int nrCpus;
    /** The balancing CPU's domains, lowest first. */
    final Sched.SchedDomain[] levels;
    /** SMT cores (each a mask of siblings), empty without an SMT level. */
    final long[] cores;
    final long active;
    final int pulls;
    /** [cpu][pattern][task]: affinity masks, head (running task) first; empty for CPUs without tasks. */
    final long[][][] patterns;
    /** [cpu][pattern]: the tasks (bit i = task i of the pattern) task_hot() finds cache-hot in this call. */
    final long[][] hot;
    /** Symmetry classes: CPUs with tasks that may be renamed into each other; each ascending. */
    final int[][] classes;
    final boolean symmetric;
    final String description;
    /** The {@code idle} argument of the first call ({@link LbEnv#CPU_NEWLY_IDLE}, ...). */
    final int idle;
    /** {@code sysctl_sched_nr_migrate}. */
    final int nrMigrate;
    /** {@code SCHED_NR_MIGRATE_BREAK} (the v6.x ports read it; v5.x has 32 built in). */
    final int migrateBreak;

    /* derived */
    final long span;
    /** The local group (the balancing CPU's group) at each level. */
    final long[] localSpans;
    /** The first level's local group. */
    final long localSpan;
    /** Per level: the CPUs that can be the busiest queue there (span and active, outside the local group), ascending. */
    final int[][] candidates;
    /** CPUs that carry modelled tasks, ascending. */
    final int[] remote;
    /** CPUs without modelled tasks (the balancing CPU and its group at the first level), ascending. */
    final int[] home;
    /** Per CPU: it carries tasks and may also receive tasks pulled to it (it is in the local group of a higher level). */
    final boolean[] receives;
    final int[] cap;
    final int[] taskBase;
    final int nrTasks;
    /** Unnamed running tasks on each CPU without modelled tasks at the start: 1 when CPU 0 balances busy. */
    final int homeLoad;
    /** calculate_imbalance() may compute 0 with a busiest group ({@code zero-imbalance=on}). */
    boolean zeroImbalance;
    /** The mask kind ({@link #MASKS_OWN}, ...), or "custom". */
    final String masks;
    /** The shape of before the topology, idle, masks and counter parameters: traces show nothing of them. */
    final boolean plain;

    private LbDomain(int nrCpus, Sched.SchedDomain[] levels, long[] cores, long active, int pulls, long[][][] patterns,
                     long[][] hot, int[][] classes, String description, int idle, int nrMigrate, int migrateBreak,
                     String masks) {
        if (nrCpus < 2 || nrCpus > 64) {
            throw new IllegalArgumentException("cpus must be 2..64, got " + nrCpus);
        }
        this.nrCpus = nrCpus;
        this.levels = levels;
        this.cores = cores;
        this.span = nrCpus == 64 ? -1L : (1L << nrCpus) - 1;
        this.active = active & span;
        this.pulls = pulls;
        this.patterns = patterns;
        this.hot = hot;
        this.classes = classes;
        this.symmetric = Arrays.stream(classes).anyMatch(c -> c.length > 1);
        this.description = description;
        this.idle = idle;
        this.nrMigrate = nrMigrate;
        this.migrateBreak = migrateBreak;
        this.localSpans = new long[levels.length];
        this.candidates = new int[levels.length][];
        for (int l = 0; l < levels.length; l++) {
            Sched.SchedDomain sd = levels[l];
            localSpans[l] = members(sd, DST_CPU);
            long cand = sd.span() & this.active & ~localSpans[l];
            candidates[l] = bits(cand);
        }
        this.localSpan = localSpans[0];
        List<Integer> r = new ArrayList<>();
        List<Integer> h = new ArrayList<>();
        cap = new int[nrCpus];
        taskBase = new int[nrCpus];
        receives = new boolean[nrCpus];
        int t = 0;
        for (int c = 0; c < nrCpus; c++) {
            taskBase[c] = t;
            for (long[] p : patterns[c]) {
                cap[c] = Math.max(cap[c], p.length);
            }
            if ((localSpan & (1L << c)) == 0) {
                r.add(c);
                for (int l = 1; l < levels.length; l++) {
                    receives[c] |= (localSpans[l] & (1L << c)) != 0;
                }
            } else {
                h.add(c);
                if (cap[c] > 0) {
                    throw new IllegalArgumentException("CPU " + c + " is in the local group: it has no modelled tasks");
                }
            }
            if (cap[c] > 8) {
                throw new IllegalArgumentException("at most 8 tasks per CPU, CPU " + c + " has " + cap[c]);
            }
            t += cap[c];
        }
        this.remote = r.stream().mapToInt(Integer::intValue).toArray();
        this.home = h.stream().mapToInt(Integer::intValue).toArray();
        this.nrTasks = t;
        this.homeLoad = idle == LbEnv.CPU_NOT_IDLE ? 1 : 0;
        this.masks = masks;
        this.plain = levels.length == 1 && idle == LbEnv.CPU_NEWLY_IDLE && !masks.equals(MASKS_LOCAL) && !masks.equals(MASKS_ANY)
                && nrMigrate == LbEnv.SYSCTL_SCHED_NR_MIGRATE && migrateBreak == LbEnv.SCHED_NR_MIGRATE_BREAK;
    }

    /** The CPUs of {@code cpu}'s group by membership ({@code groupOf}), which is its balance mask. */
    static long members(Sched.SchedDomain sd, int cpu) {
        int g = sd.groupOf()[cpu];
        long m = 0;
        for (int c = 0; c < sd.groupOf().length; c++) {
            if (sd.groupOf()[c] == g) {
                m |= 1L << c;
            }
        }
        return m;
    }

    /** CPUs that a group's span holds although they are members of another group (overlapping groups). */
    static long sharedCpus(Sched.SchedDomain sd) {
        long shared = 0;
        for (int c = 0; c < sd.groupOf().length; c++) {
            if (sd.groupOf()[c] < 0) {
                continue;
            }
            for (int g = 0; g < sd.groupSpan().length; g++) {
                if (g != sd.groupOf()[c] && (sd.groupSpan()[g] & (1L << c)) != 0) {
                    shared |= 1L << c;
                }
            }
        }
        return shared;
    }

    private static int[] bits(long mask) {
        int[] out = new int[Long.bitCount(mask)];
        int i = 0;
        for (long m = mask; m != 0; m &= m - 1) {
            out[i++] = Long.numberOfTrailingZeros(m);
        }
        return out;
    }

    /**
     * What {@code --param} describes: the topology, the task patterns and pulls, the idle type
     * and the migration limits.
     *
     * @param cpus     CPUs of the machine
     * @param groups   groups of the top domain (contiguous, near-equal)
     * @param scenario {@link #RACE}, {@link #PINNED} or {@link #ALL}
     * @param tasks    tasks per busy CPU
     * @param pulls    concurrent pulls by other CPUs
     * @param topology {@link #FLAT}, {@link #SMT}, {@link #CLUSTER}, {@link #OVERLAP} or {@link #SMT_LLC}
     * @param masks    {@link #MASKS_OWN}, {@link #MASKS_LOCAL} or {@link #MASKS_ANY}
     * @param idle     the {@code idle} argument CPU 0 balances with
     * @param nrMigrate {@code sysctl_sched_nr_migrate}
     * @param migrateBreak {@code SCHED_NR_MIGRATE_BREAK}
     */
    public record Spec(int cpus, int groups, String scenario, int tasks, int pulls, String topology, String masks,
                       int idle, int nrMigrate, int migrateBreak, boolean hot, boolean zeroImbalance) {
        /** Cache-hot tasks or not, calculate_imbalance always one task. */
        public Spec(int cpus, int groups, String scenario, int tasks, int pulls, String topology, String masks,
                    int idle, int nrMigrate, int migrateBreak, boolean hot) {
            this(cpus, groups, scenario, tasks, pulls, topology, masks, idle, nrMigrate, migrateBreak, hot, false);
        }

        /** No cache-hot task ({@code hot=none}). */
        public Spec(int cpus, int groups, String scenario, int tasks, int pulls, String topology, String masks,
                    int idle, int nrMigrate, int migrateBreak) {
            this(cpus, groups, scenario, tasks, pulls, topology, masks, idle, nrMigrate, migrateBreak, false, false);
        }

        /** Today's defaults for everything but the shape of the domain and its workload. */
        public static Spec of(int cpus, int groups, String scenario, int tasks, int pulls) {
            return new Spec(cpus, groups, scenario, tasks, pulls, FLAT, MASKS_OWN, LbEnv.CPU_NEWLY_IDLE,
                    LbEnv.SYSCTL_SCHED_NR_MIGRATE, LbEnv.SCHED_NR_MIGRATE_BREAK);
        }
    }

    /**
     * The domains of {@code --param scenario=...} with today's defaults (one flat domain, masks
     * "every CPU" or "own CPU", CPU 0 newly idle): {@code cpus} CPUs in {@code groups} contiguous
     * groups of near-equal size (the first groups one larger), CPU 0 in group 0.
     * <ul>
     * <li>{@code race}: every CPU outside the local group runs {@code tasks} tasks that may run
     * anywhere; other CPUs make up to {@code pulls} pulls concurrently;</li>
     * <li>{@code pinned}: each such CPU runs one task, or {@code tasks} tasks each with one of the
     * masks of the mask kind (every combination); no concurrent pulls;</li>
     * <li>{@code all}: the patterns of {@code pinned} with the pulls of {@code race}.</li>
     * </ul>
     */
    public static LbDomain scenario(int cpus, int groups, String scenario, int tasks, int pulls) {
        return of(Spec.of(cpus, groups, scenario, tasks, pulls));
    }

    /** The domain a full {@link Spec} describes; a bad combination is a one-line {@link ModelInputException}. */
    public static LbDomain of(Spec spec) {
        int cpus = spec.cpus();
        int groups = spec.groups();
        int[] top = contiguousGroups(cpus, groups);
        long all = cpus == 64 ? -1L : (1L << cpus) - 1;
        Sched.SchedDomain[] levels;
        long[] cores = new long[0];
        switch (spec.topology()) {
            case FLAT -> levels = new Sched.SchedDomain[] {Sched.SchedDomain.of("domain", all, top, false)};
            case OVERLAP -> {
                if (groups < 2 || Long.bitCount(all) < 3) {
                    throw new ModelInputException(LbRedoFactory.NAME + ": topology=overlap needs at least 3 CPUs in 2 groups");
                }
                Sched.SchedDomain sd = Sched.SchedDomain.of("NUMA", all, top, false);
                int shared = 0;
                while (top[shared] != 1) {
                    shared++;
                }
                long[] span = sd.groupSpan().clone();
                span[0] |= 1L << shared;   /* sched_group_span(sd->groups) holds CPU shared; group_balance_mask does not */
                levels = new Sched.SchedDomain[] {new Sched.SchedDomain("NUMA", all, sd.groupOf(), span, sd.groupBalanceMask(), false)};
            }
            case SMT, CLUSTER -> {
                boolean smt = spec.topology().equals(SMT);
                long group0 = 0;
                for (int c = 0; c < cpus; c++) {
                    if (top[c] == 0) {
                        group0 |= 1L << c;
                    }
                }
                if (smt && cpus != 2 * groups) {
                    throw new ModelInputException(LbRedoFactory.NAME + ": topology=smt makes SMT pairs: cpus must be 2 x groups "
                            + "(got cpus=" + cpus + ", groups=" + groups + ")");
                }
                if (Long.bitCount(group0) < 2) {
                    throw new ModelInputException(LbRedoFactory.NAME + ": topology=" + spec.topology() + " needs at least two CPUs "
                            + "in CPU 0's group (got cpus=" + cpus + ", groups=" + groups + ")");
                }
                int[] lower = new int[cpus];
                Arrays.fill(lower, -1);
                int g = 0;
                for (int c = 0; c < cpus; c++) {
                    if ((group0 & (1L << c)) != 0) {
                        lower[c] = g++;
                    }
                }
                levels = new Sched.SchedDomain[] {
                    Sched.SchedDomain.of(smt ? "SMT" : "MC", group0, lower, smt),
                    Sched.SchedDomain.of(smt ? "MC" : "PKG", all, top, false)};
                if (smt) {
                    cores = new long[groups];
                    for (int c = 0; c < cpus; c++) {
                        cores[top[c]] |= 1L << c;
                    }
                }
            }
            case SMT_LLC -> {
                if (cpus % 2 != 0 || cpus < 6 || cpus - 4 < groups - 1) {
                    throw new ModelInputException(LbRedoFactory.NAME + ": topology=smt-llc needs an even number of CPUs, "
                            + "at least 6 (the LLC {0..3} and groups - 1 more groups), got cpus=" + cpus + ", groups=" + groups);
                }
                int[] smtGroups = new int[cpus];
                int[] mcGroups = new int[cpus];
                int[] pkgGroups = new int[cpus];
                Arrays.fill(smtGroups, -1);
                Arrays.fill(mcGroups, -1);
                smtGroups[0] = 0;
                smtGroups[1] = 1;
                int[] rest = contiguousGroups(cpus - 4, groups - 1);
                for (int c = 0; c < cpus; c++) {
                    if (c < 4) {
                        mcGroups[c] = c / 2;
                        pkgGroups[c] = 0;
                    } else {
                        pkgGroups[c] = rest[c - 4] + 1;
                    }
                }
                levels = new Sched.SchedDomain[] {
                    Sched.SchedDomain.of("SMT", 0b11, smtGroups, true),
                    Sched.SchedDomain.of("MC", 0b1111, mcGroups, false),
                    Sched.SchedDomain.of("PKG", all, pkgGroups, false)};
                cores = new long[cpus / 2];
                for (int c = 0; c < cpus; c++) {
                    cores[c / 2] |= 1L << c;
                }
            }
            default -> throw new ModelInputException(LbRedoFactory.NAME + ": unknown topology '" + spec.topology() + "'");
        }
        long local0 = members(levels[0], DST_CPU);
        long[][][] patterns = new long[cpus][][];
        long[][] hotSets = new long[cpus][];
        for (int c = 0; c < cpus; c++) {
            if ((local0 & (1L << c)) != 0) {
                patterns[c] = new long[][] {{}};
                hotSets[c] = new long[] {0};
                continue;
            }
            long[] choices = maskChoices(spec.masks(), c, cpus, all, levels);
            List<long[]> ps = new ArrayList<>();
            if (spec.scenario().equals(RACE)) {
                long[] free = new long[spec.tasks()];
                Arrays.fill(free, all);
                ps.add(free);
            } else {
                ps.add(new long[] {all});
                int k = choices.length;
                int combos = 1;
                for (int i = 0; i < spec.tasks(); i++) {
                    combos *= k;
                }
                for (int combo = 0; combo < combos; combo++) {
                    long[] p = new long[spec.tasks()];
                    int x = combo;
                    for (int i = 0; i < spec.tasks(); i++) {
                        p[i] = choices[x % k];
                        x /= k;
                    }
                    ps.add(p);
                }
            }
            List<Long> hs = new ArrayList<>();
            int plainPatterns = ps.size();
            for (int i = 0; i < plainPatterns; i++) {
                hs.add(0L);
                long[] p = ps.get(i);
                /* hot=some: every non-empty set of the non-running tasks (index >= 1) may be cache-hot */
                for (long h = 2; spec.hot() && h < (1L << p.length); h += 2) {
                    ps.add(p);
                    hs.add(h);
                }
            }
            if (spec.topology().equals(SMT_LLC) && c < 4) {
                /* smt-llc: a CPU of CPU 0's LLC may also start idle */
                ps.add(new long[0]);
                hs.add(0L);
            }
            patterns[c] = ps.toArray(long[][]::new);
            hotSets[c] = hs.stream().mapToLong(Long::longValue).toArray();
        }
        int[][] classes = symmetryClasses(spec, cpus, levels, local0);
        LbDomain d = new LbDomain(cpus, levels, cores, all, spec.pulls(), patterns, hotSets, classes,
                spec.scenario() + ": " + cpus + " CPUs in " + groups + " groups, " + spec.tasks() + " tasks per busy CPU, "
                        + spec.pulls() + " pulls" + (spec.hot() ? ", cache-hot tasks" : ""), spec.idle(), spec.nrMigrate(), spec.migrateBreak(), spec.masks());
        d.zeroImbalance = spec.zeroImbalance();
        if (!d.symmetric) {
            long initial = 1;
            for (int c : d.remote) {
                initial = Math.multiplyExact(initial, patterns[c].length);
                if (initial > MAX_INITIAL) {
                    throw new ModelInputException(LbRedoFactory.NAME + ": masks=" + spec.masks() + " gives more than " + MAX_INITIAL
                            + " initial runqueue choices at cpus=" + cpus + ", tasks=" + spec.tasks()
                            + " (every mask of every task); use fewer CPUs or tasks");
                }
            }
        }
        return d;
    }

    /** The masks a task of CPU c may have under mask kind {@code masks}: every CPU and its own CPU first. */
    private static long[] maskChoices(String masks, int c, int cpus, long all, Sched.SchedDomain[] levels) {
        long own = 1L << c;
        switch (masks) {
            case MASKS_OWN:
                return new long[] {all, own};
            case MASKS_LOCAL: {
                /* the level where c can be busiest: the lowest whose span holds it outside the local group */
                for (Sched.SchedDomain sd : levels) {
                    long local = members(sd, DST_CPU);
                    if ((sd.span() & own) != 0 && (local & own) == 0) {
                        long others = local & ~(1L << DST_CPU);
                        if (others == 0) {
                            return new long[] {all, own};
                        }
                        return new long[] {all, own, own | Long.lowestOneBit(others)};
                    }
                }
                return new long[] {all, own};
            }
            case MASKS_ANY: {
                List<Long> out = new ArrayList<>(List.of(all, own));
                for (long m = 1; m <= all; m++) {
                    if ((m & own) != 0 && m != all && m != own) {
                        out.add(m);
                    }
                }
                return out.stream().mapToLong(Long::longValue).toArray();
            }
            default:
                throw new ModelInputException(LbRedoFactory.NAME + ": unknown masks '" + masks + "'");
        }
    }

    /**
     * CPUs with tasks that can be renamed into each other: those that are candidates at the same
     * level, when no task mask names a CPU of the class other than its own. With {@code masks=any}
     * none; with {@code masks=local} the CPUs a mask names (the balancing CPU's group) are not
     * renamed.
     */
    private static int[][] symmetryClasses(Spec spec, int cpus, Sched.SchedDomain[] levels, long local0) {
        if (spec.masks().equals(MASKS_ANY)) {
            return new int[0][];
        }
        List<int[]> out = new ArrayList<>();
        long seen = local0;
        for (int l = 0; l < levels.length; l++) {
            Sched.SchedDomain sd = levels[l];
            long local = members(sd, DST_CPU);
            long cls = sd.span() & ~local & ~seen & ~sharedCpus(sd);
            seen |= cls;
            boolean namedByMasks = spec.masks().equals(MASKS_LOCAL) && l + 1 < levels.length;
            if (!namedByMasks) {
                out.add(bits(cls));
            }
            for (long m = sharedCpus(sd) & ~seen; m != 0; m &= m - 1) {
                out.add(new int[] {Long.numberOfTrailingZeros(m)});     /* a CPU in two groups' spans: its own class */
            }
        }
        return out.toArray(int[][]::new);
    }

    /**
     * A domain given in full (for generated tests): one level, the group of each CPU, the active
     * CPUs, and per CPU outside the local group its runqueue (affinity masks, head first); CPU 0
     * newly idle. One initial state.
     */
    public static LbDomain custom(int cpus, int[] groupOf, long active, long[][] rqMasks, int pulls) {
        return custom(cpus, groupOf, active, rqMasks, pulls, LbEnv.CPU_NEWLY_IDLE);
    }

    /** {@link #custom(int, int[], long, long[][], int)} with CPU 0 balancing as {@code idle} ({@link LbEnv#CPU_IDLE}, ...). */
    public static LbDomain custom(int cpus, int[] groupOf, long active, long[][] rqMasks, int pulls, int idle) {
        long[][][] patterns = new long[cpus][][];
        long[][] hot = new long[cpus][];
        for (int c = 0; c < cpus; c++) {
            patterns[c] = new long[][] {rqMasks[c] == null ? new long[0] : rqMasks[c].clone()};
            hot[c] = new long[] {0};
        }
        long all = cpus == 64 ? -1L : (1L << cpus) - 1;
        StringBuilder b = new StringBuilder("custom: groups ").append(Arrays.toString(groupOf));
        if (idle != LbEnv.CPU_NEWLY_IDLE) {
            b.append(idle == LbEnv.CPU_IDLE ? ", CPU_IDLE" : ", CPU_NOT_IDLE");
        }
        return new LbDomain(cpus, new Sched.SchedDomain[] {Sched.SchedDomain.of("domain", all, groupOf, false)}, new long[0],
                active, pulls, patterns, hot, new int[0][], b.toString(), idle, LbEnv.SYSCTL_SCHED_NR_MIGRATE,
                LbEnv.SCHED_NR_MIGRATE_BREAK, "custom");
    }

    /** Group of each CPU when {@code cpus} CPUs are split into {@code groups} contiguous groups. */
    public static int[] contiguousGroups(int cpus, int groups) {
        int[] out = new int[cpus];
        int base = cpus / groups;
        int extra = cpus % groups;
        int c = 0;
        for (int g = 0; g < groups; g++) {
            int size = base + (g < extra ? 1 : 0);
            for (int i = 0; i < size; i++) {
                out[c++] = g;
            }
        }
        return out;
    }

    /** A machine for this domain: its levels, SMT cores and migration limits; runqueues empty, tasks unnamed. */
    Sched newSched() {
        Sched s = new Sched(nrCpus, levels, active, Math.max(1, nrTasks));
        for (long core : cores) {
            s.setSmtCore(core);
        }
        s.setNrMigrate(nrMigrate, migrateBreak);
        s.setZeroImbalance(zeroImbalance);
        return s;
    }

    public int nrCpus() {
        return nrCpus;
    }

    public int pulls() {
        return pulls;
    }

    /** Number of domain levels CPU 0 balances, lowest first. */
    public int levels() {
        return levels.length;
    }

    /** The CPUs of the local group (the group of CPU 0) at the first level. */
    public long localSpan() {
        return localSpan;
    }

    /** {@code cpus} at the start of a call at the first level: the domain span and the active CPUs. */
    public long cpus0() {
        return levels[0].span() & active;
    }

    /** |cpus0 \ local group| at the top level: how many CPUs can ever be the busiest queue there. */
    public int candidates() {
        return candidates[levels.length - 1].length;
    }

    /** |cpus0 \ local group| at level {@code level}. */
    public int candidates(int level) {
        return candidates[level].length;
    }

    /** The most CPUs that can be busiest at any one level. */
    int maxCandidates() {
        int m = 0;
        for (int[] c : candidates) {
            m = Math.max(m, c.length);
        }
        return m;
    }

    /** The level at which CPU c can be the busiest queue (-1: none). */
    int levelOf(int c) {
        for (int l = 0; l < levels.length; l++) {
            for (int x : candidates[l]) {
                if (x == c) {
                    return l;
                }
            }
        }
        return -1;
    }

    public String description() {
        return description;
    }
}
