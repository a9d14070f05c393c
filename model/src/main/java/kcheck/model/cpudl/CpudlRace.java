package kcheck.model.cpudl;

import static kcheck.model.cpudl.Deadlines.dlTimeBefore;

/**
 * The lockless {@code cpudl_find()} racing with one {@code cpudl_set()}/{@code cpudl_clear()} on
 * another CPU (parameter {@code find-race}). In the kernel {@code cpudl_find()} takes no lock
 * (kernel/sched/cpudeadline.c:116, v6.12): it reads {@code cp->free_cpus} (one word up to 64
 * CPUs), then {@code elements[0].cpu}, then {@code elements[0].dl}, while a writer holding
 * {@code cp->lock} stores into them. The writer's stores become visible in program order and the
 * reader's loads happen in program order (x86-TSO; weaker architectures would need a weak memory
 * model), so the reader sees the three fields at three points {@code i <= j <= k} of the writer's
 * store sequence.
 *
 * <p>This class records the views ({@code free_cpus}, {@code elements[0].cpu},
 * {@code elements[0].dl}) a writer's call passes through ({@link Cpudl} calls {@link #view} around
 * every element store) and runs the variant's {@code cpudl_find} on every view it can assemble
 * that is neither the state before nor after the call (those are checked by {@code find-sound}).
 * What must hold then (property {@code find-race}): the answer may be stale, even torn (the root's
 * cpu from before a store and its dl from after: v4.9 to v6.12 offer a CPU whose own deadline is not
 * later than the task's, see docs/models/cpudl.md), which the caller tolerates because it re-checks
 * under the runqueue locks ({@code find_lock_later_rq()}); but every CPU it offers is one the task
 * may run on and that belongs to this root domain's view before or after the call (free there, or
 * in the heap), the {@code WARN_ON} at :151 does not fire, and no access leaves {@code elements[]}.
 */
final class CpudlRace {
    private static final int MAX_VIEWS = 4096;

    private final long[] free = new long[MAX_VIEWS];
    private final int[] cpu = new int[MAX_VIEWS];
    private final long[] dl = new long[MAX_VIEWS];
    private int len;

    /** The views assembled so far in one {@link #check} (distinct). */
    private final long[] tf = new long[1024];
    private final int[] tc = new int[1024];
    private final long[] td = new long[1024];

    /** The layout of the states {@code old} and {@code neu} (set by {@link #check}). */
    private CpudlLayout l;

    /** Scratch: the assembled view the find runs on. */
    private final Cpudl view;
    private final Cpumask later;

    CpudlRace(int n) {
        this.view = Cpudl.init(n);
        this.later = new Cpumask(n);
    }

    void reset() {
        len = 0;
    }

    /** Records what a lockless reader would see in {@code c} now (consecutive duplicates dropped). */
    void view(Cpudl c) {
        long f = c.freeCpus.low64();
        int x = c.rawCpu(0);
        long d = c.rawDl(0);
        if (len > 0 && free[len - 1] == f && cpu[len - 1] == x && dl[len - 1] == d) {
            return;
        }
        if (len < MAX_VIEWS) {
            free[len] = f;
            cpu[len] = x;
            dl[len] = d;
            len++;
        }
    }

    /**
     * Runs {@code find} for every task on every intermediate view of the last call; the first
     * answer that offers a CPU usable neither before ({@code old}) nor after ({@code neu}) the call,
     * or a find that would WARN, is returned as a fault (null if none).
     */
    CpudlFault.Flagged check(CpudlModel m, Cpudl pre, long[] old, long[] neu, long windowLive, DlTask task) {
        this.l = m.layout;
        if (len <= 2) {
            return null; /* nothing between before and after */
        }
        int last = len - 1;
        int distinct = 0;
        for (int i = 0; i <= last; i++) {
            for (int j = i; j <= last; j++) {
                for (int k = j; k <= last; k++) {
                    long f = free[i];
                    int x = cpu[j];
                    long d = dl[k];
                    if (f == free[0] && x == cpu[0] && d == dl[0] || f == free[last] && x == cpu[last] && d == dl[last]) {
                        continue; /* the state before or after the call: find-sound's */
                    }
                    boolean seen = false;
                    for (int q = 0; q < distinct && !seen; q++) {
                        seen = tf[q] == f && tc[q] == x && td[q] == d;
                    }
                    if (seen || distinct == tf.length) {
                        continue;
                    }
                    tf[distinct] = f;
                    tc[distinct] = x;
                    td[distinct] = d;
                    distinct++;
                    CpudlFault.Flagged fault = findOn(m, pre, f, x, d, old, neu, windowLive, task);
                    if (fault != null) {
                        return fault;
                    }
                }
            }
        }
        return null;
    }

