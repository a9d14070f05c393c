package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kcheck.conform.EditedTree;
import kcheck.conform.KernelTree;
import kcheck.conform.KernelTrees;

/**
 * {@code kcheck conform rq-lock} on every tree of {@code KCHECK_KERNEL_TREES} (CI: Debian's 6.12 and
 * 6.1): every path of the C is the port's, and the port has no other; an edited tree is a
 * divergence citing the tree's lines; a tree without a port and cpudl's options are usage errors.
 */
class ConformRqLockCliTest {
    @TempDir
    Path tmp;

    /** The default build: the first tree (about 5 s a tree); .ci/run's long tests ({@code -Dkcheck.long=true}): each. */
    @Test
    void everyPathOfEachTreesCIsThePortsPath() {
        java.util.List<KernelTree> trees = KernelTrees.orSkip("conform rq-lock");
        for (KernelTree t : Boolean.getBoolean("kcheck.long") ? trees : trees.subList(0, 1)) {
            Cli r = Cli.run("conform", "rq-lock", "--kernel-tree", t.dir().toString());
            System.out.println("[kcheck conform] rq-lock: tree " + t.dir() + ": exit " + r.exit + ", "
                    + r.out.lines().filter(l -> l.startsWith("AGREE") || l.startsWith("DIVERGENCE")).findFirst().orElse(r.err));
            assertThat(r.exit).as(r.out + r.err).isZero();
            assertThat(r.out).contains("port v6.12").contains("kernel/sched/core.c: raw_spin_rq_lock_nested:")
                    .contains("4 CPUs, !CONFIG_PREEMPTION, no core scheduling:         paths of the C:    52, of the port:    52, compared:    52")
                    .contains("4 CPUs, CONFIG_PREEMPTION, core scheduling (SMT pairs): paths of the C:    40, of the port:    40, compared:    40")
                    .contains("AGREE: all 180 paths of the C are the v6.12 port's")
                    .contains("conform rq-lock, the lock: " + t.file("kernel/locking/qspinlock.c"))
                    .contains("AGREE: all 532,818 runs of the C are the port's, operation for operation");
        }
    }

    @Test
    void oneEditedLineIsADivergenceAtTheTreesLine() throws Exception {
        KernelTree t = KernelTrees.orSkip("conform rq-lock").get(0);
        String core = Files.readString(t.file("kernel/sched/core.c"), StandardCharsets.UTF_8);
        int line = (int) core.substring(0, core.indexOf("\tif (rq_order_less(rq2, rq1))")).chars().filter(c -> c == '\n').count() + 1;
        Path dir = EditedTree.copy(t, tmp.resolve("edited"), EditedTree.FAMILY, "kernel/sched/core.c",
                EditedTree.once("\tif (rq_order_less(rq2, rq1))", "\tif (rq_order_less(rq1, rq2))"));
        Cli r = Cli.run("conform", "rq-lock", "--kernel-tree", dir.toString());
        assertThat(r.exit).as(r.out + r.err).isEqualTo(1);
        assertThat(r.out).contains("DIVERGENCE (2 CPUs, !CONFIG_PREEMPTION, no core scheduling) in double_rq_lock(rq1 = cpu 0, rq2 = cpu 1): "
                + "operation 1 differs")
                .containsPattern("first difference: the C's operation 1 at kernel/sched/core.c:\\d+ in raw_spin_rq_lock_nested <- "
                        + "kernel/sched/sched.h:\\d+ in raw_spin_rq_lock <- kernel/sched/core.c:" + (line + 3) + " in double_rq_lock");
    }

    @Test
    void usageErrorsAreOneLineAndExit2() throws Exception {
        KernelTree t = KernelTrees.orSkip("conform rq-lock").get(0);
        for (List<String> args : List.of(
                List.of("conform", "rq-lock", "--kernel-tree", t.dir().toString(), "--kernel-version", "5.4"),
                List.of("conform", "rq-lock", "--kernel-tree", t.dir().toString(), "--sequences", "10"),
                List.of("conform", "rq-lock", "--kernel-tree", t.dir().toString(), "--cpus", "1"),
                List.of("conform", "cpudl", "--kernel-tree", t.dir().toString(), "--cpus", "3"),
                List.of("conform", "rq-lock", "--kernel-tree", t.dir().toString(), "--lock-cpus", "1"),
                List.of("conform", "rq-lock", "--kernel-tree", tmp.toString(), "--kernel-version", "6.12"))) {
            Cli r = Cli.run(args.toArray(String[]::new));
            assertThat(r.exit).as(args + ": " + r.out + r.err).isEqualTo(2);
            assertThat(r.err.strip().lines().count()).as(args + ": " + r.err).isEqualTo(1);
            assertThat(r.err).doesNotContain("Exception").doesNotContain("\tat ");
        }
    }
}
