package kcheck.conform;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

import kcheck.engine.Durations;
import kcheck.model.cpudl.Cpudl;
import kcheck.model.cpudl.CpudlBugs;
import kcheck.model.cpudl.CpudlHeap;
import kcheck.model.cpudl.CpudlV612;
import kcheck.model.cpudl.Cpumask;
import kcheck.model.cpudl.Deadlines;
import kcheck.model.cpudl.DlTask;

/**
 * {@code kcheck conform cpudl}: the kernel's own {@code kernel/sched/cpudeadline.c}, compiled
 * with gcc against kcheck's shim, and the Java port of the same version run the same call
 * sequences; after every call heap, idx, size, free_cpus (and a find's return value and
 * later_mask) must be identical. Sequences are generated from a printed seed over u64 edge
 * domains, with CPUs going offline and online and asymmetric capacities; then the exhaustive
 * model's transitions at its default bounds (hotplug on) are walked through both. The first
 * divergence stops the run and is minimised by delta debugging.
 */
public final class CpudlConformance {
    /** Largest CPU count of a generated sequence (masks are carried in a {@code long}). */
    static final int MAX_CPUS = 64;
    private static final int[] CPU_COUNTS = {1, 2, 3, 4, 5, 7, 8, 16, 33, 64};
    private static final long TWO_63 = Long.MIN_VALUE;
    private static final long[] EDGES = {0L, 1L, 2L, 3L, TWO_63 - 1, TWO_63, TWO_63 + 1, TWO_63 + 2, -1L, -2L};
    private static final long[] CLOCKS = {0L, 1L, TWO_63 - 1, TWO_63, TWO_63 + 1, -1L, TWO_63 - (1L << 31), -(1L << 31)};
    private static final long[] DENSITIES = {0L, 1L << 18, 1L << 19, 3L << 18, 1L << 20, (1L << 20) + 1};
    private static final long[] CAPACITIES = {160, 512, 1024};

    private CpudlConformance() {
    }

    /** No port of kcheck follows the tree's cpudeadline.c. */
    public static final class NoPortException extends Exception {
        private static final long serialVersionUID = 1L;

        public NoPortException(String message) {
            super(message);
        }
    }

    /**
     * The Java port a tree is compared with.
     *
     * @param name        the variant name ({@code v6.12}, {@code bug-382748c05e58})
     * @param clearOnline the tree's {@code cpudl_clear()} takes the runqueue's online state
     * @param why         one line: why this port applies
     */
    public record Port(String name, CpudlHeap heap, boolean clearOnline, String why) {
    }

