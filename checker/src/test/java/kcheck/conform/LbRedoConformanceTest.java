package kcheck.conform;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * conform lb-redo on every tree of {@code KCHECK_KERNEL_TREES} (CI: Debian's 6.12 and 6.1): every path of the port's
 * balancing walks is the C's (the default build: three of conform's configurations; .ci/run's long tests: all of
 * them), and the power table of docs/conform-power.md: one-line edits of fair.c's balancing functions are named as
 * divergences, behaviour-preserving rewrites are not (the default build: two edits on the first tree; long tests:
 * every edit on every tree whose text has it).
 */
class LbRedoConformanceTest {
    static final boolean LONG = Boolean.getBoolean("kcheck.long");

    static final List<String> FILES = List.of("kernel/sched/fair.c", "include/linux/sched/idle.h");

    /** The short version: the newly idle flat walk, the LBF_DST_PINNED path, should_we_balance's election. */
    static Map<String, Map<String, String>> configs() {
        if (LONG) {
            return LbRedoConformance.CONFIGS;
        }
        Map<String, Map<String, String>> m = new LinkedHashMap<>();
        for (String k : List.of("flat, newly idle", "masks=local, idle", "smt-llc (6 CPUs), busy, pulls")) {
            m.put(k, LbRedoConformance.CONFIGS.get(k));
        }
        return m;
    }

    /** One edit of fair.c: its name, the text it replaces (once), the replacement, whether it must be named. */
    record Edit(String id, String what, String old, String replacement, boolean mutant) {
    }

    static final List<Edit> EDITS = List.of(
            new Edit("B1", "detach_tasks: emptied-source test off by one", "\tif (env->src_rq->nr_running <= 1) {\n\t\tenv->flags &= ~LBF_ALL_PINNED;",
                    "\tif (env->src_rq->nr_running < 1) {\n\t\tenv->flags &= ~LBF_ALL_PINNED;", true),
            new Edit("B2", "can_migrate_task: new_dst_cpu computed for a newly idle balance", "\t\tif (env->idle == CPU_NEWLY_IDLE ||\n"
                    + "\t\t    env->flags & (LBF_DST_PINNED | LBF_ACTIVE_LB))", "\t\tif (env->flags & (LBF_DST_PINNED | LBF_ACTIVE_LB))", true),
            new Edit("B3", "detach_tasks: the loop's keep-one test off by one (needs an imbalance above one task)",
                    "\t\tif (env->idle && env->src_rq->nr_running <= 1)", "\t\tif (env->idle && env->src_rq->nr_running < 1)", true),
            new Edit("B4", "detach_tasks: loop_max bound off by one", "\t\tif (env->loop > env->loop_max)", "\t\tif (env->loop >= env->loop_max)", true),
            new Edit("B5", "sched_balance_rq: moves tasks off a busiest with one task", "\tif (busiest->nr_running > 1) {",
                    "\tif (busiest->nr_running >= 1) {", true),
            new Edit("B6", "all-pinned redo test inverted", "\t\t\tif (!cpumask_subset(cpus, env.dst_grpmask)) {",
                    "\t\t\tif (cpumask_subset(cpus, env.dst_grpmask)) {", true),
            new Edit("B7", "all-pinned busiest not cleared from cpus", "\t\t\t__cpumask_clear_cpu(cpu_of(busiest), cpus);", "\t\t\t;", true),
            new Edit("B8", "LBF_ALL_PINNED not set before moving", "\t/* Clear this flag as soon as we find a pullable task */\n\tenv.flags |= LBF_ALL_PINNED;",
                    "\t/* Clear this flag as soon as we find a pullable task */", true),
            new Edit("B9", "can_migrate_task: LBF_ALL_PINNED not cleared", "\t/* Record that we found at least one task that could run on dst_cpu */\n"
                    + "\tenv->flags &= ~LBF_ALL_PINNED;", "\t/* Record that we found at least one task that could run on dst_cpu */", true),
            new Edit("B10", "should_we_balance: the first idle CPU always balances", "\t\treturn cpu == env->dst_cpu;", "\t\treturn 1;", true),
            new Edit("B11", "out_balanced: clears sd_parent's imbalance although all were pinned", "\tif (sd_parent && !(env.flags & LBF_ALL_PINNED)) {",
                    "\tif (sd_parent) {", true),
            new Edit("B12", "sd_parent's imbalance set although the imbalance was met", "\t\t\tif ((env.flags & LBF_SOME_PINNED) && env.imbalance > 0)",
                    "\t\t\tif (env.flags & LBF_SOME_PINNED)", true),
            new Edit("B13", "detach_tasks: migrate_task does not count the task", "\t\tcase migrate_task:\n\t\t\tenv->imbalance--;",
                    "\t\tcase migrate_task:", true),
            new Edit("B14", "detach_task: set_task_cpu before deactivate_task (swapped)", "\tdeactivate_task(env->src_rq, p, DEQUEUE_NOCLOCK);\n"
                    + "\tset_task_cpu(p, env->dst_cpu);", "\tset_task_cpu(p, env->dst_cpu);\n\tdeactivate_task(env->src_rq, p, DEQUEUE_NOCLOCK);", true),
            new Edit("B15", "can_migrate_task: running-task check removed", "\tif (task_on_cpu(env->src_rq, p)) {", "\tif (0) {", true),
            new Edit("B16", "is_core_idle: the CPU itself counted as a sibling", "\t\tif (cpu == sibling)\n\t\t\tcontinue;", "", true),
            new Edit("B17", "should_we_balance: the last idle SMT CPU remembered", "\t\t\tif (idle_smt == -1)\n\t\t\t\tidle_smt = cpu;",
                    "\t\t\tidle_smt = cpu;", true),
            new Edit("B18", "LBF_DST_PINNED retry keeps the old dst_cpu", "\t\t\tenv.dst_cpu\t = env.new_dst_cpu;\n", "", true),
            new Edit("B19", "LBF_DST_PINNED retry although the imbalance was met", "\t\tif ((env.flags & LBF_DST_PINNED) && env.imbalance > 0) {",
                    "\t\tif (env.flags & LBF_DST_PINNED) {", true),
            new Edit("B20", "can_migrate_task: new_dst_cpu test inverted", "\t\t\tif (cpumask_test_cpu(cpu, p->cpus_ptr)) {\n"
                    + "\t\t\t\tenv->flags |= LBF_DST_PINNED;", "\t\t\tif (!cpumask_test_cpu(cpu, p->cpus_ptr)) {\n\t\t\t\tenv->flags |= LBF_DST_PINNED;", true),
            new Edit("B21", "busiest left locked while attaching (rq_unlock dropped)", "\t\trq_unlock(busiest, &rf);\n\n\t\tif (cur_ld_moved) {",
                    "\t\tif (cur_ld_moved) {", true),
            new Edit("R1", "refactor: a negated test", "\tif (env->imbalance <= 0)\n\t\treturn 0;\n\n\twhile",
                    "\tif (!(env->imbalance > 0))\n\t\treturn 0;\n\n\twhile", false),
            new Edit("R2", "refactor: a return of a comparison as an if", "\t\treturn cpu == env->dst_cpu;",
                    "\t\tif (cpu == env->dst_cpu)\n\t\t\treturn 1;\n\t\treturn 0;", false),
            new Edit("R3", "refactor: stores reordered, cpu_of()", "\tenv.src_cpu = busiest->cpu;\n\tenv.src_rq = busiest;",
                    "\tenv.src_rq = busiest;\n\tenv.src_cpu = cpu_of(busiest);", false));

