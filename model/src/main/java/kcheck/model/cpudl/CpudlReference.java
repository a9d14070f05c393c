package kcheck.model.cpudl;

import static kcheck.model.cpudl.Deadlines.dlTimeBefore;

import java.util.StringJoiner;

/**
 * The plain reference map the heap is checked against: CPU to the earliest deadline of its
 * deadline task, or absent. No heap, no index: what the caller of {@code cpudl_set} /
 * {@code cpudl_clear} has told the structure so far. Allocation-free.
 */
public final class CpudlReference {
    private final long[] dl;
    private final boolean[] live;
    /** Runqueue online in this root domain (all by default; the hotplug dimension changes it). */
    private final boolean[] online;
    private int count;
    /*
     * The same map as bit sets, kept for up to 64 CPUs (the model's sizes) so that the queries a
     * find step asks (the first free allowed CPU, the latest deadline) do not walk every CPU:
     * the model asks them once per cpudl_find step, tens of millions of times a search.
     */
    private final boolean small;
    private long liveBits;
    private long onlineBits;
    private long latest;
    private boolean latestKnown;

    public CpudlReference(int nrCpus) {
        this.dl = new long[nrCpus];
        this.live = new boolean[nrCpus];
        this.online = new boolean[nrCpus];
        java.util.Arrays.fill(online, true);
        this.small = nrCpus <= 64;
        this.onlineBits = small ? (nrCpus == 64 ? -1L : (1L << nrCpus) - 1) : 0;
    }

    /** Marks {@code cpu}'s runqueue online (or offline) in this root domain. */
    public void setOnline(int cpu, boolean on) {
        online[cpu] = on;
        if (small) {
            onlineBits = on ? onlineBits | 1L << cpu : onlineBits & ~(1L << cpu);
        }
    }

    public boolean isOnline(int cpu) {
        return online[cpu];
    }

    /** True if {@code cpu} should be in {@code free_cpus}: its runqueue is online here and it has no deadline. */
    public boolean shouldBeFree(int cpu) {
        return online[cpu] && !live[cpu];
    }

    public int nrCpus() {
        return dl.length;
    }

    public void set(int cpu, long deadline) {
        if (!live[cpu]) {
            live[cpu] = true;
            count++;
            liveBits |= 1L << cpu;
        }
        dl[cpu] = deadline;
        latestKnown = false;
    }

    public void clear(int cpu) {
        if (live[cpu]) {
            live[cpu] = false;
            dl[cpu] = 0;
            count--;
            liveBits &= ~(1L << cpu);
            latestKnown = false;
        }
    }

    public void clearAll() {
        for (int c = 0; c < dl.length; c++) {
            live[c] = false;
            dl[c] = 0;
        }
        count = 0;
        liveBits = 0;
        latestKnown = false;
    }

    public boolean isLive(int cpu) {
        return live[cpu];
    }

    public long dl(int cpu) {
        return dl[cpu];
    }

    /** Number of CPUs with a deadline. */
    public int count() {
        return count;
    }

    /**
     * True if every live deadline lies in one window {@code [b, b + 2^63)} (mod 2^64) for some
     * live {@code b}: then {@code dl_time_before} is a total order on them and "latest" means
     * something. The window may sit anywhere in [0, 2^64).
     */
    public boolean windowed() {
        for (int b = 0; b < dl.length; b++) {
            if (!live[b]) {
                continue;
            }
            boolean all = true;
            for (int x = 0; x < dl.length && all; x++) {
                all = !live[x] || dl[x] - dl[b] >= 0;
            }
            if (all) {
                return true;
            }
        }
        return count == 0;
    }

    /** The latest live deadline by {@code dl_time_before} (meaningful when {@link #windowed()}); 0 if none. */
    public long latest() {
        if (!latestKnown) {
            latest = latestOfAll();
            latestKnown = true;
        }
        return latest;
    }

    private long latestOfAll() {
        long m = 0;
        boolean any = false;
        for (int c = 0; c < dl.length; c++) {
            if (live[c] && (!any || dlTimeBefore(m, dl[c]))) {
                m = dl[c];
                any = true;
            }
        }
        return m;
    }

