package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kcheck.conform.EditedTree;
import kcheck.conform.KernelTree;
import kcheck.conform.KernelTrees;

/**
 * {@code kcheck check rq-lock|cpudl --kernel-tree DIR}: the tree's own compiled C as the model (no
 * Java port). On Debian's trees it gives the v6.12 port's state space and verdicts exactly; a tree
 * with one line of double_rq_lock edited deadlocks, and the trace cites the tree's C lines; a
 * cpudeadline.c with the RFC v2 bug breaks heap-order. cpudl with hotplug and capacities: with
 * -Dkcheck.long=true.
 */
class CheckKernelTreeTest {
    @TempDir
    Path tmp;

    private static String states(String out) {
        Matcher m = Pattern.compile("([\\d,]+) distinct states").matcher(out);
        return m.find() ? m.group(1) : "(none in: " + out + ")";
    }

    /** The verdict lines ("  mutual-exclusion  HOLDS  ..."). */
    private static List<String> verdicts(String out) {
        return out.lines().filter(l -> l.matches("  \\S+\\s+(HOLDS|VIOLATED|INCOMPLETE)\\b.*")).toList();
    }

    @Test
    void theTreesCHasThePortsStatesAndVerdicts() {
        for (KernelTree t : KernelTrees.orSkip("check rq-lock --kernel-tree")) {
            for (List<String> config : List.of(List.of("--cpus", "3"), List.of("--cpus", "3", "--param", "preempt=n"),
                    List.of("--cpus", "4", "--param", "core-sched=pairs", "--param", "preempt=n"))) {
                List<String> c = new java.util.ArrayList<>(List.of("check", "rq-lock", "--kernel-tree", t.dir().toString(), "--quiet"));
                c.addAll(config);
                List<String> port = new java.util.ArrayList<>(List.of("check", "rq-lock", "--variant", "v6.12", "--quiet"));
                port.addAll(config);
                Cli fromC = Cli.run(c.toArray(String[]::new));
                Cli fromPort = Cli.run(port.toArray(String[]::new));
                System.out.println("[kcheck check --kernel-tree] " + t.dir() + " " + config + ": " + states(fromC.out) + " states, exit "
                        + fromC.exit + " (port v6.12: " + states(fromPort.out) + ", exit " + fromPort.exit + ")");
                assertThat(fromC.exit).as(fromC.out + fromC.err).isEqualTo(fromPort.exit);
                assertThat(states(fromC.out)).isEqualTo(states(fromPort.out));
                assertThat(verdicts(fromC.out)).isNotEmpty().isEqualTo(verdicts(fromPort.out));
                assertThat(fromC.out).contains("variant C of " + t.dir());
            }
        }
    }

    @Test
    void anEditedTreeDeadlocksWithATraceCitingItsC() throws Exception {
        KernelTree t = KernelTrees.orSkip("check rq-lock --kernel-tree").get(0);
        Path dir = EditedTree.copy(t, tmp.resolve("edited"), EditedTree.FAMILY, "kernel/sched/core.c",
                EditedTree.once("\tif (rq_order_less(rq2, rq1))", "\tif (rq_order_less(rq1, rq2))"));
        Cli r = Cli.run("check", "rq-lock", "--kernel-tree", dir.toString(), "--cpus", "2", "--param", "preempt=n", "--json");
        assertThat(r.exit).as(r.out + r.err).isEqualTo(1);
        assertThat(r.out).contains("\"deadlock-free\"").containsPattern("core\\.c:\\d+ raw_spin_rq_lock_nested ← sched\\.h:\\d+ raw_spin_rq_lock ← core\\.c:\\d+ double_rq_lock");
    }

    /** The cpudl properties the C is checked for (writes and the WARN_ONs are not reported by the C driver). */
    private static final List<String> CPUDL_ON_C = List.of("--property", "heap-order", "--property", "index-consistent", "--property",
            "root-is-latest", "--property", "free-cpus", "--property", "find-sound", "--property", "find-capacity", "--property", "same-heap",
            "--property", "sanity-fields", "--property", "sanity-bounds", "--property", "bounded-work");

