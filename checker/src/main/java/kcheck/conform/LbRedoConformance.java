package kcheck.conform;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.lbredo.LbRedoPaths;

/**
 * lb-redo: a tree's load balancing ({@code sched_balance_rq()}, {@code load_balance()} before v6.10) against the
 * v6.12 port ({@code SchedBalanceRqV612}), by recorded-program equivalence. The functions are extracted from the
 * tree's {@code kernel/sched/fair.c} by parsing ({@link CFunctions}: {@code struct lb_env}, its enums and
 * {@code LBF_*} flags, {@code should_we_balance}, {@code detach_tasks}, {@code can_migrate_task},
 * {@code detach_task}, {@code attach_task(s)}, {@code is_core_idle}, {@code throttled_lb_pair},
 * {@code migrate_degrades_locality}), {@code enum cpu_idle_type} from {@code include/linux/sched/idle.h}, and
 * compiled against kcheck's shim, every call into the rest of the scheduler an operation handed to a driver. Each
 * path of the port's balancing walk ({@link LbRedoPaths}: every initial state of the model, every busiest queue the
 * statistics pass may answer, every pull other CPUs may make between the pieces of a call) is run on the C with the
 * same inputs, and the two texts (operations, and the runqueues at every pull and return) must be equal.
 */
public final class LbRedoConformance {

    /** What the shim provides instead of the tree (printed by conform). */
    static final List<String> SHIMMED = List.of(
            "rq_lock/rq_lock_irqsave/rq_unlock, idle_cpu (nr_running == 0), task_on_cpu/task_running (rq->curr == p), "
                    + "deactivate_task/activate_task (cfs_tasks and nr_running), set_task_cpu, schedstat_inc on a task's counter, "
                    + "WARN_ON_ONCE, lockdep_assert_rq_held: operations (lockdep's and the model's checks end the run)",
            "the statistics pass, sched_balance_find_src_group/find_busiest_group and sched_balance_find_src_rq/find_busiest_queue: "
                    + "answered with what the port's abstraction settled on (the busiest CPU, imbalance one task or none, migrate_task)",
            "task_hot(): the environment's choice per task, 0 in an SMT domain; need_active_balance(): 0 (active balance is not "
                    + "modelled); kthread_is_per_cpu 0, task_group NULL, sched_feat 0; update_rq_clock, wakeup_preempt/check_preempt_curr, "
                    + "local_irq_restore, preempt_*: nothing",
            "struct rq, task_struct, sched_domain, sched_group(_capacity) with the fields the functions name; struct cpumask one "
                    + "64-bit word with its helpers; list_* plain memory; sysctl_sched_nr_migrate and SCHED_NR_MIGRATE_BREAK the "
                    + "model's; CONFIG_SMP, CONFIG_SCHED_SMT, CONFIG_PREEMPTION on, CONFIG_NUMA_BALANCING, CONFIG_CFS_BANDWIDTH off");

    /** The functions taken from the tree's fair.c, in the order they are compiled (callees first), and the entry last. */
    static final List<String> FUNCTIONS = List.of("is_core_idle", "throttled_lb_pair", "migrate_degrades_locality", "can_migrate_task",
            "detach_task", "detach_tasks", "attach_task", "attach_tasks", "should_we_balance");

    /** The model configurations compared: each a set of lb-redo parameters, the rest at the model's defaults. */
    static final Map<String, Map<String, String>> CONFIGS = configs();

