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
 * {@code kcheck conform rwsem-owner} on every tree of {@code KCHECK_KERNEL_TREES} (CI: Debian's 6.12
 * and 6.1): the C of rwsem.c's lock and unlock paths is the v6.12 port's, operation for operation, on
 * every value the reads can find (the default build with paths of at most 14 operations and wait lists of
 * one waiter; .ci/run's long tests at conform's defaults of 20 and 3); one edited line is a divergence whose report lists that
 * line; rwsem-owner's options are refused elsewhere and bad values are usage errors.
 */
class ConformRwsemCliTest {
    static final boolean LONG = Boolean.getBoolean("kcheck.long");

    @TempDir
    Path tmp;

    static final List<String> FILES = List.of("kernel/locking/rwsem.c", "kernel/locking/lock_events.h", "kernel/locking/lock_events_list.h");

    @Test
    void everyRunOfEachTreesCIsThePortsRun() {
        for (KernelTree t : KernelTrees.orSkip("conform rwsem-owner")) {
            Cli r = LONG ? Cli.run("conform", "rwsem-owner", "--kernel-tree", t.dir().toString())
                    : Cli.run("conform", "rwsem-owner", "--kernel-tree", t.dir().toString(), "--max-ops", "14", "--waiters", "1", "--horizon", "1");
            System.out.println("[kcheck conform] rwsem-owner: tree " + t.dir() + ": exit " + r.exit + ", "
                    + r.out.lines().filter(l -> l.startsWith("AGREE") || l.startsWith("DIVERGENCE")).findFirst().orElse(r.err));
            assertThat(r.exit).as(r.out + r.err).isZero();
            assertThat(r.out).contains("conform rwsem-owner: " + t.file("kernel/locking/rwsem.c")).contains("port v6.12 (RwsemV612)")
                    .doesNotContain("memory orderings are not compared").contains("each an operation handed to the driver with its memory ordering").doesNotContain(
                            "not compared yet: memory orderings")
                    .containsPattern("under wait_lock, on every wait list of 1 to " + (LONG ? 3 : 1) + " readers and writers: [0-9,]+ runs")
                    .containsPattern("and all [0-9,]+ runs under wait_lock")
                    .contains(LONG ? "runs of the port: 2,782,264 (R 136, r 136, W 1,390,996, w 1,390,996)"
                            : "runs of the port: 58,660 (R 94, r 94, W 29,236, w 29,236)")
                    .containsPattern("AGREE: all [0-9,]+ runs of the C are the port's, operation for operation");
        }
    }

    @Test
    void oneEditedLineIsADivergenceWhoseReportListsThatLine() throws Exception {
        KernelTree t = KernelTrees.orSkip("conform rwsem-owner").get(0);
        String old = "while (!(count & (RWSEM_LOCK_MASK|RWSEM_FLAG_HANDOFF))) {";
        String src = Files.readString(t.file("kernel/locking/rwsem.c"), StandardCharsets.UTF_8);
        int line = (int) src.substring(0, src.indexOf(old)).chars().filter(c -> c == '\n').count() + 1;
        Path dir = EditedTree.copy(t, tmp.resolve("edited"), FILES, "kernel/locking/rwsem.c",
                EditedTree.once(old, "while (!(count & RWSEM_LOCK_MASK)) {"));
        Cli r = Cli.run("conform", "rwsem-owner", "--kernel-tree", dir.toString());
        assertThat(r.exit).as(r.out + r.err).isEqualTo(1);
        assertThat(r.out).contains("DIVERGENCE in down_write; up_write of task 1")
                .contains("E count cmpxchg 4 5 RMW_ACQUIRE (a read at kernel/locking/rwsem.c:" + (line + 1))
                .contains("the port's operation 7 is in rwsem_optimistic_spin")
                .containsPattern("the lines of rwsem.c the C ran between its operations 6 and 7: (\\d+, )*" + line + "\\b");
    }

    @Test
    void usageErrorsAreOneLineAndExit2() {
        KernelTree t = KernelTrees.orSkip("conform rwsem-owner").get(0);
        for (List<String> args : List.of(
                List.of("conform", "rwsem-owner", "--kernel-tree", t.dir().toString(), "--readers", "0"),
                List.of("conform", "rwsem-owner", "--kernel-tree", t.dir().toString(), "--max-ops", "2"),
                List.of("conform", "rwsem-owner", "--kernel-tree", t.dir().toString(), "--waiters", "4"),
                List.of("conform", "lb-redo", "--kernel-tree", t.dir().toString(), "--waiters", "2"),
                List.of("conform", "rwsem-owner", "--kernel-tree", t.dir().toString(), "--horizon", "-1"),
                List.of("conform", "rwsem-owner", "--kernel-tree", t.dir().toString(), "--cpus", "3"),
                List.of("conform", "rq-lock", "--kernel-tree", t.dir().toString(), "--readers", "2"),
                List.of("conform", "cpudl", "--kernel-tree", t.dir().toString(), "--max-ops", "9"),
                List.of("conform", "rwsem-owner", "--kernel-tree", tmp.toString(), "--kernel-version", "6.12"))) {
            Cli r = Cli.run(args.toArray(String[]::new));
            assertThat(r.exit).as(args + ": " + r.out + r.err).isEqualTo(2);
            assertThat(r.err.strip().lines().count()).as(args + ": " + r.err).isEqualTo(1);
            assertThat(r.err).doesNotContain("Exception").doesNotContain("\tat ");
        }
    }
}