    @Test
    void theTreesCpudeadlineCHasThePortsStatesAndVerdicts() {
        for (KernelTree t : KernelTrees.orSkip("check cpudl --kernel-tree")) {
            List<List<String>> configs = new java.util.ArrayList<>(List.of(List.of("--param", "cpus=3", "--param", "depth=3")));
            if (Boolean.getBoolean("kcheck.long")) {
                configs.add(List.of("--param", "cpus=3", "--param", "depth=3", "--param", "hotplug=on"));
                configs.add(List.of("--param", "cpus=4", "--param", "depth=2", "--param", "capacity=big-little"));
            }
            for (List<String> config : configs) {
                List<String> c = new java.util.ArrayList<>(List.of("check", "cpudl", "--kernel-tree", t.dir().toString(), "--quiet"));
                c.addAll(config);
                c.addAll(CPUDL_ON_C);
                List<String> port = new java.util.ArrayList<>(List.of("check", "cpudl", "--variant", "v6.12", "--quiet", "--param",
                        "find-race=off"));
                port.addAll(config);
                port.addAll(CPUDL_ON_C);
                Cli fromC = Cli.run(c.toArray(String[]::new));
                Cli fromPort = Cli.run(port.toArray(String[]::new));
                System.out.println("[kcheck check --kernel-tree] cpudl " + t.dir() + " " + config + ": " + states(fromC.out) + " states, exit "
                        + fromC.exit + " (port v6.12: " + states(fromPort.out) + ", exit " + fromPort.exit + ")");
                assertThat(fromC.exit).as(fromC.out + fromC.err).isZero().isEqualTo(fromPort.exit);
                assertThat(states(fromC.out)).isEqualTo(states(fromPort.out));
                assertThat(verdicts(fromC.out)).hasSize(10).isEqualTo(verdicts(fromPort.out));
            }
        }
    }

    /** About 9 s (the edited tree's C compiled and searched at 4 CPUs): .ci/run's long tests (tag "long"); the default build has rq-lock's edited tree below. */
    @Test
    @org.junit.jupiter.api.Tag("long")
    void aCpudeadlineCWithTheRfcBugBreaksHeapOrder() throws Exception {
        KernelTree t = KernelTrees.orSkip("check cpudl --kernel-tree").get(0);
        Path dir = EditedTree.copy(t, tmp.resolve("rfc"), List.of("kernel/sched/cpudeadline.c", "kernel/sched/cpudeadline.h"),
                "kernel/sched/cpudeadline.c", EditedTree.once("dl_time_before(orig_dl, cp->elements[p].dl)",
                        "dl_time_before(cp->elements[idx].dl, cp->elements[p].dl)"));
        Cli r = Cli.run("check", "cpudl", "--kernel-tree", dir.toString(), "--param", "cpus=4", "--param", "depth=4", "--property",
                "heap-order");
        assertThat(r.exit).as(r.out + r.err).isEqualTo(1);
        assertThat(r.out).contains("heap-order    VIOLATED    shortest trace 4 steps").contains("VIOLATION of heap-order at step 4");
    }

    @Test
    void otherModelsAndVariantsAreUsageErrors() {
        KernelTree t = KernelTrees.orSkip("check rq-lock --kernel-tree").get(0);
        for (List<String> args : List.of(List.of("check", "rwsem-owner", "--kernel-tree", t.dir().toString()),
                List.of("check", "cpudl", "--kernel-tree", t.dir().toString(), "--property", "writes"),
                List.of("check", "cpudl", "--kernel-tree", t.dir().toString(), "--param", "find-race=on"),
                List.of("check", "rq-lock", "--kernel-tree", t.dir().toString(), "--variant", "after"),
                List.of("check", "rq-lock", "--kernel-tree", tmp.resolve("nowhere").toString()))) {
            Cli r = Cli.run(args.toArray(String[]::new));
            assertThat(r.exit).as(args + ": " + r.out + r.err).isEqualTo(2);
            assertThat(r.err.strip().lines().count()).as(args + ": " + r.err).isEqualTo(1);
        }
    }
}
