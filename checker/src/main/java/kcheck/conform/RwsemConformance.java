package kcheck.conform;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import kcheck.model.rwsem.RwsemPaths;
import kcheck.model.rwsem.RwsemWaitPaths;

/**
 * rwsem-owner: a tree's {@code kernel/locking/rwsem.c} against the v6.12 port ({@code RwsemV612}), by
 * recorded-program equivalence. The whole file is compiled (the tree's {@code lock_events.h} with it)
 * against kcheck's shim, in which every access to the semaphore's count and owner, the osq, wait_lock and
 * every call into the rest of the kernel (owner_on_cpu, need_resched, signal_pending_state, jiffies,
 * sched_clock, ...) is an operation handed to a driver. A reader or a writer runs its round
 * ({@code down_read}/{@code down_read_killable} then {@code up_read}; the same for writing) and each read
 * finds every value of the model's domain ({@link RwsemPaths}: the port's recorded programs, the graphs the
 * model executes); paths are compared up to the task's first acquisition of {@code sem->wait_lock}.
 */
public final class RwsemConformance {

    /** What the shim provides instead of the tree (printed by conform). */
    static final List<String> SHIMMED = List.of(
            "atomic_long_* on sem->count and sem->owner: each an operation handed to the driver with its memory ordering as "
                    + "tools/memory-model gives it (atomic_long_read/set ONCE, void RMWs RMW_RELAXED, value-returning RMWs RMW_FULL "
                    + "unless _acquire/_release/_relaxed; the driver supplies what reads find); smp_load_acquire/smp_store_release of "
                    + "waiter->task: operations (ACQUIRE, RELEASE); smp_mb/rmb/wmb, smp_acquire__after_ctrl_dep (rmb), "
                    + "smp_mb__before/after_atomic, smp_mb__after_spinlock: operations (\"barrier F\"); READ_ONCE/WRITE_ONCE of other "
                    + "fields: plain accesses (no operation)",
            "owner_on_cpu, need_resched, osq_lock/osq_unlock/osq_is_locked, signal_pending_state, jiffies, sched_clock, schedule, "
                    + "set_current_state, wake_q_*: operations (what they return is the driver's)",
            "preempt_disable/enable counted; lockdep_assert_preemption_disabled and lockdep_assert_held checked against it (a failure "
                    + "is an operation, \"warn ...\", as the port records it); lockdep's annotations and trace points: nothing",
            "struct rw_semaphore, struct task_struct, struct wake_q_head (the fields rwsem.c names), the list_* helpers (plain memory), "
                    + "RWSEM_UNLOCKED_VALUE, BITS_PER_LONG 64, HZ 250; CONFIG_RWSEM_SPIN_ON_OWNER on, CONFIG_PREEMPT_RT and "
                    + "CONFIG_DEBUG_RWSEMS off");

    /** The divergence: the run (its input line), both texts, the C's locations. */
    public record Divergence(String input, String c, String port, List<String> where, List<String> portWhere, List<List<Integer>> lines) {
    }

    /** The outcome: runs compared (to the end, cut), the divergence or null, stop reason or null. */
    public record Result(int readers, int writers, RwsemPaths.Stats stats, long compared, Divergence divergence, String stopped,
                         double seconds, RwsemWaitPaths.Stats underWaitLock, long waitCompared, int waiters) {
        Result(int readers, int writers, RwsemPaths.Stats stats, long compared, Divergence divergence, String stopped, double seconds) {
            this(readers, writers, stats, compared, divergence, stopped, seconds, null, 0, 0);
        }
    }

    /** Waiters of the wait lists the functions under wait_lock are compared on, at most. */
    public static final int WAITERS = 3;

    /** How often one place of a program may recur on a path (spin loops). */
    static final int LOOPS = 2;
    /** Operations of a path at most (the rest is cut; default). */
    public static final int MAX_OPS = 20;
    /** Operations a run goes on after a value the port treats like another (default). */
    public static final int HORIZON = 3;

    private RwsemConformance() {
    }

    /** Compiles the tree's rwsem.c and compares it with the v6.12 port for {@code readers} readers and {@code writers} writers. */
    public static Result run(KernelTree tree, int readers, int writers, int horizon, StopCondition stop)
            throws IOException, CDriver.CompileException {
        return run(tree, readers, writers, horizon, MAX_OPS, stop);
    }