    /**
     * The answers {@code cpudl_find()} may give per this map: the lowest allowed CPU without a
     * deadline if there is one (the kernel's {@code cpumask_any()} is {@code cpumask_first()});
     * else, for each CPU {@code m} holding the latest deadline (ties allowed: any of them may be
     * the heap root), {@code m} if it is allowed and the task's deadline is earlier, else -1.
     * Returns true if {@code answer} is one of them.
     */
    public boolean findAccepts(int answer, long deadline, Cpumask allowed) {
        int free = firstFreeAllowed(allowed);
        if (free >= 0) {
            return answer == free;
        }
        if (count == 0) {
            return answer == -1;
        }
        long m = latest();
        for (int c = 0; c < dl.length; c++) {
            if (live[c] && dl[c] == m) {
                int expected = allowed.testCpu(c) && dlTimeBefore(deadline, m) ? c : -1;
                if (answer == expected) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The lowest CPU in {@code allowed} with no deadline (and an online runqueue), or -1. */
    public int firstFreeAllowed(Cpumask allowed) {
        if (small) {
            long free = onlineBits & ~liveBits & allowed.low64();
            return free == 0 ? -1 : Long.numberOfTrailingZeros(free);
        }
        for (int c = 0; c < dl.length; c++) {
            if (shouldBeFree(c) && allowed.testCpu(c)) {
                return c;
            }
        }
        return -1;
    }

    /** One expected answer of {@code cpudl_find()} (the first of {@link #findAccepts}'s set), for messages. */
    public int expectedFind(long deadline, Cpumask allowed) {
        int free = firstFreeAllowed(allowed);
        if (free >= 0 || count == 0) {
            return free;
        }
        long m = latest();
        for (int c = 0; c < dl.length; c++) {
            if (live[c] && dl[c] == m && allowed.testCpu(c) && dlTimeBefore(deadline, m)) {
                return c;
            }
        }
        return -1;
    }

    /**
     * The v4.15+ contract ({@code cpudl_find()} returns 1/0 and the candidates in
     * {@code later_mask}), per this map, for task {@code p} on a system with the capacities of
     * {@code env}: if the task may run on some free CPU (online, no deadline), 1 and those CPUs;
     * with asymmetric capacities only those that fit the task, or if none fits the one with the
     * largest capacity (the lowest such CPU, or {@code task_cpu(p)} if it is one of them);
     * otherwise as v4.x: 1 and {the latest CPU} if the task may run there and its deadline is
     * earlier (any of the latest, if tied), else 0 and an empty mask. Returns true if
     * ({@code ret}, {@code mask}) is one of the answers (mask: bit c = CPU c, CPUs below 64).
     */
    public boolean findAcceptsMask(int ret, long mask, DlTask p, Cpudl env) {
        long free = freeAllowedMask(p.cpusMask);
        if (free != 0) {
            return ret == 1 && mask == expectedFreeCandidates(free, p, env);
        }
        if (count == 0) {
            return ret == 0 && mask == 0;
        }
        long m = latest();
        for (int c = 0; c < dl.length; c++) {
            if (live[c] && dl[c] == m) {
                boolean yes = p.cpusMask.testCpu(c) && dlTimeBefore(p.deadline, m);
                if (yes ? ret == 1 && mask == 1L << c : ret == 0 && mask == 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The free CPUs the task may run on, as a bit set. */
    public long freeAllowedMask(Cpumask allowed) {
        if (small) {
            return onlineBits & ~liveBits & allowed.low64();
        }
        long free = 0;
        for (int c = 0; c < dl.length && c < 64; c++) {
            if (shouldBeFree(c) && allowed.testCpu(c)) {
                free |= 1L << c;
            }
        }
        return free;
    }

    /** Of the free allowed CPUs {@code free}: those whose capacity fits the task (bit set). */
    public static long fitting(long free, DlTask p, Cpudl env) {
        long fit = 0;
        for (long m = free; m != 0; m &= m - 1) {
            int c = Long.numberOfTrailingZeros(m);
            if (DlTask.dlTaskFitsCapacity(env, p, c)) {
                fit |= 1L << c;
            }
        }
        return fit;
    }

    /** What {@code later_mask} must hold when free allowed CPUs {@code free} exist. */
    public static long expectedFreeCandidates(long free, DlTask p, Cpudl env) {
        if (!env.schedAsymCpucapActive()) {
            return free;
        }
        long fit = fitting(free, p, env);
        if (fit != 0) {
            return fit;
        }
        long maxCap = -1;
        for (long m = free; m != 0; m &= m - 1) {
            maxCap = Math.max(maxCap, env.archScaleCpuCapacity(Long.numberOfTrailingZeros(m)));
        }
        if (p.cpu >= 0 && p.cpu < 64 && (free & 1L << p.cpu) != 0 && env.archScaleCpuCapacity(p.cpu) == maxCap) {
            return 1L << p.cpu;
        }
        for (long m = free; m != 0; m &= m - 1) {
            int c = Long.numberOfTrailingZeros(m);
            if (env.archScaleCpuCapacity(c) == maxCap) {
                return 1L << c;
            }
        }
        return 0;
    }

    /** {@code {0:2^63+1, 1:2^63+2}}. */
    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(" ", "{", "}");
        for (int c = 0; c < dl.length; c++) {
            if (live[c]) {
                j.add(c + ":" + Deadlines.format(dl[c]));
            }
        }
        return j.toString();
    }
}
