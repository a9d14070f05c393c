package kcheck.conform;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import kcheck.cli.ExitCodes;
import kcheck.cli.Interrupts;
import kcheck.cli.UsageException;
import kcheck.engine.Durations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kcheck conform cpudl --kernel-tree DIR}: compiles the tree's
 * kernel/sched/cpudeadline.c against kcheck's shim and compares it with the Java port of that
 * version, call by call. Exit codes: 0 they agree, 1 a divergence (printed, minimised; a call of
 * the C that hangs, crashes or writes outside an array is one too), 2 the tree cannot be read or
 * compiled, or has no port (one line; the compiler's message), 3 the time limit or a signal
 * (SIGINT, SIGTERM) came first.
 */
@Command(name = "conform", mixinStandardHelpOptions = true, description = "Compare a model's Java port with the kernel's own C, compiled from a kernel tree.")
public final class ConformCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "MODEL", description = "cpudl, lb-redo, rq-lock or rwsem-owner")
    String model;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--cpus", paramLabel = "N", description = "rq-lock: compare the double_lock_balance family at 2..N CPUs (default 4)")
    Integer cpus;

    @Option(names = "--lock-cpus", paramLabel = "N", description = "rq-lock: compare qspinlock.c with N CPUs (default 2; 0: not at all)")
    Integer lockCpus;

    @Option(names = "--readers", paramLabel = "N", description = "rwsem-owner: the model's readers, whose count and owner values the "
            + "reads find (default 1)")
    Integer readers;

    @Option(names = "--writers", paramLabel = "N", description = "rwsem-owner: the model's writers (default 1)")
    Integer writers;

    @Option(names = "--horizon", paramLabel = "N", description = "rwsem-owner: operations compared after a value the port treats like "
            + "another (default 3)")
    Integer horizon;

    @Option(names = "--waiters", paramLabel = "N", description = "rwsem-owner: the functions under wait_lock are compared on every "
            + "wait list of 1 to N readers and writers (default 3; 0: not compared)")
    Integer waiters;

    @Option(names = "--max-ops", paramLabel = "N", description = "rwsem-owner: operations of a path at most, the rest cut (default 20)")
    Integer maxOps;

    @Option(names = "--kernel-tree", required = true, paramLabel = "DIR", description = "unpacked kernel source tree")
    Path tree;

    @Option(names = "--kernel-version", paramLabel = "V", description = "the tree's version (e.g. 6.12) instead of its Makefile's")
    String version;

    @Option(names = "--sequences", paramLabel = "N", defaultValue = "20000", description = "generated call sequences (default ${DEFAULT-VALUE})")
    int sequences;

    @Option(names = "--calls", paramLabel = "M", defaultValue = "40", description = "calls per sequence, at most (default ${DEFAULT-VALUE})")
    int calls;

    @Option(names = "--seed", paramLabel = "S", description = "seed of the generated sequences (printed when not given)")
    Long seed;

    @Option(names = "--no-walk", description = "skip the walk of the exhaustive model's transitions")
    boolean noWalk;

    @Option(names = "--walk-param", paramLabel = "KEY=VALUE", description = "model parameter of the walk (default: the model's defaults "
            + "with hotplug=on): cpus, depth, keys")
    Map<String, String> walkParams = new LinkedHashMap<>();

    @Option(names = "--time-limit", paramLabel = "DURATION", description = "stop after this long (exit 3; SIGINT and SIGTERM stop "
            + "it too)")
    String timeLimit;

    @Option(names = "--call-timeout", paramLabel = "DURATION", description = "a call of the C that has not returned after this long is a "
            + "divergence (default 1s)")
    String callTimeout;

    @Override
    public Integer call() {
        try {
            return conform(System.out);
        } catch (Exit e) {
            return e.code;
        }
    }

    private Integer conform(PrintStream out) {
        if ("rq-lock".equals(model)) {
            return rqLock(out);
        }
        if ("rwsem-owner".equals(model)) {
            return rwsem(out);
        }
        if ("lb-redo".equals(model)) {
            return lbRedo(out);
        }
        if (!"cpudl".equals(model)) {
            throw new UsageException("conform: no conformance check for model '" + model + "' (available: cpudl, lb-redo, rq-lock, rwsem-owner)");
        }
        if (readers != null || writers != null || horizon != null || maxOps != null || waiters != null) {
            throw new UsageException("conform: --readers, --writers, --horizon, --max-ops and --waiters are options of conform rwsem-owner");
        }
        if (cpus != null || lockCpus != null) {
            throw new UsageException("conform: --cpus and --lock-cpus are options of conform rq-lock; cpudl's sequences choose their CPUs (--walk-param cpus=N "
                    + "for the walk)");
        }
        if (sequences < 0 || calls < 1) {
            throw new UsageException("conform: --sequences must be >= 0 and --calls >= 1");
        }
        if (sequences == 0 && seed != null) {
            throw new UsageException("conform: --seed seeds the generated sequences, and --sequences 0 generates none");
        }
        for (String k : walkParams.keySet()) {
            if (!k.equals("cpus") && !k.equals("depth") && !k.equals("keys")) {
                throw new UsageException("conform: --walk-param takes cpus, depth or keys, not '" + k + "'");
            }
        }
        long limit = timeLimit == null ? 0 : millis("--time-limit", timeLimit);
        long perCall = callTimeout == null ? CpudlConformance.Options.CALL_TIMEOUT_MILLIS : millis("--call-timeout", callTimeout);
        KernelTree kt = openTree();
        CpudlConformance.Port port = compared(out, "", () -> CpudlConformance.portFor(kt));
        long s = seed != null ? seed : System.nanoTime() & 0xFFFF_FFFFL;
        Map<String, String> wp = new LinkedHashMap<>(Map.of("hotplug", "on"));
        wp.putAll(walkParams);
        CpudlConformance.Options o = new CpudlConformance.Options(s, sequences, calls, !noWalk, wp, limit, perCall, Interrupts::reason);
        out.println("conform cpudl: kernel tree " + kt.dir() + " (v" + kt.version() + "), port " + port.name());
        out.println("  " + port.why());
        out.println("  from the tree: kernel/sched/cpudeadline.c and cpudeadline.h (compiled by their paths), " + (CpudlConformance.helpersFromTree(kt)
                ? String.join(", ", CpudlConformance.TREE_HELPERS) + " from kernel/sched/sched.h (found by parsing)"
                : "not " + String.join(", ", CpudlConformance.TREE_HELPERS) + ": the tree has no kernel/sched/sched.h, so kcheck's copy of "
                        + "v6.12's is used"));
        out.println("  shimmed: u64, struct cpumask and its operations, raw spinlocks (no-ops), kcalloc/kfree (with guards), struct "
                + "task_struct's fields cpudl_find reads, dl_time_before, arch_scale_cpu_capacity/capacity_orig_of (the capacities the "
                + "driver sets), sched_asym_cpucap_active");
        out.println("  seed " + s + " (repeat with --seed " + s + ")");
        out.flush();
        CpudlConformance.Result r;
        try {
            r = compared(out, kt.file("kernel/sched/cpudeadline.c").toString(), () -> CpudlConformance.run(kt, port, o, out));
        } catch (kcheck.model.ModelInputException e) {
            throw new UsageException("conform: " + e.getMessage());
        }
        print(r, wp, out);
        if (r.divergence() != null) {
            return ExitCodes.VIOLATED;
        }
        return r.complete() ? ExitCodes.OK : ExitCodes.INCOMPLETE;
    }

    /** {@code conform rwsem-owner}: rwsem.c's lock and unlock paths, every value each read could find, against the v6.12 port. */
    private Integer rwsem(PrintStream out) {
        refuse(java.util.List.of("--sequences", "--calls", "--seed", "--no-walk", "--walk-param", "--call-timeout", "--cpus", "--lock-cpus"),
                o -> "conform rwsem-owner: " + o + " is not an option of conform rwsem-owner (it compares every path of a reader and a "
                        + "writer; --readers, --writers and --horizon set the bounds)");
        int r = readers == null ? 1 : readers;
        int w = writers == null ? 1 : writers;
        int h = horizon == null ? RwsemConformance.HORIZON : horizon;
        if (r < 1 || r > 3 || w < 1 || w > 3) {
            throw new UsageException("conform rwsem-owner: --readers and --writers must be between 1 and 3");
        }
        if (h < 0 || h > 20) {
            throw new UsageException("conform rwsem-owner: --horizon must be between 0 and 20, not " + h);
        }
        int m = maxOps == null ? RwsemConformance.MAX_OPS : maxOps;
        if (m < 4 || m > 60) {
            throw new UsageException("conform rwsem-owner: --max-ops must be between 4 and 60, not " + m);
        }
        int wl = waiters == null ? RwsemConformance.WAITERS : waiters;
        if (wl < 0 || wl > 3) {
            throw new UsageException("conform rwsem-owner: --waiters must be between 0 and 3, not " + wl);
        }
        StopCondition stop = stopCondition();
        KernelTree kt = openTree();
        out.println("conform rwsem-owner: " + kt.file("kernel/locking/rwsem.c") + " (v" + kt.version() + "), port v6.12 (RwsemV612)");
        out.println("  from the tree: all of kernel/locking/rwsem.c (the !CONFIG_PREEMPT_RT half), with its lock_events.h");
        out.println("  compared: each task's operations from the start of down_* to the end of up_*, or to its first acquisition of "
                + "sem->wait_lock: the fast paths, rwsem_read_trylock/rwsem_write_trylock, the reader's lock stealing, the writer's "
                + "optimistic spinning (rwsem_can_spin_on_owner, rwsem_optimistic_spin, rwsem_spin_on_owner, "
                + "rwsem_try_write_lock_unqueued), up_read/up_write up to rwsem_wake's wait_lock");
        out.println(wl == 0 ? "  not compared (--waiters 0): the functions under wait_lock" : "  compared with wait_lock held, one call at a time on every wait list of 1 to " + wl + " readers "
                + "and writers (the first waiter's handoff_set either way): rwsem_mark_wake (each wake type), rwsem_try_write_lock (the "
                + "handoff bit's setting), rwsem_del_wake_waiter (rwsem_del_waiter, the wake of the rest, the unlock, wake_up_q); and "
                + "rwsem_down_read_slowpath and rwsem_down_write_slowpath from their entries through their wait loops (the writer with "
                + "need_resched set at its first test, so that its optimistic spinning, compared above, gives up; then set throughout, or "
                + "either way at each later test: the handoff spin on a running owner), each acquisition of wait_lock finding every list of up "
                + "to " + Math.min(2, wl) + " other waiters (its own where queued, or granted meanwhile)");
        out.println("  shimmed:");
        for (String s : RwsemConformance.SHIMMED) {
            out.println("    " + s);
        }
        out.flush();
        RwsemConformance.Result res = compared(out, "the tree's rwsem.c", () -> RwsemConformance.run(kt, r, w, h, m, wl, stop));
        RwsemConformance.print(res, out);
        if (res.divergence() != null) {
            return ExitCodes.VIOLATED;
        }
        return res.stopped() == null ? ExitCodes.OK : ExitCodes.INCOMPLETE;
    }

    /** {@code conform lb-redo}: the tree's load balancing, every path of the port's balancing walks, against the v6.12 port. */
    private Integer lbRedo(PrintStream out) {
        refuse(java.util.List.of("--sequences", "--calls", "--seed", "--no-walk", "--walk-param", "--call-timeout", "--cpus", "--lock-cpus",
                        "--readers", "--writers", "--horizon", "--max-ops", "--waiters"),
                o -> "conform lb-redo: " + o + " is not an option of conform lb-redo (it compares every path of the model's "
                        + "configurations listed in docs/conform.md)");
        StopCondition stop = stopCondition();
        KernelTree kt = openTree();
        String port = LbRedoConformance.portFor(kt);
        out.println("conform lb-redo: " + kt.file("kernel/sched/fair.c") + " (v" + kt.version() + "), port " + port + " ("
                + (port.equals("v6.1") ? "LoadBalanceV61: trees before v6.6" : "SchedBalanceRqV612") + ")");
        out.flush();
        LbRedoConformance.Result res = compared(out, "the tree's load balancing", () -> LbRedoConformance.run(kt, stop));
        out.println("  from the tree (extracted by parsing): " + String.join(", ", res.extracted().stream()
                .map(d -> d.name() + (d.name().startsWith("struct") || d.name().startsWith("enum") || d.name().startsWith("LBF")
                        || d.name().startsWith("MAX") ? "" : "()") + " " + d.file().replaceAll(".*/", "") + ":" + d.line()).toList()));
        out.println("  compared: every path of the port's balancing walk (the model's initial states, every busiest answer, every "
                + "pull between the pieces of a call), its operations and the runqueues at every pull and return");
        out.println("  shimmed:");
        for (String s : LbRedoConformance.SHIMMED) {
            out.println("    " + s);
        }
        LbRedoConformance.print(res, out);
        if (res.divergence() != null) {
            return ExitCodes.VIOLATED;
        }
        return res.stopped() == null ? ExitCodes.OK : ExitCodes.INCOMPLETE;
    }

    /** {@code conform rq-lock}: the double_lock_balance family, every path of the C against the port's. */
    private Integer rqLock(PrintStream out) {
        refuse(java.util.List.of("--sequences", "--calls", "--seed", "--no-walk", "--walk-param", "--call-timeout"),
                o -> "conform rq-lock: " + o + " is an option of conform cpudl (rq-lock compares every path, nothing is generated)");
        refuse(java.util.List.of("--readers", "--writers", "--horizon", "--max-ops", "--waiters"), o -> "conform rq-lock: " + o + " is an option of conform "
                + "rwsem-owner");
        int n = cpus == null ? 4 : cpus;
        if (n < 2 || n > 16) {
            throw new UsageException("conform rq-lock: --cpus must be between 2 and 16, not " + n);
        }
        int ln = lockCpus == null ? 2 : lockCpus;
        if (ln != 0 && (ln < 2 || ln > 4)) {
            throw new UsageException("conform rq-lock: --lock-cpus must be 0 (skip qspinlock.c) or between 2 and 4, not " + ln);
        }
        StopCondition stop = stopCondition();
        KernelTree kt = openTree();
        String port = compared(out, "", () -> RqLockConformance.portFor(kt));
        out.println("conform rq-lock: kernel tree " + kt.dir() + " (v" + kt.version() + "), port " + port + " (DoubleLockBalanceV612)");
        RqLockConformance.Result r = compared(out, "the tree's double_lock_balance family", () -> RqLockConformance.run(kt, n, stop, out));
        RqLockConformance.print(r, out);
        if (r.divergence() != null) {
            return ExitCodes.VIOLATED;
        }
        if (!r.complete()) {
            return ExitCodes.INCOMPLETE;
        }
        if (ln == 0) {
            out.println("(qspinlock.c not compared: --lock-cpus 0)");
            return ExitCodes.OK;
        }
        out.println("conform rq-lock, the lock: " + kt.file("kernel/locking/qspinlock.c") + " with include/asm-generic/qspinlock.h, port "
                + "v6.12 (QSpinlock, x86)");
        out.println("  from the tree: all of kernel/locking/qspinlock.c (with its mcs_spinlock.h, qspinlock_stat.h, lock_events.h), "
                + "include/asm-generic/qspinlock.h, qspinlock_types.h");
        out.println("  shimmed:");
        for (String s : QspinlockConformance.SHIMMED) {
            out.println("    " + s);
        }
        out.flush();
        QspinlockConformance.Result q = compared(out, "the tree's qspinlock.c", () -> QspinlockConformance.run(kt, ln, stop));
        QspinlockConformance.print(q, out);
        if (q.divergence() != null) {
            return ExitCodes.VIOLATED;
        }
        return q.stopped() == null ? ExitCodes.OK : ExitCodes.INCOMPLETE;
    }

    /** Ends the command with an exit code, after what it printed (the one line on stderr of a tree kcheck cannot use). */
    private static final class Exit extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int code;

        Exit(int code) {
            super(null, null, false, false);
            this.code = code;
        }
    }

    /** One comparison of a tree's C with a port, or the finding of its port. */
    @FunctionalInterface
    private interface Comparison<R> {
        R run() throws IOException, CDriver.CompileException, CFunctions.NotFoundException, KernelTree.TreeException,
                RqLockConformance.NoPortException, CpudlConformance.NoPortException;
    }

    /** --kernel-tree (and --kernel-version) opened, or one line on stderr and exit 2. */
    private KernelTree openTree() {
        try {
            return KernelTree.open(tree, version);
        } catch (KernelTree.TreeException e) {
            System.err.println("kcheck: " + e.getMessage());
            throw new Exit(ExitCodes.USAGE);
        }
    }

    /**
     * What {@code c} gives, or the command ends: exit 2 after one line on stderr (and the compiler's message when
     * {@code what}, the tree's code, does not compile against kcheck's shim), or exit 3 (INCOMPLETE) when a stop came
     * while it compiled.
     */
    private <R> R compared(PrintStream out, String what, Comparison<R> c) {
        try {
            return c.run();
        } catch (CDriver.CompileException e) {
            if (e.getMessage().startsWith("stopped: ")) {
                out.println("INCOMPLETE: " + e.getMessage().substring(9) + " (while compiling)");
                throw new Exit(ExitCodes.INCOMPLETE);
            }
            System.err.println("kcheck: " + what + " does not compile against kcheck's shim:");
            System.err.println(e.getMessage());
        } catch (IOException | CFunctions.NotFoundException e) {
            System.err.println("kcheck: conform " + model + ": " + e.getMessage());
        } catch (KernelTree.TreeException | RqLockConformance.NoPortException | CpudlConformance.NoPortException e) {
            System.err.println("kcheck: " + e.getMessage());
        }
        throw new Exit(ExitCodes.USAGE);
    }

    /** A usage error for the first of {@code options} given on the command line, {@code why} its message. */
    private void refuse(java.util.List<String> options, java.util.function.Function<String, String> why) {
        for (String o : options) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                throw new UsageException(why.apply(o));
            }
        }
    }

    /** What stops a concurrent comparison: SIGINT, SIGTERM, and --time-limit when given. */
    private StopCondition stopCondition() {
        long limit = timeLimit == null ? 0 : millis("--time-limit", timeLimit);
        StopCondition stop = new StopCondition(0, null, Interrupts::reason);
        return limit > 0 ? stop.within(limit, "the time limit (" + timeLimit + ")") : stop;
    }

    private static long millis(String option, String text) {
        try {
            return Durations.parse(text).toMillis();
        } catch (IllegalArgumentException e) {
            throw new UsageException("conform: " + option + ": " + e.getMessage());
        }
    }

    /** The report: counts, then the divergence with its minimised sequence, or AGREE. */
    static void print(CpudlConformance.Result r, Map<String, String> walk, PrintStream out) {
        out.println(String.format(Locale.ROOT, "  sequences: %,d, calls: %,d, disagreements: %d", r.sequences(), r.calls(),
                r.divergence() != null && r.walkStates() == 0 ? 1 : 0));
        if (r.walkStates() > 0) {
            out.println(String.format(Locale.ROOT, "  model walk (%s): %,d states, %,d calls compared, disagreements: %d", walk, r.walkStates(),
                    r.walkCalls(), r.divergence() != null ? 1 : 0));
        }
        out.println(String.format(Locale.ROOT, "  time: %.1f s", r.seconds()));
        CpudlConformance.Divergence d = r.divergence();
        if (d != null) {
            out.println("DIVERGENCE in " + d.source() + ": " + d.summary() + "; " + d.original().ops().size() + " calls minimised to "
                    + d.minimised().ops().size()
                    + " (on " + d.minimised().cpus() + " CPUs" + (d.minimised().capacities() != null ? ", capacities "
                    + java.util.Arrays.toString(d.minimised().capacities()) : "") + "):");
            out.println("  cpudl_init(" + d.minimised().cpus() + "), every runqueue online");
            for (int i = 0; i < d.minimised().ops().size(); i++) {
                out.println("  " + (i + 1) + ". " + d.minimised().ops().get(i));
            }
            out.println((d.kind() == CpudlConformance.Kind.STATE ? "after " : "in ") + d.call() + ":");
            out.println("  C    (kernel/sched/cpudeadline.c): " + d.c());
            out.println("  Java (" + r.port().name() + " port):" + " ".repeat(Math.max(1, 23 - r.port().name().length())) + d.java());
        } else if (!r.complete()) {
            out.println("INCOMPLETE: " + r.stopped() + " (no disagreement so far)");
        } else {
            out.println("AGREE: the C and the " + r.port().name() + " port gave identical heap, idx, size, free_cpus and find results after "
                    + "every call");
        }
    }
}