    /** As above, with paths cut after {@code maxOps} operations. */
    public static Result run(KernelTree tree, int readers, int writers, int horizon, int maxOps, StopCondition stop)
            throws IOException, CDriver.CompileException {
        return run(tree, readers, writers, horizon, maxOps, WAITERS, stop);
    }

    /**
     * As above, with the functions under wait_lock compared on wait lists of up to {@code waiters} waiters (0: not
     * compared).
     */
    public static Result run(KernelTree tree, int readers, int writers, int horizon, int maxOps, int waiters, StopCondition stop)
            throws IOException, CDriver.CompileException {
        long t0 = System.nanoTime();
        Path c = tree.file("kernel/locking/rwsem.c");
        for (String f : List.of("kernel/locking/rwsem.c", "kernel/locking/lock_events.h", "kernel/locking/lock_events_list.h")) {
            if (!Files.isReadable(tree.file(f))) {
                throw new IOException("cannot read " + tree.file(f));
            }
        }
        Path dir = kcheck.engine.ScratchDirs.create("kcheck-conform-rwsem-");
        try {
            Path inc = dir.resolve("inc");
            CDriver.emptyHeaders(inc, List.of("linux/types.h", "linux/kernel.h", "linux/sched.h", "linux/sched/rt.h", "linux/sched/task.h",
                    "linux/sched/debug.h", "linux/sched/wake_q.h", "linux/sched/signal.h", "linux/sched/clock.h", "linux/export.h",
                    "linux/rwsem.h", "linux/atomic.h", "linux/percpu.h", "trace/events/lock.h"), "what rwsem.c needs from it is in kcheck_rwshim.h");
            copy("kcheck_rwshim.h", dir.resolve("kcheck_rwshim.h"));
            copy("kcheck_rwdriver.c", dir.resolve("kcheck_rwdriver.c"));
            CDriver.copyResource("kcheck_drivercommon.h", dir.resolve("kcheck_drivercommon.h"));
            copy("kcheck_rwtree.c", dir.resolve("kcheck_rwtree.c"));
            Path exe = dir.resolve("rwdriver");
            List<String> common = List.of("-std=gnu11", "-O1", "-w", "-gdwarf-4", "-fno-pie", "-I", inc.toString(), "-include",
                    dir.resolve("kcheck_rwshim.h").toString(), "-DCONFIG_RWSEM_SPIN_ON_OWNER", "-DKCHECK_RWSEM_C=\"" + c.toAbsolutePath() + "\"");
            List<String> tu = new ArrayList<>(List.of(CDriver.gcc()));
            tu.addAll(common);
            tu.addAll(List.of("-O0", "-fsanitize-coverage=trace-pc", "-c", "-o", "tree.o", "kcheck_rwtree.c"));
            List<String> drv = new ArrayList<>(List.of(CDriver.gcc()));
            drv.addAll(common);
            drv.addAll(List.of("-c", "-o", "driver.o", "kcheck_rwdriver.c"));
            for (List<String> cmd : List.of(tu, drv, List.of(CDriver.gcc(), "-no-pie", "-o", exe.toString(), "tree.o", "driver.o"))) {
                CDriver.runCompiler(cmd, dir, m -> tidy(m, tree, dir));
            }
            Result r = compare(exe, dir, tree, readers, writers, horizon, maxOps, stop, t0);
            /* minimise: look again among shorter paths, until none diverges before the difference found */
            Result shortest = r;
            while (shortest.divergence() != null && firstDifference(shortest.divergence()) >= 1 && stop.reason() == null) {
                Result s = compare(exe, dir, tree, readers, writers, horizon, firstDifference(shortest.divergence()), stop, t0);
                if (s.divergence() == null || firstDifference(s.divergence()) >= firstDifference(shortest.divergence())) {
                    break;
                }
                shortest = s;
            }
            if (shortest != r) {
                return new Result(r.readers(), r.writers(), r.stats(), r.compared(), shortest.divergence(), null,
                        (System.nanoTime() - t0) / 1e9);
            }
            if (r.divergence() != null || r.stopped() != null || waiters == 0) {
                return r;
            }
            /* the functions that run with wait_lock held, on every wait list of up to WAITERS waiters */
            RwsemWaitPaths.Stats ws = new RwsemWaitPaths.Stats();
            HashedRuns.Answer<RwsemWaitPaths.Run> a = HashedRuns.compare(exe, dir, sink -> RwsemWaitPaths.forEach(waiters, horizon, ws, sink),
                    RwsemWaitPaths.Run::input, RwsemWaitPaths.Run::text, 3, stop, "rwsem-wait");
            RwsemWaitPaths.Run run = a.run();
            Divergence d = a.index() < 0 ? null : divergence(a, run == null ? null : run.input(), run == null ? null : run.text(), List.of(),
                    exe, tree, dir);
            return new Result(r.readers(), r.writers(), r.stats(), r.compared(), d, a.index() >= 0 ? null : a.stopped(),
                    (System.nanoTime() - t0) / 1e9, ws, a.compared(), waiters);
        } finally {
            kcheck.engine.ScratchDirs.release(dir);
        }
    }