    private static Map<String, Map<String, String>> configs() {
        Map<String, Map<String, String>> m = new LinkedHashMap<>();
        m.put("flat, newly idle", Map.of());
        m.put("flat, idle", Map.of("idle", "idle"));
        m.put("flat, busy", Map.of("idle", "not-idle"));
        m.put("flat, 3 tasks, idle", Map.of("tasks", "3", "idle", "idle"));
        m.put("flat, 6 CPUs in 3 groups, idle", Map.of("cpus", "6", "groups", "3", "idle", "idle"));
        m.put("masks=local, idle", Map.of("masks", "local", "idle", "idle"));
        m.put("masks=local, newly idle", Map.of("masks", "local"));
        /* a pinned or dst-pinned task, then a movable one: LBF_SOME_PINNED / LBF_DST_PINNED with the imbalance met */
        m.put("masks=local, 3 tasks, idle", Map.of("masks", "local", "tasks", "3", "idle", "idle"));
        m.put("smt, 3 tasks, idle, no pulls", Map.of("topology", "smt", "tasks", "3", "idle", "idle", "pulls", "0"));
        m.put("masks=any, 3 CPUs, idle", Map.of("masks", "any", "cpus", "3", "idle", "idle"));
        m.put("nr-migrate=1, idle", Map.of("nr-migrate", "1", "idle", "idle"));
        m.put("smt, idle", Map.of("topology", "smt", "idle", "idle"));
        m.put("smt, busy", Map.of("topology", "smt", "idle", "not-idle"));
        m.put("cluster, idle", Map.of("topology", "cluster", "idle", "idle"));
        m.put("overlap, idle", Map.of("topology", "overlap", "idle", "idle"));
        /* CPUs 1..3 start busy or idle: should_we_balance's election among idle CPUs and idle cores */
        m.put("smt-llc (6 CPUs), busy, pulls", Map.of("topology", "smt-llc", "cpus", "6", "scenario", "race", "pulls", "1", "hot", "none",
                "idle", "not-idle"));
        m.put("smt-llc (6 CPUs), idle, pulls", Map.of("topology", "smt-llc", "cpus", "6", "scenario", "race", "pulls", "1", "hot", "none",
                "idle", "idle"));
        /* pinned tasks over three levels: an all-pinned redo that ends balanced, with sd_parent's flag set or clear */
        m.put("smt-llc (6 CPUs), pinned, idle", Map.of("topology", "smt-llc", "cpus", "6", "scenario", "pinned", "hot", "none",
                "idle", "idle"));
        m.put("smt-llc (6 CPUs), idle, hot tasks", Map.of("topology", "smt-llc", "cpus", "6", "scenario", "race", "pulls", "0",
                "idle", "idle"));
        return m;
    }

    /** A configuration's outcome. */
    public record Part(String name, LbRedoPaths.Stats stats, long compared, double seconds) {
    }

    /** The divergence: the configuration, the run's input, both texts, the C's locations and tree lines. */
    public record Divergence(String config, String input, String c, String port, List<String> where, List<List<Integer>> lines) {
    }

    /**
     * The port a tree is compared with: v6.12 ({@code SchedBalanceRqV612}) from v6.6 on, where should_we_balance() prefers
     * an idle core (b1bfeab9b002), v6.1 ({@code LoadBalanceV61}) before.
     */
    public static String portFor(KernelTree tree) {
        return tree.major() > 6 || tree.major() == 6 && tree.minor() >= 6 ? "v6.12" : "v6.1";
    }

    private static kcheck.model.lbredo.LoadBalance port(String name) {
        return name.equals("v6.1") ? new kcheck.model.lbredo.LoadBalanceV61() : kcheck.model.lbredo.LbRedoFactory.implementation("v6.12");
    }

    /** The outcome: the port, the entry function found, the parts compared, the divergence or null, stop reason or null. */
    public record Result(String port, String entry, List<CFunctions.Definition> extracted, List<Part> parts, Divergence divergence, String stopped,
                         double seconds) {
    }

    private LbRedoConformance() {
    }

    /** Extracts, compiles and compares the tree's load balancing with the v6.12 port over {@link #CONFIGS}. */
    public static Result run(KernelTree tree, StopCondition stop) throws IOException, CDriver.CompileException, CFunctions.NotFoundException {
        return run(tree, CONFIGS, stop);
    }

