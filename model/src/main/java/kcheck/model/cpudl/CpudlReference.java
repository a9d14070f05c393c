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
    private int count;

    public CpudlReference(int nrCpus) {
        this.dl = new long[nrCpus];
        this.live = new boolean[nrCpus];
    }

    public int nrCpus() {
        return dl.length;
    }

    public void set(int cpu, long deadline) {
        if (!live[cpu]) {
            live[cpu] = true;
            count++;
        }
        dl[cpu] = deadline;
    }

    public void clear(int cpu) {
        if (live[cpu]) {
            live[cpu] = false;
            dl[cpu] = 0;
            count--;
        }
    }

    public void clearAll() {
        for (int c = 0; c < dl.length; c++) {
            live[c] = false;
            dl[c] = 0;
        }
        count = 0;
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

    /** The lowest CPU in {@code allowed} with no deadline, or -1. */
    public int firstFreeAllowed(Cpumask allowed) {
        for (int c = 0; c < dl.length; c++) {
            if (!live[c] && allowed.testCpu(c)) {
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
