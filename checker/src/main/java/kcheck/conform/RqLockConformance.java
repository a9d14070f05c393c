package kcheck.conform;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import kcheck.model.rqlock.PortPaths;
import kcheck.model.rqlock.RqConfig;

/**
 * {@code kcheck conform rq-lock}: the double_lock_balance family of a kernel tree against the v6.12
 * port, by recorded-program equivalence. The tree's own functions (sched.h's
 * {@code sched_core_enabled}, {@code rq_lockp}, {@code __rq_lockp}, {@code raw_spin_rq_lock},
 * {@code rq_order_less}, both {@code _double_lock_balance}, {@code double_lock_balance},
 * {@code double_unlock_balance}; core.c's {@code raw_spin_rq_lock_nested},
 * {@code raw_spin_rq_trylock}, {@code raw_spin_rq_unlock}, {@code double_rq_lock}) are found by
 * parsing ({@link CFunctions}), compiled with gcc against kcheck's shim (the lock and lockdep calls
 * become operations handed to a driver), and run for every (this_rq, busiest) and every outcome of
 * every trylock, with and without CONFIG_PREEMPTION, with and without core scheduling. Every path
 * must be the port's path with the same trylock outcomes, operation for operation. The first
 * difference, at the fewest CPUs and on the shortest path, is reported with the tree file:line of
 * the C's operation and the calls that led to it.
 */
public final class RqLockConformance {

    /** The tree's functions kcheck compiles, per file, in the order they are emitted. */
    static final Map<String, List<String>> FROM_TREE = new LinkedHashMap<>();

    static {
        FROM_TREE.put("kernel/sched/sched.h", List.of("sched_core_enabled", "sched_core_disabled", "rq_lockp", "__rq_lockp",
                "raw_spin_rq_lock", "rq_order_less", "_double_lock_balance", "double_lock_balance", "double_unlock_balance"));
        FROM_TREE.put("kernel/sched/core.c", List.of("raw_spin_rq_lock_nested", "raw_spin_rq_trylock", "raw_spin_rq_unlock",
                "double_rq_lock"));
    }

    /** What the shim provides instead of the tree, and why (printed by conform). */
    static final List<String> SHIMMED = List.of(
            "raw_spin_lock_nested, raw_spin_trylock, raw_spin_unlock: the lock, each an operation handed to the driver "
                    + "(a trylock's outcome is the driver's choice: both are explored)",
            "lock_set_subclass: lockdep, an operation handed to the driver",
            "double_rq_clock_clear_update: only clears a CONFIG_SCHED_DEBUG flag; an operation handed to the driver, as the port "
                    + "records it",
            "static_branch_unlikely(&__sched_core_enabled): the static key, set by the driver per configuration",
            "preempt_disable/enable/enable_no_resched, lockdep_assert_irqs_disabled: no meaning in user space, no-ops",
            "struct rq, raw_spinlock_t: the fields these functions read; likely, unlikely, swap, sparse annotations");

    /** A tree whose version has no port of this family. */
    public static final class NoPortException extends Exception {
        private static final long serialVersionUID = 1L;

        NoPortException(String message) {
            super(message);
        }
    }

    /** One configuration: CPUs, CONFIG_PREEMPTION, core scheduling with SMT pairs. */
    public record Config(int cpus, boolean preempt, boolean pairs) {
        @Override
        public String toString() {
            return cpus + " CPUs, " + (preempt ? "CONFIG_PREEMPTION" : "!CONFIG_PREEMPTION") + (pairs ? ", core scheduling (SMT pairs)"
                    : ", no core scheduling");
        }
    }

    /** One configuration's counts. */
    public record Coverage(Config config, int cPaths, int portPaths, int compared) {
    }

    /** The first difference: the call, both paths, the first differing operation and where the C made it. */
    public record Divergence(Config config, String call, String c, String java, int at, List<String> cWhere, String reason) {
    }

    /** The outcome. {@code stopped} is the reason the run stopped early (time limit, signal), or null. */
    public record Result(String port, List<CFunctions.Definition> extracted, List<Coverage> coverage, Divergence divergence,
            String stopped, double seconds) {
        public boolean complete() {
            return stopped == null;
        }
    }

    private RqLockConformance() {
    }

    /** The port for the tree's version: v6.1 and v6.12 (identical family) map to the v6.12 port. */
    public static String portFor(KernelTree tree) throws NoPortException {
        if (tree.series().equals("6.12") || tree.series().equals("6.1")) {
            return "v6.12";
        }
        throw new NoPortException("conform rq-lock: kcheck ports the double_lock_balance family of v6.1 and v6.12 (the same code), "
                + "not v" + tree.version() + " (--kernel-version 6.12 compares the tree with the v6.12 port anyway)");
    }

