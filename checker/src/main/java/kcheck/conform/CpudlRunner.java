package kcheck.conform;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import kcheck.conform.CpudlConformance.Divergence;
import kcheck.conform.CpudlConformance.Kind;
import kcheck.conform.CpudlConformance.Op;
import kcheck.conform.CpudlConformance.Options;
import kcheck.conform.CpudlConformance.Sequence;
import kcheck.engine.DeltaDebug;
import kcheck.model.Params;
import kcheck.model.cpudl.Cpudl;
import kcheck.model.cpudl.CpudlFactory;
import kcheck.model.cpudl.CpudlHeap;
import kcheck.model.cpudl.CpudlModel;
import kcheck.model.cpudl.Cpumask;

/**
 * One {@code conform cpudl} run: the compiled C, the port, the counters and the first divergence.
 * The C is run by a {@link DriverProcess}, replaced by a fresh one after a crash or a hang; every
 * minimisation candidate gets a fresh one too, so that a C that corrupted its own memory cannot
 * decide the next candidate.
 */
final class CpudlRunner {
    /** Time minimisation may take (each hanging candidate costs a call timeout): past it, the smallest sequence found so far. */
    static final long MINIMISE_MILLIS = 60_000;

    private final CDriver program;
    private final CpudlHeap heap;
    private final Options o;
    private final StopCondition stop;
    private DriverProcess driver;
    long sequencesRun;
    long callsRun;
    long walkStates;
    long walkCalls;
    Divergence divergence;
    /** Why the run stopped before its end (time limit, signal), or null. */
    String stopped;

    CpudlRunner(CDriver program, CpudlHeap heap, Options o, StopCondition stop) {
        this.program = program;
        this.heap = heap;
        this.o = o;
        this.stop = stop;
    }

    /** The generated sequences, then (unless a divergence or a stop came first) the walk. */
    void run() throws IOException {
        try {
            sequences();
            if (divergence == null && o.walk() && !timeUp()) {
                walk();
            }
        } catch (DriverProcess.Stopped e) {
            stopped = e.getMessage();
        } finally {
            if (driver != null) {
                driver.close();
            }
        }
    }

    private boolean timeUp() {
        String reason = stop.reason();
        if (reason != null && stopped == null) {
            stopped = reason;
        }
        return stopped != null;
    }

    /** The C's answers to {@code commands} ({@code expected} lines), from the live driver (started afresh if the last one died). */
    private DriverProcess.Answers answers(List<String> commands, int expected) throws IOException, DriverProcess.Stopped {
        CDriver.log(commands);
        if (driver == null || !driver.alive()) {
            if (driver != null) {
                driver.close();
            }
            driver = program.start(stop);
        }
        return driver.run(commands, expected, o.callTimeoutMillis(), stop);
    }

    /**
     * Where the C's answers first differ from the port's lines: a different line (the heap, or the
     * driver's report of a write outside an array), or the end of the answers (a hang or a crash).
     *
     * @param index the line (command) where they differ
     * @param c     the C's line there, or what happened instead ("crashed with SIGSEGV")
     */
    record Difference(int index, Kind kind, String c, String java) {
    }

    /** The first difference of {@code c} (answers {@code from..from+java.size()} of a batch) from {@code java}, or null. */
    static Difference compare(DriverProcess.Answers c, int from, List<String> java) {
        for (int i = 0; i < java.size(); i++) {
            if (from + i >= c.lines().size()) {
                DriverProcess.Fault f = c.fault();
                return new Difference(i, f.kind() == DriverProcess.Fault.Kind.HANG ? Kind.HANG : Kind.CRASH, f.what(), java.get(i));
            }
            String line = c.lines().get(from + i);
            if (!line.equals(java.get(i))) {
                return line.startsWith("!") ? new Difference(i, Kind.MEMORY, line.substring(1), java.get(i))
                        : new Difference(i, Kind.STATE, line, java.get(i));
            }
        }
        return null;
    }

    private void sequences() throws IOException, DriverProcess.Stopped {
        SplittableRandom r = new SplittableRandom(o.seed());
        List<Sequence> batch = new ArrayList<>();
        int commands = 0;
        for (int i = 0; i < o.sequences(); i++) {
            Sequence s = CpudlConformance.generate(r, o.maxCalls());
            batch.add(s);
            for (String cmd : s.commands()) {
                commands += cmd.length() + 1;
            }
            if (commands >= 30_000 || i == o.sequences() - 1) {
                if (!runBatch(batch) || timeUp()) {
                    return;
                }
                batch.clear();
                commands = 0;
            }
        }
    }

