package kcheck.lkmm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import kcheck.litmus.GraphSearch;
import kcheck.model.rqlock.RqSpinlock;

/**
 * rq-lock's spinlock under the Linux-kernel memory model ({@code --param memory-model=lkmm}): every
 * CPU runs {@code rounds} passes of {@code spin_lock}, critical section, {@code spin_unlock} on one
 * runqueue lock, and {@link GraphSearch} builds every LKMM-consistent execution. The spinlock is the
 * only shared-memory code of the rq-lock model: {@code double_lock_balance} decides which lock
 * primitives run in which order, which the sequentially consistent model checks (a listed
 * assumption of this mode).
 *
 * <p>Properties: {@code mutual-exclusion} (the critical sections are ordered: each reads the previous
 * one's write, so the counter ends at their number), {@code deadlock-free} (no execution in which a
 * CPU spins for ever, the last write of what it spins on not letting it out, while every other CPU
 * has finished or spins too) and, opt-in, {@code data-race-free} (LKMM's data-race flag on the plain
 * accesses: undefined behaviour in the kernel's C).
 */
public final class LkmmCheck {
    public static final String MUTUAL_EXCLUSION = "mutual-exclusion";
    /** The properties this mode decides, in report order. */
    public static final List<String> PROPERTIES = List.of(MUTUAL_EXCLUSION, GraphSearch.HANG, GraphSearch.RACE);
    /**
     * Checked when none is named. {@code data-race-free} is opt-in: LKMM's rules for plain accesses are
     * conservative, and flag v6.12's own plain initialisation of the MCS node against the predecessor's
     * store-release (smp_wmb() gives the plain store visibility, not the executes-before order a plain
     * write needs before a later marked one: ww-nonrace in linux-kernel.cat).
     */
    public static final List<String> DEFAULTS = List.of(MUTUAL_EXCLUSION, GraphSearch.HANG);
    /** Graphs explored before the search stops as incomplete. */
    public static final long MAX_GRAPHS = 20_000_000L;

    /** A property's verdict: HOLDS, VIOLATED or INCOMPLETE, with the message and witness of a violation. */
    public record Verdict(String property, String verdict, String message, String witness) {
    }

    public record Result(List<Verdict> verdicts, long graphs, long executions, double seconds, String incomplete) {
    }

    private LkmmCheck() {
    }

    /**
     * Checks {@code properties} (empty: {@link #DEFAULTS}) of {@code lock} with {@code cpus} CPUs and
     * {@code rounds} passes each, stopping at {@code timeLimit} (null: none) or {@code maxGraphs}.
     */
    public static Result check(RqSpinlock lock, int cpus, int rounds, Set<String> properties, Duration timeLimit, long maxGraphs) {
        Set<String> wanted = wanted(properties);
        List<GraphSearch.Program> threads = new ArrayList<>();
        for (int c = 0; c < cpus; c++) {
            threads.add(new SpinlockProgram(lock, c, cpus, rounds, wanted.contains(MUTUAL_EXCLUSION)));
        }
        List<String> locs = SpinlockProgram.locations(lock, cpus, wanted.contains(MUTUAL_EXCLUSION));
        int sections = cpus * rounds;
        GraphSearch.Outcome outcome = (fin, runs) -> {
            Long cs = fin.get(SpinlockProgram.CS);
            if (cs == null) {
                return null;
            }
            return cs.longValue() == sections ? null : "the critical sections' counter ends at " + cs + " after " + sections
                    + " critical sections: a section read a value another section had already overwritten, so two sections "
                    + "were not ordered by the lock";
        };
        return search(locs, SpinlockProgram.parts(lock, cpus), threads, outcome, wanted, timeLimit, maxGraphs);
    }

    /** The properties asked for ({@link #DEFAULTS} when none), each one this mode decides. */
    static Set<String> wanted(Set<String> properties) {
        Set<String> wanted = new LinkedHashSet<>(properties.isEmpty() ? DEFAULTS : properties);
        for (String p : wanted) {
            if (!PROPERTIES.contains(p)) {
                throw new IllegalArgumentException("property '" + p + "' is not decided under memory-model=lkmm (it decides "
                        + String.join(", ", PROPERTIES) + ")");
            }
        }
        return wanted;
    }

    /** Runs the search, every location starting at 0, and turns its result into one verdict per wanted property. */
    static Result search(List<String> locs, Map<String, List<GraphSearch.Part>> parts, List<GraphSearch.Program> threads,
            GraphSearch.Outcome outcome, Set<String> wanted, Duration timeLimit, long maxGraphs) {
        Map<String, Long> init = new HashMap<>();
        for (String l : locs) {
            init.put(l, 0L);
        }
        long start = System.nanoTime();
        long deadline = timeLimit == null ? Long.MAX_VALUE / 4 + start : start + timeLimit.toNanos();
        GraphSearch.Result r = new GraphSearch(locs, parts, init, threads, MUTUAL_EXCLUSION, outcome, wanted, maxGraphs, deadline).search();
        double seconds = (System.nanoTime() - start) / 1e9;
        List<Verdict> out = new ArrayList<>();
        for (String p : wanted) {
            GraphSearch.Violation v = r.violations().get(p);
            if (v != null) {
                out.add(new Verdict(p, "VIOLATED", v.message(), v.witness()));
            } else {
                out.add(new Verdict(p, r.complete() ? "HOLDS" : "INCOMPLETE", r.complete() ? "" : r.incomplete(), null));
            }
        }
        return new Result(out, r.graphs(), r.executions(), seconds, r.incomplete());
    }
}