    /** As above, over {@code configs}. */
    public static Result run(KernelTree tree, Map<String, Map<String, String>> configs, StopCondition stop)
            throws IOException, CDriver.CompileException, CFunctions.NotFoundException {
        long t0 = System.nanoTime();
        String portName = portFor(tree);
        Path fair = tree.file("kernel/sched/fair.c");
        Path idle = tree.file("include/linux/sched/idle.h");
        for (Path f : List.of(fair, idle)) {
            if (!Files.isReadable(f)) {
                throw new IOException("cannot read " + f);
            }
        }
        CFunctions fc = CFunctions.parse("kernel/sched/fair.c", Files.readString(fair, StandardCharsets.ISO_8859_1));
        CFunctions ic = CFunctions.parse("include/linux/sched/idle.h", Files.readString(idle, StandardCharsets.ISO_8859_1));
        String entry = fc.definitions("sched_balance_rq").isEmpty() ? "load_balance" : "sched_balance_rq";
        List<CFunctions.Definition> types = new ArrayList<>();
        types.add(ic.typeDefinition("enum", "cpu_idle_type"));
        types.add(fc.typeDefinition("enum", "fbq_type"));
        types.add(fc.typeDefinition("enum", "migration_type"));
        for (String m : List.of("LBF_ALL_PINNED", "LBF_NEED_BREAK", "LBF_DST_PINNED", "LBF_SOME_PINNED", "LBF_ACTIVE_LB",
                "MAX_PINNED_INTERVAL")) {
            types.add(fc.macro(m));
        }
        types.add(fc.typeDefinition("struct", "lb_env"));
        List<CFunctions.Definition> functions = new ArrayList<>();
        for (String f : FUNCTIONS) {
            functions.addAll(fc.require(f));
        }
        functions.addAll(fc.require(entry));
        StringBuilder tu = new StringBuilder("/* kcheck: the tree's load balancing, extracted from kernel/sched/fair.c by parsing */\n");
        tu.append("#include \"kcheck_lbshim.h\"\n");
        for (CFunctions.Definition d : types) {
            tu.append(d.emit());
        }
        tu.append("#include \"kcheck_lbenv.h\"\n");
        for (CFunctions.Definition d : functions) {
            tu.append(d.emit());
        }
        tu.append("#line 1 \"kcheck_lbtree.c\"\n");
        tu.append("int kcheck_balance(int this_cpu, struct sched_domain *sd, int idle, int *continue_balancing)\n{\n\treturn ")
                .append(entry).append("(this_cpu, cpu_rq(this_cpu), sd, (enum cpu_idle_type)idle, continue_balancing);\n}\n");
        tu.append("int kcheck_idle_value(char letter)\n{\n\treturn letter == 'N' ? CPU_NEWLY_IDLE : letter == 'I' ? CPU_IDLE "
                + ": 3 - CPU_IDLE - CPU_NEWLY_IDLE;\n}\n");
        Path dir = kcheck.engine.ScratchDirs.create("kcheck-conform-lbredo-");
        try {
            CDriver.copyResource("lbredo/kcheck_lbshim.h", dir.resolve("kcheck_lbshim.h"));
            CDriver.copyResource("lbredo/kcheck_lbenv.h", dir.resolve("kcheck_lbenv.h"));
            CDriver.copyResource("lbredo/kcheck_lbdriver.c", dir.resolve("kcheck_lbdriver.c"));
            CDriver.copyResource("kcheck_drivercommon.h", dir.resolve("kcheck_drivercommon.h"));
            Files.writeString(dir.resolve("kcheck_lbtree.c"), tu.toString(), StandardCharsets.ISO_8859_1);
            Path exe = dir.resolve("lbdriver");
            List<String> common = List.of("-std=gnu11", "-w", "-gdwarf-4", "-fno-pie", "-I", dir.toString(), "-DCONFIG_SMP",
                    "-DCONFIG_SCHED_SMT", "-DCONFIG_PREEMPTION");
            List<String> treeCc = new ArrayList<>(List.of(CDriver.gcc()));
            treeCc.addAll(common);
            treeCc.addAll(List.of("-O0", "-fsanitize-coverage=trace-pc", "-c", "-o", "tree.o", "kcheck_lbtree.c"));
            List<String> drv = new ArrayList<>(List.of(CDriver.gcc()));
            drv.addAll(common);
            drv.addAll(List.of("-O1", "-c", "-o", "driver.o", "kcheck_lbdriver.c"));
            for (List<String> cmd : List.of(treeCc, drv, List.of(CDriver.gcc(), "-no-pie", "-o", exe.toString(), "tree.o", "driver.o"))) {
                CDriver.runCompiler(cmd, dir, m -> RwsemConformance.tidy(m, tree, dir).replace("kcheck_lbshim.h", "kcheck's shim"));
            }
            List<CFunctions.Definition> extracted = new ArrayList<>(types);
            extracted.addAll(functions);
            List<Part> parts = new ArrayList<>();
            ModelFactory f = Models.get("lb-redo");
            for (Map.Entry<String, Map<String, String>> c : configs.entrySet()) {
                long t1 = System.nanoTime();
                LbRedoPaths.Stats stats = new LbRedoPaths.Stats();
                kcheck.model.Params params = f.params(c.getValue());
                HashedRuns.Answer<LbRedoPaths.Run> a = HashedRuns.compare(exe, dir, sink -> LbRedoPaths.forEach(port(portName), params, stats, sink),
                        LbRedoPaths.Run::input, LbRedoPaths.Run::text, 3, stop, "lb-redo");
                parts.add(new Part(c.getKey(), stats, a.compared(), (System.nanoTime() - t1) / 1e9));
                if (a.index() >= 0) {
                    LbRedoPaths.Run run = a.run();
                    Divergence d = new Divergence(c.getKey(), run == null ? "run " + a.index() : run.input(),
                            HashedRuns.body(a.lines().get(0)), run == null ? "?" : run.text(),
                            QspinlockConformance.where(a.lines().get(1), tree, dir),
                            RwsemConformance.treeLines(a.lines().get(2), exe, "kernel/sched/fair.c"));
                    return new Result(portName, entry, extracted, parts, d, null, (System.nanoTime() - t0) / 1e9);
                }
                if (a.stopped() != null) {
                    return new Result(portName, entry, extracted, parts, null, a.stopped(), (System.nanoTime() - t0) / 1e9);
                }
            }
            return new Result(portName, entry, extracted, parts, null, null, (System.nanoTime() - t0) / 1e9);
        } finally {
            kcheck.engine.ScratchDirs.release(dir);
        }
    }