    private boolean runBatch(List<Sequence> batch) throws IOException, DriverProcess.Stopped {
        List<String> all = new ArrayList<>();
        for (Sequence s : batch) {
            all.addAll(s.commands());
        }
        /* commands stay below a pipe's capacity, so writing them never waits for the driver */
        DriverProcess.Answers c = answers(all, all.size());
        int at = 0;
        for (Sequence s : batch) {
            List<String> java = CpudlConformance.javaLines(heap, s);
            Difference d = compare(c, at, java);
            at += java.size();
            sequencesRun++;
            callsRun += s.ops().size();
            if (d != null) {
                divergence = minimise("generated sequence " + sequencesRun + " (seed " + o.seed() + ")", s, d);
                return false;
            }
        }
        return true;
    }

    /** Runs {@code s} on a fresh driver: its first difference from the port, or null. */
    private Difference replay(Sequence s, StopCondition st) throws IOException, DriverProcess.Stopped {
        List<String> cmds = s.commands();
        CDriver.log(cmds);
        try (DriverProcess d = program.start(st)) {
            return compare(d.run(cmds, cmds.size(), o.callTimeoutMillis(), st), 0, CpudlConformance.javaLines(heap, s));
        }
    }

    /**
     * Delta debugging over the calls of {@code s}, whose first difference is {@code first}: a
     * candidate is kept if it fails in the same way (a hang stays a hang), each on a fresh driver,
     * within {@link #MINIMISE_MILLIS} and the run's own limit (past them: the smallest so far).
     */
    private Divergence minimise(String source, Sequence s, Difference first) throws IOException {
        if (first.index() < s.commandOf(0)) {
            /* cpudl_init (or setting the capacities) differs: no call of the sequence has run yet */
            Sequence none = s.with(List.of());
            Difference again = sameKind(first, () -> replay(none, stop));
            return divergence(source, s, none, again != null ? again : first, again != null);
        }
        StopCondition budget = stop.within(MINIMISE_MILLIS, "minimisation budget");
        Difference[] kept = {first};
        IOException[] failure = new IOException[1];
        List<Op> min = DeltaDebug.minimise(s.ops(), sub -> {
            if (failure[0] != null || budget.reason() != null) {
                return false;
            }
            try {
                Difference d = sameKind(first, () -> replay(s.with(sub), budget));
                kept[0] = d != null ? d : kept[0];
                return d != null;
            } catch (IOException e) {
                failure[0] = e;
                return false;
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
        if (kept[0] == first) {
            /* no smaller sequence failed the same way: does this one, on a fresh driver? */
            Difference again = sameKind(first, () -> replay(s, stop));
            return divergence(source, s, s, again != null ? again : first, again != null);
        }
        return divergence(source, s, s.with(min), kept[0], true);
    }

    /** What {@code run} gives, if it fails the way {@code first} did; null if not (or if stopped: nothing confirmed). */
    private static Difference sameKind(Difference first, Replay run) throws IOException {
        try {
            Difference d = run.get();
            return d != null && d.kind() == first.kind() ? d : null;
        } catch (DriverProcess.Stopped e) {
            return null;
        }
    }

    @FunctionalInterface
    private interface Replay {
        Difference get() throws IOException, DriverProcess.Stopped;
    }

    private static Divergence divergence(String source, Sequence original, Sequence m, Difference d, boolean reproduced) {
        int op = d.index() - m.commandOf(0);
        String call = op >= 0 ? (op + 1) + ". " + m.ops().get(op) : "cpudl_init(" + m.cpus() + ")";
        return new Divergence(source, original, m, d.kind(), Math.max(0, op + 1), call, d.c(), d.java(), reproduced);
    }

    /** Walks every state the model reaches at its default bounds and every call it offers there. */
    private void walk() throws IOException, DriverProcess.Stopped {
        Map<String, String> p = new LinkedHashMap<>(o.walkParams());
        CpudlFactory f = new CpudlFactory();
        Params params = f.params(p);
        CpudlModel m = (CpudlModel) f.create("conform", heap, params, Set.of("find-sound"));
        int n = params.integer("cpus");
        ArrayDeque<long[]> queue = new ArrayDeque<>();
        Set<Key> seen = new HashSet<>();
        Set<String> loaded = new HashSet<>();
        Set<String> finds = new HashSet<>();
        m.initial(s -> {
            if (seen.add(new Key(s.clone()))) {
                queue.add(s.clone());
            }
        });
        Walk w = new Walk(m, n);
        w.pending.add("I " + n);
        w.expected.add(CpudlConformance.javaLines(heap, new Sequence(n, null, List.of())).get(0));
        w.origin.add(null);
        while (!queue.isEmpty()) {
            if (timeUp()) {
                return;
            }
            long[] s = queue.poll();
            walkStates++;
            m.successors(s, (actor, action, next) -> {
                if (seen.add(new Key(next.clone()))) {
                    queue.add(next.clone());
                }
            });
            Cpudl base = m.heapOf(s);
            String load = loadCommand(base, n);
            List<Op> ops = new ArrayList<>();
            String signature = stateSignature(m, s);
            boolean fresh = loaded.add(load + signature);
            m.calls(s, (kind, cpu, dl, flag, task) -> {
                if (kind == 4) {
                    /* cpudl_find reads elements[0], size, free_cpus and the capacities only */
                    String key = base.cpu(0) + ":" + base.dl(0) + ":" + base.size + ":" + base.freeCpus.toHex() + ":" + signature + ":" + task;
                    if (finds.add(key)) {
                        ops.add(new Op('Q', task.cpu, task.deadline, false, task.cpusMask.low64(), task.dlDensity));
                    }
                } else if (fresh) {
                    ops.add(callOp(kind, cpu, dl, flag));
                }
            });
            if (ops.isEmpty()) {
                continue;
            }
            w.pending.add(load);
            w.pendingBytes += load.length() + 1;
            for (Op op : ops) {
                String cmd = op.command();
                w.pending.add("B");
                w.pending.add(cmd);
                w.pendingBytes += cmd.length() + 3;
                w.expected.add(CpudlConformance.apply(heap, m.heapOf(s), op, new Cpumask(n)));
                w.origin.add(new Origin(s, op));
            }
            if (w.pendingBytes > 40_000 && !w.flush()) {
                return;
            }
        }
        w.flush();
    }

    private static Op callOp(int kind, int cpu, long dl, boolean flag) {
        return switch (kind) {
            case 0 -> new Op('S', cpu, dl, false, 0, 0);
            case 1 -> new Op('R', cpu, 0, flag, 0, 0);
            case 2 -> new Op('F', cpu, 0, false, 0, 0);
            default -> new Op('N', cpu, dl, flag, 0, 0);
        };
    }

    /** A walk's answer: the state it was loaded from and the call made there (null for the walk's cpudl_init). */
    private record Origin(long[] state, Op op) {
    }

    /** The walk's batch: commands for the driver (at most ~40 KB, below a pipe's capacity), the port's answers, their origin. */
    private final class Walk {
        final CpudlModel m;
        final int n;
        final List<String> pending = new ArrayList<>();
        final List<String> expected = new ArrayList<>();
        final List<Origin> origin = new ArrayList<>();
        int pendingBytes;

        Walk(CpudlModel m, int n) {
            this.m = m;
            this.n = n;
        }

        /** Sends the batch; false (with the divergence set) if the C differs. */
        boolean flush() throws IOException, DriverProcess.Stopped {
            if (expected.isEmpty()) {
                return true;
            }
            DriverProcess.Answers c = answers(pending, expected.size());
            try {
                Difference d = compare(c, 0, expected);
                int compared = d == null ? expected.size() : d.index() + 1;
                walkCalls += compared - (origin.get(0) == null ? 1 : 0); /* the walk's cpudl_init is no call of the model */
                if (d != null) {
                    Origin at = origin.get(d.index());
                    Sequence none = new Sequence(n, null, List.of());
                    divergence = at == null ? minimise("model walk: cpudl_init(" + n + ")", none, d)
                            : walkDivergence(m, at.state(), at.op(), d, n);
                    return false;
                }
                return true;
            } finally {
                pending.clear();
                expected.clear();
                origin.clear();
                pendingBytes = 0;
            }
        }
    }

    /** A divergence found by the walk: the model's shortest path to the state, plus the call, minimised. */
    private Divergence walkDivergence(CpudlModel m, long[] s, Op op, Difference d, int n) throws IOException {
        Sequence direct = new Sequence(n, null, List.of(op));
        String source = "model walk: model state " + m.heapOf(s) + ", call " + op;
        List<Op> path = pathTo(m, s);
        if (path != null) {
            List<Op> all = new ArrayList<>(path);
            all.add(op);
            Sequence seq = new Sequence(n, null, all);
            Difference replayed;
            try {
                replayed = replay(seq, stop);
            } catch (DriverProcess.Stopped e) {
                replayed = null; /* stopped: the divergence as the walk saw it */
            }
            if (replayed != null) {
                return minimise(source, seq, replayed);
            }
        }
        Difference again = sameKind(d, () -> replayLoaded(m.heapOf(s), op, n, d.java()));
        Difference shown = again != null ? again : d;
        return new Divergence(source, direct, direct, d.kind(), 1, "1. " + op + " on the loaded state", shown.c(), shown.java(),
                again != null);
    }

    /** Loads {@code heap} into a fresh driver and makes the call {@code op} there: its difference from {@code java}, or null. */
    private Difference replayLoaded(Cpudl heap, Op op, int n, String java) throws IOException, DriverProcess.Stopped {
        List<String> cmds = List.of("I " + n, loadCommand(heap, n), op.command());
        CDriver.log(cmds);
        try (DriverProcess d = program.start(stop)) {
            String init = CpudlConformance.javaLines(this.heap, new Sequence(n, null, List.of())).get(0);
            return compare(d.run(cmds, 2, o.callTimeoutMillis(), stop), 0, List.of(init, java));
        }
    }

    /** The model's shortest path of calls from cpudl_init to {@code target} (BFS over the model's calls), or null. */
    private static List<Op> pathTo(CpudlModel m, long[] target) {
        record Node(long[] s, Node parent, Op op) {
        }
        ArrayDeque<Node> q = new ArrayDeque<>();
        Set<Key> seen = new HashSet<>();
        m.initial(s -> {
            q.add(new Node(s.clone(), null, null));
            seen.add(new Key(s.clone()));
        });
        while (!q.isEmpty()) {
            Node x = q.poll();
            if (Arrays.equals(x.s(), target)) {
                List<Op> out = new ArrayList<>();
                for (Node y = x; y.op() != null; y = y.parent()) {
                    out.add(0, y.op());
                }
                return out;
            }
            List<Op> ops = new ArrayList<>();
            m.calls(x.s(), (kind, cpu, dl, flag, task) -> {
                if (kind != 4) {
                    ops.add(callOp(kind, cpu, dl, flag));
                }
            });
            /* calls() enumerates the same steps as successors(), in the same order, finds last */
            int[] i = {0};
            m.successors(x.s(), (actor, action, next) -> {
                int k = i[0]++;
                if (k < ops.size() && seen.add(new Key(next.clone()))) {
                    q.add(new Node(next.clone(), x, ops.get(k)));
                }
            });
        }
        return null;
    }

    /** What decides the calls offered at a state beyond its heap: the runqueues' states and deadlines. */
    private static String stateSignature(CpudlModel m, long[] s) {
        StringBuilder b = new StringBuilder("|");
        m.decode(s, (owner, field, value) -> {
            if (field.equals("runqueues") || field.equals("capacity")) {
                b.append(value);
            }
        });
        return b.toString();
    }

    /** The driver's load command for a heap: size, every slot, every idx, free_cpus. */
    static String loadCommand(Cpudl cp, int n) {
        StringBuilder b = new StringBuilder("L ").append(cp.size);
        for (int h = 0; h < n; h++) {
            b.append(' ').append(cp.cpu(h)).append(' ').append(Long.toUnsignedString(cp.dl(h)));
        }
        for (int x = 0; x < n; x++) {
            b.append(' ').append(cp.idx(x));
        }
        return b.append(' ').append(cp.freeCpus.toHex()).toString();
    }

    private record Key(long[] s) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(k.s, s);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(s);
        }
    }
}
