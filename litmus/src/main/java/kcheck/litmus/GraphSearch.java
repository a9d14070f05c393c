package kcheck.litmus;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every execution of a bounded concurrent program under the Linux-kernel memory model, built one event
 * at a time as GenMC builds execution graphs: a read takes its value from a write already in the graph
 * (the initial write or a thread's), a write takes any place in its location's coherence order (an RMW's
 * write the place right after the write its read read), and after every event the graph is checked
 * against linux-kernel.cat ({@link Lkmm}); a graph that breaks an axiom has no consistent extension (the
 * axioms are acyclicity and emptiness conditions over relations that only grow as events are added, so a
 * prefix is pruned at once).
 *
 * <p><b>What it enumerates</b>: every consistent execution whose {@code po | rf} is acyclic (each read
 * reads a write added before it). Writes and fences are added as soon as their thread reaches them,
 * which loses no such execution (only reads wait for their source), and graphs reached twice are
 * expanded once. An execution in which {@code po | rf} has a cycle (load buffering) is not built: for a
 * program in which every read reaches each later write of its thread through a dependency, LKMM forbids
 * those ({@code hb} contains {@code rfe} and the dependencies), so the enumeration is then complete; the
 * client says so or lists it as an assumption.
 *
 * <p><b>Threads</b> are deterministic functions of the values their reads return and the choices they
 * make ({@link Program#run}): the search re-runs a thread from the start with one more input to see what
 * it does next. A spin loop is one read ({@link Next#BLOCKED} when the value does not let it exit):
 * earlier failing iterations change nothing. A thread that can read no value that lets it go on while
 * every other thread has finished or is stuck the same way spins for ever if the last write in coherence
 * order does not let it exit: that execution is a hang.
 *
 * <p>Executions are limited to {@link Rel#MAX} events (initial writes included); a graph that would
 * exceed it is not explored and makes the result incomplete.
 */
public final class GraphSearch {
    /** Event annotations (linux-kernel.bell's sets); none for a plain access. */
    public static final int ONCE = Event.ONCE;
    public static final int ACQUIRE = Event.ACQUIRE;
    public static final int RELEASE = Event.RELEASE;
    public static final int RMW = Event.RMW;

    public enum Kind { READ, WRITE, FENCE }

    /**
     * One event of a thread. {@code ctrl}, {@code data}: masks of the indices of the thread's earlier events
     * it depends on; {@code rmwPartner}: index of the other half of a successful RMW, or -1; {@code fence}: a
     * fence's linux-kernel.bell name ({@code mb}, {@code wmb}, {@code rmb}); {@code label}: the kernel code
     * that did it, for traces.
     */
    public record Access(Kind kind, String loc, long value, int flags, String fence, long ctrl, long data, int rmwPartner,
            String label, long parts) {
        /** Every part of the location (or a location that has none). */
        public static final long ALL = -1L;

        public Access(Kind kind, String loc, long value, int flags, String fence, long ctrl, long data, int rmwPartner, String label) {
            this(kind, loc, value, flags, fence, ctrl, data, rmwPartner, label, ALL);
        }
    }

    /**
     * A part of a location that has several (a lock word's bytes and half-words): bits {@code offset} to
     * {@code offset + bits - 1} of its value. An access covers some parts ({@link Access#parts}, bit i: part i).
     */
    public record Part(String name, int offset, int bits) {
        long of(long value) {
            return value >>> offset & ((1L << bits) - 1);
        }
    }

    /** What a thread needs after the events of a run. */
    public enum Next {
        /** A value for a read (the next input); {@link Run#loc} names the location. */
        READ,
        /** One of {@link Run#options} branches (the next input is its index). */
        CHOICE,
        /** The thread has finished. */
        END,
        /** The last input was a value a spin loop does not exit on: not a value this read can usefully take. */
        BLOCKED
    }

    /** One run of a thread: its events so far and what it needs next. */
    public record Run(List<Access> events, Next next, String loc, int options) {
    }

    /** A thread's code. */
    public interface Program {
        /** Runs from the start; {@code inputs} are the values of its reads and the indices of its choices, in order. */
        Run run(long[] inputs);
    }

    /** The client's check of a finished execution: a violation message, or null. */
    public interface Outcome {
        String violation(Map<String, Long> finalValues, List<Run> runs);
    }

    /** A property the search found violated, with the execution that shows it. */
    public record Violation(String property, String message, String witness) {
    }

    /**
     * The result. {@code graphs}: distinct graphs built (prefixes included); {@code executions}: finished
     * or stuck executions that are consistent; {@code complete}: every graph was explored.
     */
    public record Result(Map<String, Violation> violations, long graphs, long executions, boolean complete, String incomplete) {
    }

    /** Property names of the two checks the search itself makes. */
    public static final String HANG = "deadlock-free";
    public static final String RACE = "data-race-free";

    private final List<String> locations;
    private final List<Program> threads;
    private final String outcomeProperty;
    private final Outcome outcome;
    private final Set<String> wanted;
    private final long maxGraphs;
    private final long deadline;

    private final Set<String> seen = new HashSet<>();
    private final Map<String, Violation> found = new LinkedHashMap<>();
    private long graphs;
    private long executions;
    private String incomplete;
    private final GraphSpace space;
    private final GraphExecution lkmm;
    private final GraphWitness witness;

    /**
     * {@code wanted}: the properties to check ({@code outcomeProperty} for the client's outcome, {@link #HANG},
     * {@link #RACE}); the search stops when each is violated, after {@code maxGraphs} graphs or at
     * {@code deadlineNanos} ({@link System#nanoTime()}).
     */
    public GraphSearch(List<String> locations, Map<String, Long> init, List<Program> threads, String outcomeProperty,
            Outcome outcome, Set<String> wanted, long maxGraphs, long deadlineNanos) {
        this(locations, Map.of(), init, threads, outcomeProperty, outcome, wanted, maxGraphs, deadlineNanos);
    }

    /**
     * With {@code parts}: the locations made of parts of different sizes. LKMM has no mixed-size accesses
     * (tools/memory-model/Documentation/explanation.txt), so each part is its own LKMM location: an access
     * is one event per part it covers, a read reading each part from the last write of that part up to the
     * write it reads as a whole. The search keeps one coherence order per location over whole values, so
     * every access is single-copy atomic; a write of some parts only must be the write of an RMW (its read
     * may cover no part: then it is no event, only how the search composes the whole value), and no write
     * goes between an RMW's read and its write.
     */
    public GraphSearch(List<String> locations, Map<String, List<Part>> parts, Map<String, Long> init, List<Program> threads,
            String outcomeProperty, Outcome outcome, Set<String> wanted, long maxGraphs, long deadlineNanos) {
        this.locations = List.copyOf(locations);
        List<List<Part>> ps = new ArrayList<>();
        for (String l : this.locations) {
            ps.add(List.copyOf(parts.getOrDefault(l, List.of())));
        }
        this.space = new GraphSpace(this.locations, ps, Map.copyOf(init));
        this.lkmm = new GraphExecution(space);
        this.witness = new GraphWitness(space);
        this.threads = List.copyOf(threads);
        this.outcomeProperty = outcomeProperty;
        this.outcome = outcome;
        this.wanted = Set.copyOf(wanted);
        this.maxGraphs = maxGraphs;
        this.deadline = deadlineNanos;
    }

    public Result search() {
        SearchGraph g = new SearchGraph(threads.size(), locations.size());
        for (int t = 0; t < threads.size(); t++) {
            g.runs[t] = threads.get(t).run(new long[0]);
        }
        explore(g);
        return new Result(Map.copyOf(found), graphs, executions, incomplete == null, incomplete);
    }

    private boolean stop() {
        if (incomplete != null && incomplete.startsWith("stopped")) {
            return true;
        }
        if (found.keySet().containsAll(wanted)) {
            return true;
        }
        if (graphs >= maxGraphs) {
            incomplete = "stopped after " + maxGraphs + " graphs";
            return true;
        }
        if ((graphs & 255) == 0 && System.nanoTime() - deadline > 0) {
            incomplete = "stopped at the time limit";
            return true;
        }
        return false;
    }

    private void explore(SearchGraph g) {
        if (stop()) {
            return;
        }
        /* writes, fences and choices first, lowest thread first: they never wait for another thread */
        for (int t = 0; t < threads.size(); t++) {
            Run run = g.runs[t];
            int k = g.added[t];
            if (k < run.events().size()) {
                addEvent(g, t, run.events().get(k));
                return;
            }
            if (run.next() == Next.CHOICE) {
                for (int o = 0; o < run.options(); o++) {
                    SearchGraph c = new SearchGraph(g);
                    c.inputs[t] = append(g.inputs[t], o);
                    c.runs[t] = threads.get(t).run(c.inputs[t]);
                    visit(c);
                }
                return;
            }
        }
        boolean moved = false;
        List<Integer> spinning = new ArrayList<>();
        SearchGraph spun = null; /* g with each spinner's read of its last write, made when there is one */
        for (int t = 0; t < threads.size(); t++) {
            Run run = g.runs[t];
            if (run.next() != Next.READ) {
                continue;
            }
            int l = space.locId(run.loc());
            int[] order = g.co[l];
            Map<Long, Run> byValue = new HashMap<>();
            for (int i = 0; i < order.length; i++) {
                int src = order[i];
                long v = space.value(g, src);
                final int th = t;
                Run next = byValue.computeIfAbsent(v, x -> threads.get(th).run(append(g.inputs[th], x)));
                SearchGraph c = new SearchGraph(g);
                c.inputs[t] = append(g.inputs[t], v);
                c.runs[t] = next;
                SearchGraph r = withRead(c, t, src, next, g.added[t]);
                if (next.next() == Next.BLOCKED) {
                    /* the last write does not let the loop exit: the thread may spin on it for ever */
                    if (i == order.length - 1 && r != null && consistent(r) != null) {
                        spinning.add(t);
                        spun = spun == null ? new SearchGraph(g) : spun;
                        spun.inputs[t] = c.inputs[t];
                        spun.runs[t] = next;
                        withRead(spun, t, src, next, g.added[t]);
                    }
                    continue;
                }
                if (r != null && consistent(r) != null) {
                    visit(r);
                    moved = true;
                }
                if (stop()) {
                    return;
                }
            }
        }
        boolean allEnded = true;
        boolean endedOrSpinning = true;
        for (int t = 0; t < threads.size(); t++) {
            allEnded &= g.runs[t].next() == Next.END;
            endedOrSpinning &= g.runs[t].next() == Next.END || spinning.contains(t);
        }
        if (!spinning.isEmpty() && endedOrSpinning) {
            hang(spun, spinning);
        }
        if (!moved && allEnded) {
            finished(g);
        }
    }

    /**
     * Every thread has finished or spins on a location whose last write does not let it out: no thread
     * will write again, so the spinners spin for ever. {@code g} has each spinner's read of that last write.
     */
    private void hang(SearchGraph g, List<Integer> spinning) {
        Lkmm.Verdict v = consistent(g);
        if (v == null) {
            return;
        }
        executions++;
        race(g, v);
        if (wanted.contains(HANG) && !found.containsKey(HANG)) {
            StringBuilder why = new StringBuilder();
            for (int t : spinning) {
                Run r = g.runs[t];
                Access last = r.events().get(g.added[t] - 1);
                why.append(why.length() == 0 ? "" : "; ").append("thread ").append(t).append(" spins for ever on ").append(last.loc())
                        .append(": the last write in coherence order (").append(last.value()).append(") does not let it exit");
            }
            found.put(HANG, new Violation(HANG, why + ", and no other thread will write", witness.render(g, spinning)));
        }
    }

    private void race(SearchGraph g, Lkmm.Verdict v) {
        if (v.dataRace() && wanted.contains(RACE) && !found.containsKey(RACE)) {
            String pair = v.race() == null ? "" : ": " + lkmm.origin[v.race()[0]] + " and " + lkmm.origin[v.race()[1]];
            found.put(RACE, new Violation(RACE, "a plain access races with another access of its location (LKMM's data-race flag: "
                    + "undefined behaviour)" + pair, witness.render(g, List.of())));
        }
    }

    /** Every thread has finished: the client's outcome. */
    private void finished(SearchGraph g) {
        Lkmm.Verdict v = consistent(g);
        if (v == null) {
            return;
        }
        executions++;
        race(g, v);
        if (outcome != null && wanted.contains(outcomeProperty) && !found.containsKey(outcomeProperty)) {
            Map<String, Long> fin = new HashMap<>();
            for (int l = 0; l < locations.size(); l++) {
                fin.put(locations.get(l), space.value(g, g.co[l][g.co[l].length - 1]));
            }
            String m = outcome.violation(fin, List.of(g.runs));
            if (m != null) {
                found.put(outcomeProperty, new Violation(outcomeProperty, m, witness.render(g, List.of())));
            }
        }
    }

    /** Adds thread t's next write or fence (it has one), every place in co for a write. */
    private void addEvent(SearchGraph g, int t, Access a) {
        int k = g.added[t];
        if (a.kind() == Kind.FENCE) {
            SearchGraph c = new SearchGraph(g);
            c.added[t] = k + 1;
            c.rf[t] = append(g.rf[t], SearchGraph.MISSING);
            visit(c);
            return;
        }
        if (a.kind() == Kind.READ) {
            throw new IllegalStateException("thread " + t + " event " + k + ": a read the search did not give a value");
        }
        int l = space.locId(a.loc());
        int[] order = g.co[l];
        int from = 1;
        int to = order.length;
        if (a.rmwPartner() >= 0) {
            int src = g.rf[t][a.rmwPartner()];
            int at = SearchGraph.indexOf(order, src);
            from = at + 1;
            to = at + 1;
        }
        for (int p = from; p <= to; p++) {
            if (p < order.length && rmwReadsFrom(g, order[p], order[p - 1])) {
                continue; /* between an RMW's read and its write */
            }
            SearchGraph c = new SearchGraph(g);
            c.added[t] = k + 1;
            c.rf[t] = append(g.rf[t], SearchGraph.MISSING);
            int[] o = new int[order.length + 1];
            System.arraycopy(order, 0, o, 0, p);
            o[p] = SearchGraph.code(t, k);
            System.arraycopy(order, p, o, p + 1, order.length - p);
            c.co[l] = o;
            if (consistent(c) != null) {
                visit(c);
            }
            if (stop()) {
                return;
            }
        }
    }

    /** Whether event {@code w} is an RMW's write whose read read {@code src}. */
    private boolean rmwReadsFrom(SearchGraph g, int w, int src) {
        if (w < 0) {
            return false;
        }
        Access a = g.access(w);
        return a.rmwPartner() >= 0 && g.rf[w >> 8][a.rmwPartner()] == src;
    }

    /**
     * {@code c} with thread t's read reading from {@code src}: the first read of {@code run} from event k on,
     * after the fences its instruction puts before it (a fully ordered RMW's {@code F[mb]}); null if there is none.
     */
    private SearchGraph withRead(SearchGraph c, int t, int src, Run run, int k) {
        int j = k;
        while (j < run.events().size() && run.events().get(j).kind() == Kind.FENCE) {
            j++;
        }
        if (j >= run.events().size() || run.events().get(j).kind() != Kind.READ) {
            return null;
        }
        int[] rf = Arrays.copyOf(c.rf[t], j + 1);
        Arrays.fill(rf, k, j, SearchGraph.MISSING);
        rf[j] = src;
        c.rf[t] = rf;
        c.added[t] = j + 1;
        return c;
    }

    private void visit(SearchGraph c) {
        if (!seen.add(key(c))) {
            return;
        }
        graphs++;
        explore(c);
    }

    private String key(SearchGraph g) {
        StringBuilder b = new StringBuilder();
        for (int t = 0; t < threads.size(); t++) {
            b.append(g.added[t]).append(Arrays.toString(g.inputs[t])).append(Arrays.toString(g.rf[t])).append('|');
        }
        for (int[] o : g.co) {
            b.append(Arrays.toString(o));
        }
        return b.toString();
    }

    /** The LKMM verdict of the graph if it is consistent, else null (and null, noted, past {@link Rel#MAX} events). */
    private Lkmm.Verdict consistent(SearchGraph g) {
        Execution x = lkmm.build(g);
        if (x == null) {
            if (incomplete == null) {
                incomplete = "an execution needs more than " + Rel.MAX + " events (initial writes included), or a thread more than "
                        + "64: those were not explored";
            }
            return null;
        }
        Lkmm.Verdict v = Lkmm.check(x);
        return v.consistent() ? v : null;
    }

    private static long[] append(long[] a, long v) {
        long[] o = Arrays.copyOf(a, a.length + 1);
        o[a.length] = v;
        return o;
    }

    private static int[] append(int[] a, int v) {
        int[] o = Arrays.copyOf(a, a.length + 1);
        o[a.length] = v;
        return o;
    }
}
