package kcheck.conform;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import kcheck.model.rqlock.QspinlockPaths;

/**
 * The lock under rq-lock: a tree's {@code kernel/locking/qspinlock.c} with
 * {@code include/asm-generic/qspinlock.h} against the qspinlock port ({@code QSpinlock}, v6.12, x86),
 * by recorded-program equivalence. The whole file is compiled (no extraction: its own helpers,
 * {@code mcs_spinlock.h}, {@code qspinlock_stat.h} and {@code lock_events.h} are the tree's) against
 * kcheck's shim, in which every access to the lock word or an MCS node is an operation handed to a
 * driver. One CPU runs {@code queued_spin_lock}, {@code queued_spin_trylock} or
 * {@code queued_spin_unlock}; every value each of its loads could find is tried
 * ({@link QspinlockPaths}: the port's paths, generated here and streamed to the driver with the hash
 * of the port's text for each); the first run whose C text differs is reported with the tree lines
 * of the C's operations.
 */
public final class QspinlockConformance {

    /** What the shim provides instead of the tree (printed by conform). */
    static final List<String> SHIMMED = List.of(
            "atomics, READ_ONCE/WRITE_ONCE, smp_store_release, smp_cond_load_*, smp_wmb: each an operation handed to the driver, "
                    + "with its ordering (the driver supplies what loads find)",
            "arch/x86/include/asm/qspinlock.h: queued_fetch_set_pending_acquire (lock btsl, then an acquire load of the word under "
                    + "x86-TSO), virt_spin_lock false, _Q_PENDING_LOOPS one load",
            "per-CPU data (this_cpu_ptr, per_cpu_ptr, smp_processor_id): one copy of qnodes per CPU, kept by the driver",
            "trace_contention_*, prefetchw, in_task, the kernel headers qspinlock.c includes: empty or no-ops");

    /** The divergence: the run (its input line), both texts, the C's locations. */
    public record Divergence(String input, String c, String port, List<String> where, boolean variant) {
    }

    /** The outcome: runs compared (paths of the port and variants), spins, the divergence or null, stop reason or null. */
    public record Result(int cpus, long paths, long variants, long spins, long compared, Divergence divergence, String stopped, double seconds) {
    }

    private QspinlockConformance() {
    }

    /** Compiles the tree's qspinlock.c and compares it with the port at {@code cpus} CPUs. */
    public static Result run(KernelTree tree, int cpus, StopCondition stop) throws IOException, CDriver.CompileException {
        long t0 = System.nanoTime();
        Path c = tree.file("kernel/locking/qspinlock.c");
        for (String f : List.of("kernel/locking/qspinlock.c", "kernel/locking/mcs_spinlock.h", "include/asm-generic/qspinlock.h",
                "include/asm-generic/qspinlock_types.h")) {
            if (!Files.isReadable(tree.file(f))) {
                throw new IOException("cannot read " + tree.file(f));
            }
        }
        Path dir = kcheck.engine.ScratchDirs.create("kcheck-conform-qspinlock-");
        try {
            Path inc = dir.resolve("inc");
            CDriver.emptyHeaders(inc, List.of("linux/smp.h", "linux/bug.h", "linux/cpumask.h", "linux/percpu.h", "linux/hardirq.h",
                    "linux/mutex.h", "linux/prefetch.h", "linux/types.h", "linux/atomic.h", "asm/byteorder.h", "asm/mcs_spinlock.h",
                    "trace/events/lock.h"), "what qspinlock.c needs from it is in kcheck_qshim.h");
            Files.createDirectories(inc.resolve("asm-generic"));
            Files.copy(tree.file("include/asm-generic/qspinlock.h"), inc.resolve("asm-generic/qspinlock.h"));
            Files.copy(tree.file("include/asm-generic/qspinlock_types.h"), inc.resolve("asm-generic/qspinlock_types.h"));
            copy("kcheck_x86_qspinlock.h", inc.resolve("asm/qspinlock.h"));
            copy("kcheck_qshim.h", dir.resolve("kcheck_qshim.h"));
            copy("kcheck_qdriver.c", dir.resolve("kcheck_qdriver.c"));
            CDriver.copyResource("kcheck_drivercommon.h", dir.resolve("kcheck_drivercommon.h"));
            Path exe = dir.resolve("qdriver");
            List<String> cmd = List.of(CDriver.gcc(), "-std=gnu11", "-O1", "-w", "-I", inc.toString(), "-include",
                    dir.resolve("kcheck_qshim.h").toString(), "-DKCHECK_QSPINLOCK_C=\"" + c.toAbsolutePath() + "\"", "-o", exe.toString(),
                    dir.resolve("kcheck_qdriver.c").toString());
            CDriver.runCompiler(cmd, dir, m -> tidy(m, tree, dir));
            return compare(exe, dir, tree, cpus, stop, t0);
        } finally {
            kcheck.engine.ScratchDirs.release(dir);
        }
    }