    private static void copy(String resource, Path to) throws IOException {
        CDriver.copyResource("rwsem/" + resource, to);
    }

    /** Paths as a reader of the tree knows them: kernel/locking/rwsem.c. */
    static String tidy(String text, KernelTree tree, Path dir) {
        String root = tree.dir().toAbsolutePath().normalize() + "/";
        return text.replace(dir + "/", "").replace(root, "").replace("kcheck_rwshim.h", "kcheck's shim");
    }

    private static Result compare(Path exe, Path dir, KernelTree tree, int readers, int writers, int horizon, int maxOps, StopCondition stop,
                                  long t0) throws IOException {
        RwsemPaths.Stats stats = new RwsemPaths.Stats();
        HashedRuns.Answer<RwsemPaths.Run> a = HashedRuns.compare(exe, dir,
                sink -> RwsemPaths.forEach(readers, writers, horizon, LOOPS, maxOps, stats, sink), RwsemPaths.Run::input,
                RwsemPaths.Run::text, 3, stop, "rwsem");
        RwsemPaths.Run run = a.run();
        Divergence d = a.index() < 0 ? null : divergence(a, run == null ? null : run.input(), run == null ? null : run.text(),
                run == null ? List.of() : run.where(), exe, tree, dir);
        return new Result(readers, writers, stats, a.compared(), d, a.stopped(), (System.nanoTime() - t0) / 1e9);
    }

    /** The divergence the driver answered (its R, W and B lines), with the port's run (null when it left the window). */
    private static Divergence divergence(HashedRuns.Answer<?> a, String input, String text, List<String> portWhere, Path exe, KernelTree tree,
                                         Path dir) {
        return new Divergence(input == null ? "run " + a.index() : input, tidy(HashedRuns.body(a.lines().get(0)), tree, dir),
                text == null ? "?" : text, QspinlockConformance.where(a.lines().get(1), tree, dir).stream().map(w -> tidy(w, tree, dir))
                .toList(), portWhere, treeLines(a.lines().get(2), exe, "kernel/locking/rwsem.c"));
    }

    /**
     * The driver's "B" line (per operation, the code addresses of the basic blocks run before it) as lines of
     * the tree's {@code file}, with one addr2line call; consecutive repeats merged. Empty lists when addr2line fails.
     */
    static List<List<Integer>> treeLines(String blocks, Path exe, String file) {
        List<List<String>> groups = new ArrayList<>();
        java.util.LinkedHashSet<String> addrs = new java.util.LinkedHashSet<>();
        if (blocks != null && blocks.startsWith("B ")) {
            for (String g : blocks.substring(2).split(" ; ", -1)) {
                List<String> pcs = new ArrayList<>();
                for (String pc : g.strip().split(",")) {
                    if (pc.startsWith("0x")) {
                        pcs.add(pc);
                        addrs.add(pc);
                    }
                }
                groups.add(pcs);
            }
        }
        java.util.Map<String, Integer> line = new java.util.HashMap<>();
        List<String> out = CDriver.addr2line(exe, new ArrayList<>(addrs), false);
        int i = 0;
        for (String a : addrs) {
            if (i < out.size() && out.get(i).contains(file + ":")) {
                String n = out.get(i).substring(out.get(i).lastIndexOf(':') + 1).replaceAll("[^0-9].*", "");
                if (!n.isEmpty()) {
                    line.put(a, Integer.parseInt(n));
                }
            }
            i++;
        }
        List<List<Integer>> result = new ArrayList<>();
        for (List<String> g : groups) {
            List<Integer> ls = new ArrayList<>();
            for (String pc : g) {
                Integer n = line.get(pc);
                if (n != null && n > 0 && (ls.isEmpty() || !ls.get(ls.size() - 1).equals(n))) {
                    ls.add(n);
                }
            }
            result.add(ls);
        }
        return result;
    }