    /** The tree's functions, emitted for compiling with {@code #line} directives citing the tree. */
    static List<CFunctions.Definition> extract(KernelTree tree) throws IOException, CFunctions.NotFoundException {
        List<CFunctions.Definition> out = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : FROM_TREE.entrySet()) {
            Path f = tree.file(e.getKey());
            String src;
            try {
                src = Files.readString(f, StandardCharsets.UTF_8);
            } catch (IOException ex) {
                throw new IOException("cannot read " + f + " (" + ex.getMessage() + ")");
            }
            CFunctions parsed = CFunctions.parse(e.getKey(), src);
            List<CFunctions.Definition> defs = new ArrayList<>();
            for (String name : e.getValue()) {
                defs.addAll(parsed.require(name));
            }
            defs.sort(Comparator.comparingInt(CFunctions.Definition::line));
            out.addAll(defs);
        }
        return out;
    }

    /** One path of the tree's C: the call ("dlb 0 1"), its operations, its end ("return 0", "end"), where each operation was made. */
    public record CPath(String call, List<String> ops, String end, List<String> where) {
    }

    /**
     * Every path of the tree's double_lock_balance family for one configuration, with the tree
     * lines of each operation (for {@code kcheck check rq-lock --kernel-tree}, which runs these
     * paths as the CPUs' code).
     */
    public static List<CPath> paths(KernelTree tree, Config config, StopCondition stop)
            throws IOException, CFunctions.NotFoundException, CDriver.CompileException {
        List<CFunctions.Definition> defs = extract(tree);
        Path dir = kcheck.engine.ScratchDirs.create("kcheck-check-c-");
        try {
            prepare(dir, tree, defs);
            Path exe = compile(dir, config.preempt(), stop);
            Exec e = exec(dir, List.of(exe.toString(), Integer.toString(config.cpus()), config.pairs() ? "1" : "0"), 30, stop);
            if (e.stopped != null) {
                throw new IOException("stopped: " + e.stopped);
            }
            if (e.exit != 0) {
                throw new IOException("the compiled double_lock_balance family did not finish: " + e.output.strip());
            }
            List<RawPath> raw = parsePaths(e.output);
            List<List<String>> where = resolve(raw.stream().map(RawPath::where).toList(), exe);
            List<CPath> out = new ArrayList<>();
            for (int i = 0; i < raw.size(); i++) {
                String c = raw.get(i).text();
                List<String> ops = ops(c);
                out.add(new CPath(c.substring(0, c.indexOf(':')), ops.subList(0, ops.size() - 1), ops.get(ops.size() - 1), where.get(i)));
            }
            return out;
        } finally {
            kcheck.engine.ScratchDirs.release(dir);
        }
    }

    /** Compares the tree's C with the port at 2..{@code cpus} CPUs, stopping at the first CPU count that diverges. */
    public static Result run(KernelTree tree, int cpus, StopCondition stop, PrintStream progress)
            throws IOException, CFunctions.NotFoundException, CDriver.CompileException, NoPortException {
        long t0 = System.nanoTime();
        String port = portFor(tree);
        List<CFunctions.Definition> defs = extract(tree);
        if (progress != null) {
            describe(defs, progress);
        }
        Path dir = kcheck.engine.ScratchDirs.create("kcheck-conform-rqlock-");
        try {
            prepare(dir, tree, defs);
            Path[] exes = {compile(dir, false, stop), compile(dir, true, stop)};
            List<Coverage> coverage = new ArrayList<>();
            for (int n = 2; n <= cpus; n++) {
                List<Coverage> here = new ArrayList<>();
                Divergence best = null;
                for (boolean preempt : new boolean[] {false, true}) {
                    for (boolean pairs : new boolean[] {false, true}) {
                        if (pairs && n % 2 != 0) {
                            continue;
                        }
                        String why = stop.reason();
                        if (why != null) {
                            return new Result(port, defs, coverage, null, why, seconds(t0));
                        }
                        Config config = new Config(n, preempt, pairs);
                        Path exe = exes[preempt ? 1 : 0];
                        Outcome o = compare(config, exe, stop);
                        if (o.stopped != null) {
                            return new Result(port, defs, coverage, null, o.stopped, seconds(t0));
                        }
                        here.add(o.coverage);
                        if (o.divergence != null && (best == null || o.divergence.c().length() < best.c().length())) {
                            best = o.divergence;
                        }
                    }
                }
                if (n == cpus || best != null) {
                    coverage = here;
                }
                if (best != null) {
                    Divergence d = best;
                    List<String> where = resolve(List.of(d.cWhere()), exes[d.config().preempt() ? 1 : 0]).get(0);
                    return new Result(port, defs, coverage, new Divergence(d.config(), d.call(), d.c(), d.java(), d.at(), where, d.reason()),
                            null, seconds(t0));
                }
                if (progress != null && n < cpus) {
                    progress.println("  " + n + " CPUs: agree");
                    progress.flush();
                }
            }
            return new Result(port, defs, coverage, null, null, seconds(t0));
        } finally {
            kcheck.engine.ScratchDirs.release(dir);
        }
    }

    /** The extracted functions (kcheck_extracted.c), the shim and the driver, in {@code dir}. */
    private static void prepare(Path dir, KernelTree tree, List<CFunctions.Definition> defs) throws IOException {
        StringBuilder x = new StringBuilder("/* extracted by kcheck from " + tree.dir() + " */\n");
        for (CFunctions.Definition d : defs) {
            x.append(d.emit());
        }
        Files.writeString(dir.resolve("kcheck_extracted.c"), x.toString());
        for (String r : List.of("kcheck_shim.h", "kcheck_driver.c")) {
            CDriver.copyResource("rqlock/" + r, dir.resolve(r));
        }
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    private static Path compile(Path dir, boolean preempt, StopCondition stop) throws IOException, CDriver.CompileException {
        Path exe = dir.resolve(preempt ? "driver-preempt" : "driver");
        List<String> cmd = new ArrayList<>(List.of(CDriver.gcc(), "-std=gnu11", "-O0", "-gdwarf-4", "-no-pie", "-w",
                "-finstrument-functions", "-finstrument-functions-exclude-file-list=kcheck_",
                "-include", dir.resolve("kcheck_shim.h").toString(), "-DCONFIG_SMP", "-DCONFIG_SCHED_CORE"));
        if (preempt) {
            cmd.add("-DCONFIG_PREEMPTION");
        }
        cmd.addAll(List.of("-o", exe.toString(), dir.resolve("kcheck_driver.c").toString()));
        Exec e = exec(dir, cmd, 60, stop);
        if (e.stopped != null) {
            throw new CDriver.CompileException("stopped: " + e.stopped);
        }
        if (e.exit != 0) {
            throw new CDriver.CompileException(e.output.isBlank() ? "the C compiler exited with " + e.exit : e.output.strip());
        }
        return exe;
    }

    private record Outcome(Coverage coverage, Divergence divergence, String stopped) {
    }

    /** One configuration: the C's paths against the port's. */
    static Outcome compare(Config config, Path exe, StopCondition stop) throws IOException {
        Exec e = exec(exe.getParent(), List.of(exe.toString(), Integer.toString(config.cpus()), config.pairs() ? "1" : "0"), 30, stop);
        List<String> java = PortPaths.lines(new RqConfig(config.cpus(), config.pairs(), config.preempt()));
        Map<String, String> port = new LinkedHashMap<>();
        for (String l : java) {
            port.put(key(l), l);
        }
        if (e.stopped != null) {
            return new Outcome(null, null, e.stopped);
        }
        int cPaths = 0;
        int compared = 0;
        Divergence first = null;
        java.util.Set<String> cKeys = new java.util.HashSet<>();
        for (RawPath r : parsePaths(e.output)) {
            cPaths++;
            String c = r.text();
            cKeys.add(key(c));
            String j = port.get(key(c));
            if (j != null) {
                compared++;
            }
            if (!c.equals(j) && first == null) {
                first = divergence(config, c, j != null ? j : closest(c, java), j == null, r.where());
            }
        }
        String error = e.output.lines().filter(l -> l.startsWith("E ")).findFirst().orElse(null);
        if (first == null && error != null) {
            first = new Divergence(config, "", "", "", -1, List.of(), "the C " + error.substring(2));
        }
        if (first == null && e.exit != 0) {
            first = new Divergence(config, "", "", "", -1, List.of(), e.timedOut ? "the C did not finish within 30 s (a path that loops "
                    + "without a trylock?)" : "the C driver ended with exit status " + e.exit + (e.exit > 128 ? " (signal " + (e.exit - 128) + ")"
                    : ""));
        }
        if (first == null) {
            for (String j : java) {
                if (!cKeys.contains(key(j))) {
                    first = divergence(config, null, j, false, List.of());
                    break;
                }
            }
        }
        return new Outcome(new Coverage(config, cPaths, port.size(), compared), first, null);
    }

    /** "dlb 0 1" plus the trylock outcomes along the path: what identifies a path in both. */
    static String key(String path) {
        int colon = path.indexOf(':');
        StringBuilder k = new StringBuilder(path.substring(0, colon));
        for (String op : ops(path)) {
            if (op.startsWith("trylock ")) {
                k.append(' ').append(op.charAt(op.length() - 1));
            }
        }
        return k.toString();
    }

    /** The operations of a path line, its return or end included. */
    static List<String> ops(String path) {
        int colon = path.indexOf(':');
        List<String> out = new ArrayList<>();
        for (String s : path.substring(colon + 1).split(";")) {
            if (!s.isBlank()) {
                out.add(s.strip());
            }
        }
        return out;
    }

    /** Of the port's paths of the same call, the one sharing the longest prefix of operations with {@code c}. */
    private static String closest(String c, List<String> java) {
        String header = c.substring(0, c.indexOf(':') + 1);
        List<String> co = ops(c);
        String best = null;
        int bestLen = -1;
        for (String j : java) {
            if (!j.startsWith(header)) {
                continue;
            }
            List<String> jo = ops(j);
            int k = 0;
            while (k < co.size() && k < jo.size() && co.get(k).equals(jo.get(k))) {
                k++;
            }
            if (k > bestLen) {
                best = j;
                bestLen = k;
            }
        }
        return best;
    }

    private static Divergence divergence(Config config, String c, String java, boolean cOnly, List<String> where) {
        String call = (c != null ? c : java).substring(0, (c != null ? c : java).indexOf(':'));
        List<String> co = c == null ? List.of() : ops(c);
        List<String> jo = java == null ? List.of() : ops(java);
        int at = OpText.firstDifference(co, jo);
        String reason = c == null ? "the port has a path (these trylock outcomes) that the C never takes"
                : cOnly ? "the C takes a path (these trylock outcomes) that the port never takes; operation " + (at + 1)
                        + " differs from the port's closest path"
                : "operation " + (at + 1) + " differs";
        return new Divergence(config, call, c == null ? "" : c, java == null ? "" : java, at, where, reason);
    }

    /** One path as the driver prints it: "P dlb 0 1: op ; ... ; return 0" and its "W where ; where ; ..." line. */
    private record RawPath(String text, List<String> where) {
    }

    /** The driver's paths, up to its first "E" line (a path it could not finish), if any. */
    private static List<RawPath> parsePaths(String output) {
        List<RawPath> out = new ArrayList<>();
        String[] lines = output.isEmpty() ? new String[0] : output.split("\n");
        for (int i = 0; i < lines.length && !lines[i].startsWith("E "); i++) {
            if (!lines[i].startsWith("P ")) {
                continue;
            }
            List<String> where = new ArrayList<>();
            if (i + 1 < lines.length && lines[i + 1].startsWith("W ")) {
                for (String w : lines[i + 1].substring(2).split(";")) {
                    if (!w.isBlank()) {
                        where.add(w.strip());
                    }
                }
            }
            out.add(new RawPath(lines[i].substring(2), where));
        }
        return out;
    }

    /**
     * The C locations resolved, with one addr2line call for all of them: each operation's
     * "file:line in f addr addr ..." becomes "file:line in f <- file:line in g <- ..." (the addresses
     * kept out when addr2line is missing or fails: the innermost line only).
     */
    private static List<List<String>> resolve(List<List<String>> wheres, Path exe) {
        List<String> addrs = new ArrayList<>();
        for (List<String> where : wheres) {
            for (String w : where) {
                for (String t : w.split(" ")) {
                    if (t.startsWith("0x") && !addrs.contains(t)) {
                        addrs.add(t);
                    }
                }
            }
        }
        Map<String, String> place = new java.util.HashMap<>();
        List<String> r = CDriver.addr2line(exe, addrs, true);      /* none: the innermost line only */
        if (r.size() >= 2 * addrs.size()) {
            for (int i = 0; i < addrs.size(); i++) {
                place.put(addrs.get(i), r.get(2 * i + 1).replaceAll(" \\(discriminator \\d+\\)", "").replace(exe.getParent() + "/", "")
                        + " in " + r.get(2 * i));
            }
        }
        List<List<String>> out = new ArrayList<>();
        for (List<String> where : wheres) {
            List<String> resolved = new ArrayList<>();
            for (String w : where) {
                StringBuilder b = new StringBuilder();
                for (String t : w.split(" ")) {
                    if (!t.startsWith("0x")) {
                        b.append(b.length() == 0 ? "" : " ").append(t);
                    } else if (place.containsKey(t)) {
                        b.append(" <- ").append(place.get(t));
                    }
                }
                resolved.add(b.toString());
            }
            out.add(resolved);
        }
        return out;
    }

    private record Exec(int exit, String output, boolean timedOut, String stopped) {
    }

    private static Exec exec(Path dir, List<String> cmd, int seconds, StopCondition stop) throws IOException {
        Path outFile = Files.createTempFile(dir, "out", ".txt");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(outFile.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        try {
            while (!p.waitFor(50, TimeUnit.MILLISECONDS)) {
                String why = stop.reason();
                if (why != null || System.nanoTime() > deadline) {
                    p.destroyForcibly();
                    p.waitFor(5, TimeUnit.SECONDS);
                    return new Exec(-1, Files.readString(outFile, StandardCharsets.UTF_8), why == null, why);
                }
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        return new Exec(p.exitValue(), Files.readString(outFile, StandardCharsets.UTF_8), false, null);
    }

    /** What was taken from the tree (by parsing) and what the shim provides. */
    static void describe(List<CFunctions.Definition> defs, PrintStream out) {
        out.println("  from the tree (found by parsing; name:line, one entry per definition):");
        Map<String, List<String>> byFile = new LinkedHashMap<>();
        for (CFunctions.Definition d : defs) {
            long bodies = defs.stream().filter(o -> o.name().equals(d.name()) && o.file().equals(d.file())).count();
            String when = bodies > 1 && !d.conditions().isEmpty() ? " [" + d.conditions().get(d.conditions().size() - 1)
                    .replaceAll("defined\\((\\w+)\\)", "$1").replaceAll("^\\((.*)\\)$", "$1").replace("!(", "!").replace(")", "") + "]" : "";
            byFile.computeIfAbsent(d.file(), f -> new ArrayList<>()).add(d.name() + ":" + d.line() + when);
        }
        byFile.forEach((f, names) -> out.println("    " + f + ": " + String.join(", ", names)));
        out.println("  shimmed (kcheck's own: no meaning in user space, or an operation handed to the driver):");
        for (String s : SHIMMED) {
            out.println("    " + s);
        }
        out.flush();
    }

    /** The report of {@code r}, as conform prints it. */
    public static void print(Result r, PrintStream out) {
        for (Coverage c : r.coverage()) {
            out.println(String.format(Locale.ROOT, "  %-55s paths of the C: %,5d, of the port: %,5d, compared: %,5d", c.config() + ":",
                    c.cPaths(), c.portPaths(), c.compared()));
        }
        out.println(String.format(Locale.ROOT, "  time: %.1f s", r.seconds()));
        Divergence d = r.divergence();
        if (d != null) {
            out.println("DIVERGENCE (" + d.config() + ")" + (d.call().isEmpty() ? "" : " in " + call(d.call())) + ": " + d.reason());
            if (!d.call().isEmpty()) {
                List<String> co = ops(d.c().isEmpty() ? d.call() + ":" : d.c());
                List<String> jo = ops(d.java().isEmpty() ? d.call() + ":" : d.java());
                out.println(String.format(Locale.ROOT, "       %-26s %-26s %s", "C (the tree)", "Java (" + r.port() + " port)", "C called at"));
                for (int i = 0; i < Math.max(co.size(), jo.size()); i++) {
                    String where = i < d.cWhere().size() ? d.cWhere().get(i) : "";
                    out.println(String.format(Locale.ROOT, "  %2d %s %-26s %-26s %s", i + 1, i == d.at() ? "*" : " ",
                            i < co.size() ? co.get(i) : "-", i < jo.size() ? jo.get(i) : "-", where));
                }
                if (d.at() < d.cWhere().size()) {
                    out.println("  first difference: the C's operation " + (d.at() + 1) + " at " + d.cWhere().get(d.at()));
                }
            }
        } else if (!r.complete()) {
            out.println("INCOMPLETE: " + r.stopped() + " (no disagreement so far)");
        } else {
            int paths = r.coverage().stream().mapToInt(Coverage::compared).sum();
            out.println("AGREE: all " + paths + " paths of the C are the " + r.port() + " port's, operation for operation, and the port has no "
                    + "other path");
        }
    }

    private static String call(String header) {
        String[] p = header.split(" ");
        String f = switch (p[0]) {
            case "dlb" -> "double_lock_balance(this_rq = cpu %s, busiest = cpu %s)";
            case "dub" -> "double_unlock_balance(this_rq = cpu %s, busiest = cpu %s)";
            default -> "double_rq_lock(rq1 = cpu %s, rq2 = cpu %s)";
        };
        return String.format(Locale.ROOT, f, p[1], p[2]);
    }
}