    private static void copy(String resource, Path to) throws IOException {
        CDriver.copyResource("qspinlock/" + resource, to);
    }

    /** Paths as a reader of the tree knows them: include/asm-generic/..., kernel/locking/...; kcheck's x86 stand-in named. */
    static String tidy(String text, KernelTree tree, Path dir) {
        String root = tree.dir().toAbsolutePath().normalize() + "/";
        return text.replace(dir + "/", "").replace(root, "").replace("inc/asm-generic/", "include/asm-generic/")
                .replace("inc/asm/qspinlock.h", "kcheck's x86 asm/qspinlock.h");
    }

    private static Result compare(Path exe, Path dir, KernelTree tree, int cpus, StopCondition stop, long t0) throws IOException {
        long[] counts = new long[3];
        HashedRuns.Answer<QspinlockPaths.Run> a = HashedRuns.compare(exe, dir, sink -> QspinlockPaths.forEach(cpus, r -> {
            if (r.variant()) {
                counts[1]++;
            } else {
                counts[0]++;
                if (r.text().endsWith("spins")) {
                    counts[2]++;
                }
            }
            sink.accept(r);
        }), QspinlockPaths.Run::input, QspinlockPaths.Run::text, 2, stop, "qspinlock");
        Divergence d = null;
        if (a.index() >= 0) {
            QspinlockPaths.Run run = a.run();
            d = new Divergence(run == null ? "run " + a.index() : run.input(), tidy(HashedRuns.body(a.lines().get(0)), tree, dir),
                    run == null ? "?" : run.text(), where(a.lines().get(1), tree, dir), run != null && run.variant());
        }
        return new Result(cpus, counts[0], counts[1], counts[2], a.compared(), d, a.stopped(), (System.nanoTime() - t0) / 1e9);
    }

    /** The driver's "W where ; where ; ..." line as the tree's file:line of each operation. */
    static List<String> where(String w, KernelTree tree, Path dir) {
        List<String> where = new ArrayList<>();
        for (String s : HashedRuns.body(w).split(" ; ")) {
            if (!s.isBlank()) {
                where.add(tidy(s.strip(), tree, dir).replace(" ;", ""));
            }
        }
        return where;
    }

    /** The script as words: "the word (L=0 P=0 T=1), the node field 0, ...". */
    static String found(List<String> entries) {
        List<String> out = new ArrayList<>();
        for (String e : entries) {
            if (e.startsWith("w")) {
                String[] f = e.substring(1).split("\\.");
                out.add("(L=" + f[0] + " P=" + f[1] + " T=" + f[2] + ")");
            } else {
                out.add("(" + e.substring(1) + ")");
            }
        }
        return String.join(" ", out);
    }

    /** The report, as conform prints it. */
    public static void print(Result r, PrintStream out) {
        out.println(String.format(Locale.ROOT, "  %d CPUs, each CPU's queued_spin_lock, queued_spin_trylock and queued_spin_unlock: paths of the "
                + "port: %,d (%,d end spinning), variants (a field the port does not read changed): %,d; %s: %,d", r.cpus(), r.paths(),
                r.spins(), r.variants(), r.divergence() != null ? "runs that agreed before the divergence" : "compared", r.compared()));
        out.println(String.format(Locale.ROOT, "  time: %.1f s", r.seconds()));
        Divergence d = r.divergence();
        if (d != null) {
            String[] in = d.input().split(" ");
            String op = switch (in[0]) {
                case "L" -> "queued_spin_lock";
                case "T" -> "queued_spin_trylock";
                default -> "queued_spin_unlock";
            };
            out.println("DIVERGENCE in " + op + " on cpu " + in[1] + " of " + in[2] + (d.variant() ? " (a variant: a field the port does not "
                    + "read was changed)" : "") + ", its loads finding " + (in.length > 4 ? found(List.of(in).subList(4, in.length))
                    : "nothing") + ":");
            int at = OpText.sideBySide(out, d.c(), d.port(), d.where(), 40);
            if (at < d.where().size()) {
                out.println("  first difference: the C's operation " + (at + 1) + " at " + d.where().get(at));
            }
        } else if (r.stopped() != null) {
            out.println("INCOMPLETE: " + r.stopped() + " (no disagreement so far)");
        } else {
            out.println(String.format(Locale.ROOT, "AGREE: all %,d runs of the C are the port's, operation for operation", r.compared()));
        }
    }
}