    private CpudlFault.Flagged findOn(CpudlModel m, Cpudl pre, long freeMask, int rootCpu, long rootDl, long[] old,
                                      long[] neu, long windowLive, DlTask task) {
        view.copyFrom(pre);
        view.freeCpus.setLow64(freeMask);
        view.loadSlot(0, rootCpu, rootDl);
        /*
         * The deadline enters only as dl_time_before(p->dl.deadline, elements[0].dl): one task deadline for which it holds
         * (if the domain has one in the window) gives every CPU any deadline could be offered; the free branch ignores it.
         */
        int t = -1;
        for (int u = 0; u < m.dn; u++) {
            if (m.dom.windowed(windowLive | (1L << u)) && (t < 0 || dlTimeBefore(m.dom.value(u), rootDl))) {
                t = u;
                if (dlTimeBefore(m.dom.value(u), rootDl)) {
                    break;
                }
            }
        }
        if (t < 0) {
            return null;
        }
        int dens = m.densities.length;
        for (int a = 0; a < m.affCount; a++) {
            if (!touchesOnline(m.aff[a], old)) {
                continue; /* the environment assumption of the hotplug dimension, as for every find (CpudlSteps) */
            }
            for (int di = 0; di < dens; di++) {
                for (int tc = 0; tc < m.taskCpus; tc++) {
                    task.deadline = m.dom.value(t);
                    task.cpusMask = m.aff[a];
                    task.dlDensity = m.densities[di];
                    task.cpu = tc;
                    long taskIndex = (((long) t * m.affCount + a) * dens + di) * m.taskCpus + tc;
                    view.resetWrites();
                    int ans;
                    try {
                        ans = m.impl.find(view, task, later);
                    } catch (IndexOutOfBoundsException e) {
                        return new CpudlFault.Flagged(CpudlFault.BOUNDS, 0, Long.MIN_VALUE);
                    }
                    if (view.warnings() != 0) {
                        return new CpudlFault.Flagged(Integer.numberOfTrailingZeros(view.warnings()), 0, view.warnedValue());
                    }
                    int bad = offeredUnusable(m, ans, task, old, neu);
                    if (bad >= 0) {
                        return new CpudlFault.Flagged(CpudlFault.RACE, bad, Math.min(taskIndex, Short.MAX_VALUE));
                    }
                }
            }
        }
        return null;
    }

    private boolean touchesOnline(Cpumask allowed, long[] r) {
        for (int c = 0; c < l.n; c++) {
            if (allowed.testCpu(c) && l.state(r, c) == CpudlLayout.ON) {
                return true;
            }
        }
        return false;
    }

    /** The first CPU the answer offers that neither {@code old} nor {@code neu} lets the task use, or -1. */
    private int offeredUnusable(CpudlModel m, int ans, DlTask task, long[] old, long[] neu) {
        if (m.findCpu) {
            return ans >= 0 && ans < m.n && !usable(ans, task, old) && !usable(ans, task, neu) ? ans : -1;
        }
        if (ans != 1) {
            return -1;
        }
        for (int c = later.next(-1); c < later.nrCpus(); c = later.next(c)) {
            if (!usable(c, task, old) && !usable(c, task, neu)) {
                return c;
            }
        }
        return -1;
    }

    /**
     * {@code c} is a candidate by {@code r}: the task may run there and {@code c} is free or in the heap (its deadline is not
     * compared: a torn read may pair it with another entry's, which the caller re-checks).
     */
    private boolean usable(int c, DlTask task, long[] r) {
        return task.cpusMask.testCpu(c) && (l.ref[c].getInt(r) != 0 || l.state(r, c) == CpudlLayout.ON);
    }
}