    /**
     * Maps a tree to a port. v6.1 and v6.12 have the same cpudeadline.c except the capacity
     * accessor of the fallback ({@code capacity_orig_of()} in v6.1, {@code arch_scale_cpu_capacity()}
     * in v6.12, the same value): both use the v6.12 port. Within them, the tree's
     * {@code cpudl_clear()} decides: with the {@code online} argument (6.1.y/6.12.y stable with fix
     * 382748c05e58) the v6.12 port, without it the port of v6.12 before that fix.
     */
    public static Port portFor(KernelTree tree) throws NoPortException, KernelTree.TreeException {
        Path c = tree.file("kernel/sched/cpudeadline.c");
        Path h = tree.file("kernel/sched/cpudeadline.h");
        if (!Files.isReadable(c) || !Files.isReadable(h)) {
            throw new KernelTree.TreeException("kernel tree " + tree.dir() + " has no readable kernel/sched/cpudeadline.c and cpudeadline.h");
        }
        if (!(tree.major() == 6 && (tree.minor() == 1 || tree.minor() == 12))) {
            throw new NoPortException("no cpudl port matches kernel " + tree.version() + " (conform cpudl has ports of v6.1 and v6.12; "
                    + "give --kernel-version 6.12 to compare this tree with the v6.12 port anyway)");
        }
        String src;
        try {
            src = Files.readString(c, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new KernelTree.TreeException("cannot read " + c + ": " + e.getMessage());
        }
        if (src.replaceAll("\\s+", " ").contains("void cpudl_clear(struct cpudl *cp, int cpu, bool online)")) {
            return new Port("v6.12", new CpudlV612(), true, "v" + tree.series() + " cpudeadline.c with cpudl_clear(cp, cpu, online): the "
                    + "v6.12 port" + (tree.minor() == 1 ? " (v6.1 differs only in reading the capacity with capacity_orig_of())" : ""));
        }
        return new Port("bug-382748c05e58", new CpudlBugs.OnlyFreeWhenOnline(), false, "v" + tree.series()
                + " cpudeadline.c without the online argument of cpudl_clear(): the port of v6.12 before fix 382748c05e58");
    }

    /** One call of a sequence (see the driver's command list). */
    public record Op(char kind, int cpu, long dl, boolean flag, long mask, long density) {
        String command() {
            return switch (kind) {
                case 'S' -> "S " + cpu + " " + Long.toUnsignedString(dl);
                case 'R' -> "R " + cpu + " " + (flag ? 1 : 0);
                case 'N' -> "N " + cpu + " " + (flag ? 1 : 0) + " " + Long.toUnsignedString(dl);
                case 'F' -> "F " + cpu;
                default -> "Q " + Long.toUnsignedString(dl) + " " + Long.toHexString(mask) + " " + cpu + " " + density;
            };
        }

        @Override
        public String toString() {
            return switch (kind) {
                case 'S' -> "cpudl_set(cpu=" + cpu + ", dl=" + Deadlines.format(dl) + ")";
                case 'R' -> "cpudl_clear(cpu=" + cpu + ", online=" + (flag ? 1 : 0) + ")";
                case 'N' -> "rq_online_dl(cpu=" + cpu + (flag ? ", earliest_dl=" + Deadlines.format(dl) : ", no deadline task") + ")";
                case 'F' -> "rq_offline_dl(cpu=" + cpu + ")";
                default -> "cpudl_find(dl=" + Deadlines.format(dl) + ", cpus_mask=0x" + Long.toHexString(mask) + ", task_cpu=" + cpu
                        + ", dl_density=" + DlTask.densityName(density) + ")";
            };
        }
    }

    /** A generated sequence: CPU count, capacities (null: all 1024) and calls. */
    public record Sequence(int cpus, long[] capacities, List<Op> ops) {
        Sequence with(List<Op> other) {
            return new Sequence(cpus, capacities, other);
        }

        List<String> commands() {
            List<String> out = new ArrayList<>(ops.size() + 2);
            out.add("I " + cpus);
            if (capacities != null) {
                StringBuilder b = new StringBuilder("K");
                for (long c : capacities) {
                    b.append(' ').append(c);
                }
                out.add(b.toString());
            }
            for (Op o : ops) {
                out.add(o.command());
            }
            return out;
        }

        /** Index in {@link #commands()} of op {@code i}. */
        int commandOf(int i) {
            return i + (capacities != null ? 2 : 1);
        }
    }

    /** How the C differs from the port at a call. */
    public enum Kind {
        /** it returned with a different heap, idx, size, free_cpus or find result */
        STATE,
        /** it did not return within the call timeout */
        HANG,
        /** the driver ended in it (a signal: SIGSEGV, SIGABRT, ...) */
        CRASH,
        /** it wrote outside an array it allocated (over the guards kcheck's shim puts around each) */
        MEMORY
    }

    /**
     * The first divergence: the generated (or walked) sequence, its minimised form, how and at
     * which call they differ ({@code at}: 1-based in the minimised sequence, 0 for cpudl_init),
     * the C's and the port's output there (for a hang or a crash, the C's is what happened), and
     * whether a run on a fresh driver did the same (false: seen in the run's own driver only, or the
     * run was stopped before it could be replayed).
     */
    public record Divergence(String source, Sequence original, Sequence minimised, Kind kind, int at, String call, String c, String java,
                             boolean reproduced) {
        /** One line: "the C crashed with SIGSEGV at call 3". */
        public String summary() {
            String where = at == 0 ? "in cpudl_init(" + minimised.cpus() + ")" : "at call " + at;
            String what = switch (kind) {
                case STATE -> "the C and the port differ after " + (at == 0 ? "cpudl_init(" + minimised.cpus() + ")" : "call " + at);
                case HANG, CRASH -> "the C " + c + " " + where;
                case MEMORY -> c + " " + where;
            };
            return reproduced ? what : what + " (not confirmed on a fresh driver)";
        }
    }

    /**
     * Options of a run.
     *
     * @param seed              the seed of the generated sequences
     * @param sequences         how many sequences
     * @param maxCalls          calls per sequence (each sequence has 1..maxCalls)
     * @param walk              also walk the exhaustive model's transitions
     * @param walkParams        the model's parameters for the walk (its defaults, hotplug on)
     * @param timeLimitMillis   stop (INCOMPLETE) after this long; 0 = no limit
     * @param callTimeoutMillis a call of the C that has not returned after this long is a divergence (a hang)
     * @param stopRequested     polled while running: non-null asks the run to stop, with the reason (a signal)
     */
    public record Options(long seed, int sequences, int maxCalls, boolean walk, Map<String, String> walkParams, long timeLimitMillis,
                          long callTimeoutMillis, Supplier<String> stopRequested) {
        /**
         * The call timeout: a call takes microseconds. A loaded machine can leave the driver
         * without a CPU for most of a second; {@link DriverProcess} takes that into account.
         */
        public static final long CALL_TIMEOUT_MILLIS = 1000;

        /** Options with the default call timeout, stopped by the time limit only. */
        public Options(long seed, int sequences, int maxCalls, boolean walk, Map<String, String> walkParams, long timeLimitMillis) {
            this(seed, sequences, maxCalls, walk, walkParams, timeLimitMillis, CALL_TIMEOUT_MILLIS, () -> null);
        }

        public static Options defaults(long seed) {
            return new Options(seed, 20_000, 40, true, Map.of("hotplug", "on"), 0);
        }
    }

    /**
     * The outcome.
     *
     * @param stopped why the run stopped before its end (the time limit, a signal), or null
     */
    public record Result(KernelTree tree, Port port, long seed, long sequences, long calls, long walkStates, long walkCalls,
                         Divergence divergence, String stopped, double seconds) {
        public long disagreements() {
            return divergence == null ? 0 : 1;
        }

        /** Every sequence and the walk ran (or a divergence ended the run). */
        public boolean complete() {
            return stopped == null;
        }
    }

    /** The tree's cpudeadline.c compiled into the conform driver, for the port's cpudl_clear signature. */
    static CDriver compile(KernelTree tree, Port port, StopCondition stop) throws CDriver.CompileException, IOException, DriverProcess.Stopped {
        String cFile = tree.file("kernel/sched/cpudeadline.c").toAbsolutePath().toString();
        String hFile = tree.file("kernel/sched/cpudeadline.h").toAbsolutePath().toString();
        for (String f : List.of(cFile, hFile)) {
            if (f.contains("\"") || f.contains("\\")) {
                throw new CDriver.CompileException("cannot compile " + f + ": its path contains a quote or a backslash");
            }
        }
        List<String> defines = new java.util.ArrayList<>(List.of("KCHECK_CPUDEADLINE_C=\"" + cFile + "\"", "KCHECK_CPUDEADLINE_H=\"" + hFile
                + "\"", "KCHECK_CLEAR_ONLINE=" + (port.clearOnline() ? 1 : 0)));
        if (!helpersFromTree(tree)) {
            return CDriver.compile(List.of("cpudl/kcheck_driver.c", "cpudl/kcheck_shim.h"), defines, stop);
        }
        Path helpers = kcheck.engine.ScratchDirs.create("kcheck-cpudl-helpers-");
        try {
            Path h = helpers.resolve("kcheck_tree_helpers.h");
            Files.writeString(h, treeHelpers(tree));
            defines.add("KCHECK_TREE_HELPERS=\"" + h.toAbsolutePath() + "\"");
            return CDriver.compile(List.of("cpudl/kcheck_driver.c", "cpudl/kcheck_shim.h"), defines, stop);
        } finally {
            kcheck.engine.ScratchDirs.release(helpers);
        }
    }

    /** Whether the tree has the kernel/sched/sched.h the helpers come from (a real tree does; a tree of two files made by hand does not). */
    public static boolean helpersFromTree(KernelTree tree) {
        return Files.isReadable(tree.file("kernel/sched/sched.h"));
    }

    /** The tree's helpers cpudeadline.c calls that have a meaning in user space: dl_task_fits_capacity (kernel/sched/sched.h), by parsing. */
    static final List<String> TREE_HELPERS = List.of("dl_task_fits_capacity");

    /** The tree's own definitions of {@link #TREE_HELPERS}, with their #if conditions and #line directives. */
    static String treeHelpers(KernelTree tree) throws IOException, CDriver.CompileException {
        Path sched = tree.file("kernel/sched/sched.h");
        String src;
        try {
            src = Files.readString(sched, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CDriver.CompileException("cannot read " + sched + " (cpudeadline.c's helpers come from it): " + e.getMessage());
        }
        StringBuilder b = new StringBuilder("/* taken by kcheck from " + sched + " */\n");
        CFunctions parsed = CFunctions.parse("kernel/sched/sched.h", src);
        for (String name : TREE_HELPERS) {
            try {
                for (CFunctions.Definition d : parsed.require(name)) {
                    b.append(d.emit());
                }
            } catch (CFunctions.NotFoundException e) {
                throw new CDriver.CompileException(e.getMessage());
            }
        }
        return b.toString();
    }

    /** Compiles the tree's cpudeadline.c and runs the comparison. */
    public static Result run(KernelTree tree, Port port, Options o, PrintStream log)
            throws CDriver.CompileException, IOException {
        long t0 = System.nanoTime();
        StopCondition stop = StopCondition.NEVER.withRequests(o.stopRequested());
        if (o.timeLimitMillis() > 0) {
            String limit = Durations.format(Duration.ofMillis(o.timeLimitMillis()));
            stop = stop.within(o.timeLimitMillis(), "the time limit (" + limit + ") was hit first");
        }
        CDriver c;
        try {
            c = compile(tree, port, stop);
        } catch (DriverProcess.Stopped e) {
            return new Result(tree, port, o.seed(), 0, 0, 0, 0, null, e.getMessage(), (System.nanoTime() - t0) / 1e9);
        }
        try (c) {
            CpudlRunner r = new CpudlRunner(c, port.heap(), o, stop);
            r.run();
            if (log != null) {
                log.flush();
            }
            return new Result(tree, port, o.seed(), r.sequencesRun, r.callsRun, r.walkStates, r.walkCalls, r.divergence,
                    r.divergence != null ? null : r.stopped, (System.nanoTime() - t0) / 1e9);
        }
    }

    /** The lines the Java port prints for a sequence (what the driver prints for it). */
    static List<String> javaLines(CpudlHeap heap, Sequence s) {
        List<String> out = new ArrayList<>();
        Cpudl cp = Cpudl.init(s.cpus());
        for (int c = 0; c < s.cpus(); c++) {
            heap.rqOnlineDl(cp, c, false, 0);
        }
        out.add(state(cp));
        if (s.capacities() != null) {
            cp.setCapacities(s.capacities());
            out.add(state(cp));
        }
        Cpumask later = new Cpumask(s.cpus());
        for (Op op : s.ops()) {
            out.add(apply(heap, cp, op, later));
        }
        return out;
    }

    static String apply(CpudlHeap heap, Cpudl cp, Op op, Cpumask later) {
        switch (op.kind()) {
            case 'S' -> heap.set(cp, op.cpu(), op.dl());
            case 'R' -> heap.clear(cp, op.cpu(), op.flag());
            case 'N' -> heap.rqOnlineDl(cp, op.cpu(), op.flag(), op.dl());
            case 'F' -> heap.rqOfflineDl(cp, op.cpu());
            default -> {
                Cpumask allowed = new Cpumask(cp.nrCpus());
                allowed.setLow64(op.mask());
                later.clearAll();
                int ret = heap.find(cp, new DlTask(op.dl(), allowed, op.cpu(), op.density()), later);
                return state(cp) + " find=" + ret + " mask=" + later.toHex();
            }
        }
        return state(cp);
    }

    /** {@code size=S heap=c:d,.. idx=i,.. free=HEX}, as the driver prints it. */
    static String state(Cpudl cp) {
        StringBuilder b = new StringBuilder("size=").append(cp.size).append(" heap=");
        for (int h = 0; h < cp.size; h++) {
            b.append(h == 0 ? "" : ",").append(cp.cpu(h)).append(':').append(Long.toUnsignedString(cp.dl(h)));
        }
        b.append(" idx=");
        for (int x = 0; x < cp.nrCpus(); x++) {
            b.append(x == 0 ? "" : ",").append(cp.idx(x));
        }
        return b.append(" free=").append(cp.freeCpus.toHex()).toString();
    }

    /** One generated sequence: CPUs going offline and online, deadlines at the u64 edges and around a clock anywhere in u64. */
    static Sequence generate(SplittableRandom r, int maxCalls) {
        int n = CPU_COUNTS[r.nextInt(CPU_COUNTS.length)];
        long[] caps = null;
        if (r.nextBoolean()) {
            caps = new long[n];
            for (int c = 0; c < n; c++) {
                caps[c] = CAPACITIES[r.nextInt(CAPACITIES.length)];
            }
        }
        long clock = r.nextInt(3) == 0 ? r.nextLong() : CLOCKS[r.nextInt(CLOCKS.length)];
        boolean[] online = new boolean[n];
        Arrays.fill(online, true);
        boolean[] busy = new boolean[n];
        long[] earliest = new long[n];
        int len = 1 + r.nextInt(maxCalls);
        List<Op> ops = new ArrayList<>(len);
        for (int i = 0; i < len; i++) {
            int cpu = r.nextInt(n);
            int k = r.nextInt(20);
            if (k < 9) {
                long dl = deadline(r, clock);
                for (int t = 0; t < 20 && !windowed(busy, earliest, cpu, dl); t++) {
                    dl = t < 10 ? deadline(r, clock) : clock + r.nextLong(1L << 32);
                }
                if (!windowed(busy, earliest, cpu, dl)) {
                    continue;
                }
                busy[cpu] = true;
                earliest[cpu] = dl;
                ops.add(new Op('S', cpu, dl, false, 0, 0));
            } else if (k < 12) {
                busy[cpu] = false;
                ops.add(new Op('R', cpu, 0, online[cpu], 0, 0));
            } else if (k < 14) {
                if (online[cpu]) {
                    online[cpu] = false;
                    ops.add(new Op('F', cpu, 0, false, 0, 0));
                } else {
                    online[cpu] = true;
                    ops.add(new Op('N', cpu, busy[cpu] ? earliest[cpu] : 0, busy[cpu], 0, 0));
                }
            } else {
                long mask = switch (r.nextInt(4)) {
                    case 0 -> n == 64 ? -1L : (1L << n) - 1;
                    case 1 -> 1L << r.nextInt(n);
                    case 2 -> (n == 64 ? -1L : (1L << n) - 1) & ~(1L << r.nextInt(n));
                    default -> r.nextLong() & (n == 64 ? -1L : (1L << n) - 1);
                };
                if (mask == 0) {
                    mask = 1L << r.nextInt(n);
                }
                long density = r.nextInt(4) == 0 ? r.nextLong(1L << 21) : DENSITIES[r.nextInt(DENSITIES.length)];
                ops.add(new Op('Q', r.nextInt(n), deadline(r, clock), false, mask, density));
            }
        }
        return new Sequence(n, caps, ops);
    }

    /**
     * The kernel's assumption (and the model's): the deadlines of the runqueues lie within one
     * window [b, b + 2^63). Outside it dl_time_before() is not an order (two keys 2^63 apart are
     * each "before" the other), and v6.12's cpudl_clear() can then index elements[-1]: a
     * generated sequence never leaves it. True if setting {@code cpu}'s deadline to {@code dl}
     * keeps the deadlines in one window.
     */
    static boolean windowed(boolean[] busy, long[] earliest, int cpu, long dl) {
        for (int b = -1; b < busy.length; b++) {
            if (b >= 0 && (!busy[b] || b == cpu)) {
                continue;
            }
            long base = b < 0 ? dl : earliest[b];
            boolean all = dl - base >= 0;
            for (int x = 0; x < busy.length && all; x++) {
                all = !busy[x] || x == cpu || earliest[x] - base >= 0;
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    private static long deadline(SplittableRandom r, long clock) {
        int k = r.nextInt(10);
        if (k < 3) {
            return EDGES[r.nextInt(EDGES.length)];
        }
        long offset = r.nextInt(5) == 0 ? EDGES[r.nextInt(EDGES.length)] : r.nextLong(1L << 32);
        return clock + offset;
    }
}