    @TempDir
    Path tmp;

    @Test
    void everyPathOfEachTreesCIsThePortsPath() throws Exception {
        for (KernelTree t : KernelTrees.orSkip("conform lb-redo")) {
            LbRedoConformance.Result r = LbRedoConformance.run(t, configs(), StopCondition.NEVER);
            System.out.println("[kcheck conform] lb-redo: tree " + t.dir() + " port " + r.port() + ": " + r.parts().stream()
                    .mapToLong(p -> p.compared()).sum() + " paths compared, " + (r.divergence() == null ? "AGREE" : "DIVERGENCE"));
            assertThat(r.divergence()).as(t.dir() + ": " + r.divergence()).isNull();
            assertThat(r.stopped()).isNull();
            assertThat(r.port()).isEqualTo(t.minor() >= 6 ? "v6.12" : "v6.1");
            assertThat(r.parts()).hasSize(configs().size()).allSatisfy(p -> {
                assertThat(p.stats().runs).isPositive();
                assertThat(p.compared()).isEqualTo(p.stats().runs);
            });
        }
    }

    /** The tree 6.12 compared with the v6.1 port: should_we_balance's idle-core preference (v6.6) is a divergence. */
    @Test
    void aTreeAgainstTheOtherVersionsPortDiverges() throws Exception {
        for (KernelTree t : KernelTrees.orSkip("conform lb-redo")) {
            KernelTree other = new KernelTree(t.dir(), t.major(), t.minor() >= 6 ? 1 : 12, -1);
            LbRedoConformance.Result r = LbRedoConformance.run(other, configs(), StopCondition.NEVER);
            assertThat(r.divergence()).as(t.dir() + " against port " + r.port()).isNotNull();
            assertThat(r.divergence().config()).contains("smt");
        }
    }

    @Test
    void powerTable() throws Exception {
        List<KernelTree> trees = KernelTrees.orSkip("conform lb-redo");
        List<KernelTree> on = LONG ? trees : trees.subList(0, 1);
        List<String> ids = LONG ? null : List.of("B14", "R3");
        for (KernelTree t : on) {
            String src = Files.readString(t.file("kernel/sched/fair.c"), StandardCharsets.UTF_8);
            int mutants = 0;
            int named = 0;
            List<String> rows = new ArrayList<>();
            for (Edit e : EDITS) {
                if (ids != null && !ids.contains(e.id()) || src.indexOf(e.old()) < 0 || src.indexOf(e.old()) != src.lastIndexOf(e.old())) {
                    continue;
                }
                Path dir = EditedTree.copy(t, tmp.resolve(t.dir().getFileName() + "-" + e.id()), FILES, "kernel/sched/fair.c",
                        EditedTree.once(e.old(), e.replacement()));
                LbRedoConformance.Result r = LbRedoConformance.run(KernelTree.open(dir, null), configs(), StopCondition.NEVER);
                boolean diverged = r.divergence() != null;
                rows.add(e.id() + " " + (diverged ? "named (" + r.divergence().config() + ")" : "agree") + ": " + e.what());
                if (e.mutant()) {
                    mutants++;
                    named += diverged ? 1 : 0;
                } else {
                    assertThat(diverged).as(t.dir() + " " + e.id() + " " + e.what() + ": " + r.divergence()).isFalse();
                }
            }
            rows.forEach(x -> System.out.println("[kcheck conform] lb-redo power " + t.dir().getFileName() + ": " + x));
            if (LONG) {
                assertThat(named).as(t.dir() + ": " + rows).isGreaterThanOrEqualTo((int) Math.ceil(0.9 * mutants));
                assertThat(mutants).isGreaterThanOrEqualTo(15);
            } else {
                assertThat(named).as(rows.toString()).isEqualTo(mutants).isEqualTo(1);
            }
        }
    }
}