    /** The report, as conform prints it. */
    public static void print(Result r, PrintStream out) {
        long runs = 0;
        long compared = 0;
        for (Part p : r.parts()) {
            out.println(String.format(Locale.ROOT, "  %-34s %,9d paths (%,d with pulls, %,d calls), %,9d compared, %.1f s", p.name(),
                    p.stats().runs, p.stats().withPulls, p.stats().calls, p.compared(), p.seconds()));
            runs += p.stats().runs;
            compared += p.compared();
        }
        out.println(String.format(Locale.ROOT, "  time: %.1f s", r.seconds()));
        Divergence d = r.divergence();
        if (d != null) {
            out.println("DIVERGENCE in configuration '" + d.config() + "', the run " + d.input());
            int at = OpText.sideBySide(out, d.c(), d.port(), d.where(), 44);
            if (at < d.where().size()) {
                out.println("  first difference: the C's operation " + (at + 1) + " at " + d.where().get(at));
            }
            /* the gap before the operation that differs, and the one before that: an edited test often ran a step earlier */
            for (int k = Math.max(0, at - 1); k <= at; k++) {
                if (k < d.lines().size() && !d.lines().get(k).isEmpty()) {
                    out.println("  the lines of fair.c the C ran " + (k == 0 ? "before its first operation" : "between its operations " + k
                            + " and " + (k + 1)) + ": " + RwsemConformance.lines(d.lines().get(k)));
                }
            }
        } else if (r.stopped() != null) {
            out.println("INCOMPLETE: " + r.stopped() + " (no disagreement so far)");
        } else {
            out.println(String.format(Locale.ROOT, "AGREE: all %,d paths of the C are the %s port's, operation for operation (%,d compared)",
                    runs, r.port(), compared));
        }
    }
}
