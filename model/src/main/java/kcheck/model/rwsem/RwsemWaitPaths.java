package kcheck.model.rwsem;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The v6.12 rwsem port's functions that run with {@code sem->wait_lock} held, as runs for {@code kcheck conform
 * rwsem-owner}: {@code rwsem_mark_wake} (each wake type, called by task 0), {@code rwsem_try_write_lock} (by each
 * writer of the list) and {@code rwsem_del_wake_waiter} (by each waiter: {@code rwsem_del_waiter}, the wake of the
 * rest, the unlock and {@code wake_up_q}), on every wait list of up to {@code maxWaiters} readers and writers, the
 * first waiter's {@code handoff_set} either way; and {@code rwsem_down_read_slowpath} (S) from its entry, with each
 * count {@code rwsem_read_trylock} can hand it, uninterruptible and killable, where each acquisition of wait_lock finds
 * every wait list of up to {@link #SLOW_OTHERS} other waiters (at most {@code maxWaiters}) (with its own waiter where it is queued, or granted
 * meanwhile by a waker), through its sleep loop; and {@code rwsem_down_write_slowpath} (X) the same way, with
 * {@code need_resched()} set at its first test (its optimistic spinning, compared before wait_lock, gives up at once) and
 * either set throughout or a choice at each later test (the wait loop's handoff spin on a running owner,
 * {@code rwsem_spin_on_owner}: {@code owner_on_cpu} a choice too). They run on a concrete wait list ({@link WaitListRwSem}); every read
 * of {@code sem->count}, {@code sem->owner} and {@code jiffies} finds every value of the model's domain (2 readers and
 * 2 writers), the first value per distinct next operation in full, the others for {@code horizon} more reads (the slow path: 1
 * reader and 1 writer, at most {@link #SLOW_READS} reads branched on).
 *
 * <p>A run's text is its operations, {@code list ...} (the wait list it leaves, each waiter's type and
 * {@code handoff_set}) and {@code done}; {@code rwsem_try_write_lock}'s result comes before the list.
 */
public final class RwsemWaitPaths {

    /** One run: the driver's input (without the hash) and the port's text. */
    public record Run(String input, String text) {
    }

    /** Counts of one enumeration, per kind (M0..M2, T, D, S, X; X2 the writer's with need_resched free after its first test). */
    public static final class Stats {
        public long runs;
        public final Map<String, Long> perKind = new java.util.LinkedHashMap<>();
    }

    /** The kinds of run: mark_wake with each wake type, try_write_lock, del_wake_waiter. */
    public static final List<String> KINDS = List.of("M", "T", "D");

    /** Reads branched on in one run at most (a cmpxchg loop). */
    static final int MAX_READS = 6;
    /** The slow paths: reads (and wait lists found) branched on at most, other waiters a list holds at most. */
    static final int SLOW_READS = 6;
    static final int SLOW_OTHERS = 2;
    /**
     * The writer's slow path with need_resched free after its first test: reads branched on at most, enough to reach the
     * handoff spin's loop (the wait list, the count, the timeout, the handoff cmpxchg, a signal, then the owner twice,
     * need_resched and owner_on_cpu).
     */
    static final int SPIN_READS = 8;

    private final RwsemDomain dom = RwsemDomain.of(RwsemVariant.Encoding.BITS, 2, 2);
    /** The slow path's values: a reader (itself) and a writer, every count and owner they make. */
    private final RwsemDomain slowDom = RwsemDomain.of(RwsemVariant.Encoding.BITS, 1, 1);
    private final int horizon;
    /** Other waiters a slow path's wait list holds at most ({@link #SLOW_OTHERS}, no more than the lists of the calls). */
    private final int slowOthers;
    private final Stats stats;
    private final Consumer<Run> sink;

    private RwsemWaitPaths(int horizon, int slowOthers, Stats stats, Consumer<Run> sink) {
        this.horizon = horizon;
        this.slowOthers = slowOthers;
        this.stats = stats;
        this.sink = sink;
    }

    /** Every run for wait lists of 1 to {@code maxWaiters} waiters (at most 3): the calls under wait_lock, then the slow paths. */
    public static Stats forEach(int maxWaiters, int horizon, Stats s, Consumer<Run> sink) {
        forCalls(maxWaiters, horizon, s, sink);
        return forSlowPaths(maxWaiters, horizon, s, sink);
    }

    private static RwsemWaitPaths of(int maxWaiters, int horizon, Stats s, Consumer<Run> sink) {
        if (maxWaiters < 1 || maxWaiters > 3) {
            throw new IllegalArgumentException("wait lists of 1 to 3 waiters, not " + maxWaiters);
        }
        return new RwsemWaitPaths(horizon, Math.min(SLOW_OTHERS, maxWaiters), s, sink);
    }

    /** The runs of rwsem_mark_wake, rwsem_try_write_lock and rwsem_del_wake_waiter on every list of 1 to {@code maxWaiters}. */
    static Stats forCalls(int maxWaiters, int horizon, Stats s, Consumer<Run> sink) {
        RwsemWaitPaths p = of(maxWaiters, horizon, s, sink);
        for (int n = 1; n <= maxWaiters; n++) {
            for (int types = 0; types < 1 << n; types++) {
                for (int handoff = 0; handoff < 2; handoff++) {
                    StringBuilder spec = new StringBuilder();
                    for (int i = 0; i < n; i++) {
                        spec.append((types >>> i & 1) != 0 ? 'w' : 'r');
                        if (i == 0 && handoff == 1) {
                            spec.append('h');
                        }
                    }
                    for (int wake = 0; wake < 3; wake++) {
                        p.explore('M', wake, spec.toString(), new ArrayList<>(), Integer.MAX_VALUE);
                    }
                    for (int i = 0; i < n; i++) {
                        if ((types >>> i & 1) != 0) {
                            p.explore('T', i + 1, spec.toString(), new ArrayList<>(), Integer.MAX_VALUE);
                        }
                        p.explore('D', i + 1, spec.toString(), new ArrayList<>(), Integer.MAX_VALUE);
                    }
                }
            }
        }
        return s;
    }

    /** The runs of both slow paths from their entries, their lists of up to {@code maxWaiters} (at most 2) other waiters. */
    static Stats forSlowPaths(int maxWaiters, int horizon, Stats s, Consumer<Run> sink) {
        forReaderSlowPath(maxWaiters, horizon, s, sink);
        /* the writer's slow path from its entry (need_resched set at its first test: its spinning is compared before wait_lock;
         * id 2, 3: every later need_resched() either way, so the wait loop's handoff spin on a running owner runs too) */
        for (int id = 0; id < 4; id++) {
            forWriterSlowPath(id, maxWaiters, horizon, s, sink);
        }
        return s;
    }

    /** The runs of the reader's slow path from its entry, with each count rwsem_read_trylock can return (a reader's bias in it). */
    static Stats forReaderSlowPath(int maxWaiters, int horizon, Stats s, Consumer<Run> sink) {
        RwsemWaitPaths p = of(maxWaiters, horizon, s, sink);
        for (int c = 0; c < p.slowDom.outcomes(Op.COUNT_READ); c++) {
            long count = p.slowDom.countValue(c);
            if (RwsemBits.readers(count) == 0) {
                continue;
            }
            for (int killable = 0; killable < 2; killable++) {
                p.explore('S', killable, Long.toHexString(count), new ArrayList<>(), Integer.MAX_VALUE);
            }
        }
        return s;
    }

    /** The runs of the writer's slow path with {@code id} (bit 0: killable; 2 and 3: need_resched free after its first test). */
    static Stats forWriterSlowPath(int id, int maxWaiters, int horizon, Stats s, Consumer<Run> sink) {
        of(maxWaiters, horizon, s, sink).explore('X', id, "-", new ArrayList<>(), Integer.MAX_VALUE);
        return s;
    }

    /** The runs of one call ({@code kind} M, T or D; {@code id} the wake type or the caller's waiter) on one wait list. */
    static Stats forList(char kind, int id, String spec, int horizon, Stats s, Consumer<Run> sink) {
        new RwsemWaitPaths(horizon, SLOW_OTHERS, s, sink).explore(kind, id, spec, new ArrayList<>(), Integer.MAX_VALUE);
        return s;
    }

    /** A run of the port: the semaphore it ran on (text, list) and the reads it made. */
    private record Result(WaitListRwSem sem, WaitListRwSem.Reads reads, List<String> text) {
    }

    private Result run(char kind, int id, String spec, List<Integer> picks) {
        WaitListRwSem.Reads reads = new WaitListRwSem.Reads(picks);
        WaitListRwSem sem = kind == 'S' || kind == 'X' ? new WaitListRwSem(slowDom, reads, "", 0, others(kind, id))
                : new WaitListRwSem(dom, reads, spec, kind == 'M' ? 0 : id);
        RwsemV612 port = new RwsemV612();
        List<String> text = new ArrayList<>();
        sem.needReschedSet = kind == 'X';
        sem.needReschedFree = kind == 'X' && id >= 2;
        switch (kind) {
            case 'X' -> {
                boolean got = port.rwsemDownWriteSlowpath(sem, (id & 1) == 1 ? RwsemV612.TASK_KILLABLE : RwsemV612.TASK_UNINTERRUPTIBLE);
                sem.text.add("returns " + (got ? 1 : 0));
            }
            case 'S' -> {
                boolean got = port.rwsemDownReadSlowpath(sem, Long.parseUnsignedLong(spec, 16), id == 1 ? RwsemV612.TASK_KILLABLE
                        : RwsemV612.TASK_UNINTERRUPTIBLE);
                sem.text.add("returns " + (got ? 1 : 0));
            }
            case 'M' -> port.rwsemMarkWake(sem, id);
            case 'T' -> {
                boolean got = port.rwsemTryWriteLock(sem);
                sem.text.add("returns " + (got ? 1 : 0));
            }
            default -> port.rwsemDelWakeWaiter(sem);
        }
        text.addAll(sem.text);
        text.add(sem.listText());
        text.add("done");
        return new Result(sem, reads, text);
    }

    private void explore(char kind, int id, String spec, List<Integer> picks, int budget) {
        Result r = run(kind, id, spec, picks);
        int p = picks.size();
        if (r.reads().sizes.size() <= p || budget <= 0 || p >= readsBranched(kind, id)) {
            emit(kind, id, spec, r);
            return;
        }
        int n = r.reads().sizes.get(p);
        Set<String> next = new HashSet<>();
        for (int v = 0; v < n; v++) {
            picks.add(v);
            boolean first = next.add(segment(run(kind, id, spec, picks), p));
            int b = budget == Integer.MAX_VALUE ? (first ? budget : horizon) : first ? budget - 1 : Math.min(1, budget - 1);
            explore(kind, id, spec, picks, b);
            picks.remove(picks.size() - 1);
        }
    }

    /** Other waiters a slow path's wait list holds at most: 1 for the writer's handoff spin runs (their reads go further). */
    private int others(char kind, int id) {
        return kind == 'X' && id >= 2 ? Math.min(1, slowOthers) : slowOthers;
    }

    /** Reads branched on at most in one run of {@code kind} (then each read takes its first value). */
    private static int readsBranched(char kind, int id) {
        return kind == 'X' && id >= 2 ? SPIN_READS : kind == 'S' || kind == 'X' ? SLOW_READS : MAX_READS;
    }

    /** The operations from read {@code p} to the next read (or the end): what tells a value's place apart. */
    private static String segment(Result r, int p) {
        List<Integer> at = r.reads().at;
        int from = at.get(p);
        int to = p + 1 < at.size() ? at.get(p + 1) : r.text().size();
        return String.join(" ; ", r.text().subList(from, Math.min(to + 1, r.text().size())));
    }

    private void emit(char kind, int id, String spec, Result r) {
        stats.runs++;
        String k = kind == 'M' ? "M" + id : kind == 'X' && id >= 2 ? "X2" : String.valueOf(kind);
        stats.perKind.merge(k, 1L, Long::sum);
        List<String> entries = r.reads().entries;
        int tasks = kind == 'S' || kind == 'X' ? others(kind, id) + 1 : spec.replace("h", "").length() + 1;
        StringBuilder in = new StringBuilder().append(kind).append(' ').append(id).append(' ').append(tasks)
                .append(" -1 ").append(entries.size() + 1).append(kind == 'S' ? " c" : kind == 'X' ? " " : " L").append(spec);
        for (String e : entries) {
            in.append(' ').append(e);
        }
        sink.accept(new Run(in.toString(), String.join(" ; ", r.text())));
    }
}