    /** "709, 712, 713" (at most 24, then "..."). */
    static String lines(List<Integer> ls) {
        List<String> t = new ArrayList<>();
        for (int i = 0; i < ls.size() && i < 24; i++) {
            t.add(String.valueOf(ls.get(i)));
        }
        return String.join(", ", t) + (ls.size() > 24 ? ", ..." : "");
    }

    /** The index (from 0) of the first operation whose text differs. */
    static int firstDifference(Divergence d) {
        return OpText.firstDifference(d.c(), d.port());
    }

    /** A wait list spec as words: "t1 (reader, handoff_set), t2 (writer)". */
    static String waitList(String spec) {
        List<String> out = new ArrayList<>();
        int t = 1;
        for (int i = 0; i < spec.length(); i++) {
            char c = spec.charAt(i);
            if (c == 'h') {
                out.set(out.size() - 1, out.get(out.size() - 1).replace(")", ", handoff_set)"));
                continue;
            }
            out.add("t" + t++ + " (" + (c == 'w' ? "writer" : "reader") + ")");
        }
        return String.join(", ", out);
    }

    /** The values found, as words. */
    static String found(List<String> entries) {
        List<String> out = new ArrayList<>();
        for (String e : entries) {
            out.add(switch (e.charAt(0)) {
                case 'c' -> "count=" + e.substring(1);
                case 'o' -> "owner=" + RwsemPaths.ownerText(Long.parseUnsignedLong(e.substring(1), 16));
                case 'b' -> e.equals("b1") ? "true" : "false";
                case 'L' -> "the wait list " + (e.length() == 1 ? "empty" : e.substring(1));
                default -> "(any)";
            });
        }
        return String.join(", ", out);
    }

    /** The report, as conform prints it. */
    public static void print(Result r, PrintStream out) {
        RwsemPaths.Stats s = r.stats();
        out.println(String.format(Locale.ROOT, "  %d reader(s) and %d writer(s) (the model's domains: every count and owner value they "
                + "hold), reader 0 and writer %d, down_read/down_read_killable then up_read, down_write/down_write_killable then up_write",
                r.readers(), r.writers(), r.readers()));
        out.println(String.format(Locale.ROOT, "  runs of the port: %,d (R %,d, r %,d, W %,d, w %,d): %,d to the end of the round, %,d cut "
                + "short (%,d at the task's first raw_spin_lock(&sem->wait_lock), the rest at a count fault, a loop bound or the horizon); "
                + "%,d paths where the reader-spin clock passes not compared; %s: %,d", s.runs, s.perTask.getOrDefault("R", 0L),
                s.perTask.getOrDefault("r", 0L), s.perTask.getOrDefault("W", 0L), s.perTask.getOrDefault("w", 0L), s.full, s.cut, s.atWaitLock,
                s.clockPaths, r.divergence() != null ? "runs that agreed before the divergence" : "compared", r.compared()));
        if (r.underWaitLock() != null) {
            RwsemWaitPaths.Stats w = r.underWaitLock();
            out.println(String.format(Locale.ROOT, "  under wait_lock, on every wait list of 1 to %d readers and writers: %,d runs "
                    + "(rwsem_mark_wake %,d / %,d / %,d for RWSEM_WAKE_ANY / READERS / READ_OWNED, rwsem_try_write_lock %,d, "
                    + "rwsem_del_wake_waiter %,d, rwsem_down_read_slowpath from its entry %,d, rwsem_down_write_slowpath from its entry %,d with need_resched set and %,d "
                    + "with it clear after its first test); "
                    + "%s: %,d", r.waiters(), w.runs,
                    w.perKind.getOrDefault("M0", 0L), w.perKind.getOrDefault("M1", 0L), w.perKind.getOrDefault("M2", 0L),
                    w.perKind.getOrDefault("T", 0L), w.perKind.getOrDefault("D", 0L), w.perKind.getOrDefault("S", 0L),
                    w.perKind.getOrDefault("X", 0L), w.perKind.getOrDefault("X2", 0L),
                    r.divergence() != null ? "runs that agreed before the divergence" : "compared", r.waitCompared()));
        }
        out.println(String.format(Locale.ROOT, "  time: %.1f s", r.seconds()));
        Divergence d = r.divergence();
        if (d != null && "MTDSX".indexOf(d.input().charAt(0)) >= 0) {
            String[] in = d.input().split(" ");
            String fn = switch (in[0]) {
                case "X" -> "rwsem_down_write_slowpath(" + ((Integer.parseInt(in[1]) & 1) == 1 ? "TASK_KILLABLE" : "TASK_UNINTERRUPTIBLE")
                        + (Integer.parseInt(in[1]) >= 2 ? ", need_resched set at its first test only" : ", need_resched set") + ") by task 0";
                case "S" -> "rwsem_down_read_slowpath(count " + in[5].substring(1) + ", " + (in[1].equals("1") ? "TASK_KILLABLE"
                        : "TASK_UNINTERRUPTIBLE") + ") by task 0";
                case "M" -> "rwsem_mark_wake(" + List.of("RWSEM_WAKE_ANY", "RWSEM_WAKE_READERS", "RWSEM_WAKE_READ_OWNED")
                        .get(Integer.parseInt(in[1])) + ") by task 0";
                case "T" -> "rwsem_try_write_lock of waiter t" + in[1];
                default -> "rwsem_del_wake_waiter of waiter t" + in[1];
            };
            out.println("DIVERGENCE in " + fn + (in[0].equals("S") || in[0].equals("X") ? "" : ", wait_lock held, the wait list " + waitList(in[5].substring(1)))
                    + ", its reads finding "
                    + (in.length > 6 ? found(List.of(in).subList(6, in.length)) : "nothing") + ":");
            int at = OpText.sideBySide(out, d.c(), d.port(), d.where(), 34);
            if (at < d.where().size()) {
                out.println("  first difference: the C's operation " + (at + 1) + " at " + d.where().get(at));
            }
            if (at < d.lines().size() && !d.lines().get(at).isEmpty()) {
                out.println("  the lines of rwsem.c the C ran " + (at == 0 ? "before its first operation" : "between its operations " + at
                        + " and " + (at + 1)) + ": " + lines(d.lines().get(at)));
            }
        } else if (d != null) {
            String[] in = d.input().split(" ");
            String op = switch (in[0]) {
                case "R" -> "down_read; up_read";
                case "r" -> "down_read_killable; up_read";
                case "W" -> "down_write; up_write";
                default -> "down_write_killable; up_write";
            };
            out.println("DIVERGENCE in " + op + " of task " + in[1] + ", its reads finding " + (in.length > 5
                    ? found(List.of(in).subList(5, in.length)) : "nothing") + ":");
            int at = OpText.sideBySide(out, d.c(), d.port(), d.where(), 34);
            if (at < d.where().size()) {
                out.println("  first difference: the C's operation " + (at + 1) + " at " + d.where().get(at));
            }
            if (at < d.portWhere().size()) {
                out.println("  the port's operation " + (at + 1) + " is in " + d.portWhere().get(at));
            }
            if (at < d.lines().size() && !d.lines().get(at).isEmpty()) {
                out.println("  the lines of rwsem.c the C ran " + (at == 0 ? "before its first operation" : "between its operations " + at
                        + " and " + (at + 1)) + ": " + lines(d.lines().get(at)));
            }
        } else if (r.stopped() != null) {
            out.println("INCOMPLETE: " + r.stopped() + " (no disagreement so far)");
        } else {
            out.println(String.format(Locale.ROOT, "AGREE: all %,d runs of the C are the port's, operation for operation", r.compared())
                    + (r.underWaitLock() == null ? "" : String.format(Locale.ROOT, ", and all %,d runs under wait_lock", r.waitCompared())));
        }
    }
}
