package kcheck.conform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kcheck.model.cpudl.Cpudl;
import kcheck.model.cpudl.CpudlV612;

/**
 * The cpudl ports against the kernel's own cpudeadline.c of every tree in
 * {@code KCHECK_KERNEL_TREES} (CI: Debian's linux-source-6.12 and linux-source-6.1). The default
 * build runs 20,000 sequences of up to 24 calls and walks the model at 3 CPUs, depth 3, hotplug on; a million
 * sequences and the walk at the model's default bounds: {@code kcheck conform cpudl --kernel-tree
 * DIR --sequences 1000000} (docs/conform.md).
 */
class CpudlConformanceTest {
    private static final long SEED = 20160516L;

    @TempDir
    Path tmp;

    @Test
    void everyKernelTreeAgreesWithItsPortCallByCall() throws Exception {
        for (KernelTree tree : KernelTrees.orSkip("cpudl conformance with the kernel's C")) {
            CpudlConformance.Port port = CpudlConformance.portFor(tree);
            CpudlConformance.Result r = CpudlConformance.run(tree, port, new CpudlConformance.Options(SEED, 20_000, 24, true,
                    Map.of("hotplug", "on", "cpus", "3", "depth", "3"), 0), null);
            System.out.println(String.format(Locale.ROOT, "[kcheck conform] cpudl: tree %s, v%s, port %s, seed %d: %,d sequences, %,d calls, "
                    + "model walk %,d states / %,d calls, disagreements %d, %.1f s", tree.dir(), tree.version(), port.name(), SEED,
                    r.sequences(), r.calls(), r.walkStates(), r.walkCalls(), r.disagreements(), r.seconds()));
            assertThat(r.divergence()).as("divergence on %s", tree.dir()).isNull();
            assertThat(r.complete()).isTrue();
            assertThat(r.sequences()).isEqualTo(20_000);
            assertThat(r.walkCalls()).isPositive();
        }
    }

    /** One line of the C file changed (v6.12's heapify_up compares the slot's current dl: the rfc-v2 bug) is reported, minimised. */
    @Test
    void aCopyOfCpudeadlineWithOneLineEditedIsReportedWithItsMinimisedSequence() throws Exception {
        KernelTree source = KernelTrees.orSkip("the edited-copy conformance test").get(0);
        Path sched = Files.createDirectories(tmp.resolve("kernel/sched"));
        String c = Files.readString(source.file("kernel/sched/cpudeadline.c"), StandardCharsets.UTF_8);
        String original = "if (dl_time_before(orig_dl, cp->elements[p].dl))";
        assumeTrue(c.contains(original), "this tree's cpudl_heapify_up has no line '" + original + "' to edit");
        Files.writeString(sched.resolve("cpudeadline.c"), c.replace(original, "if (dl_time_before(cp->elements[idx].dl, cp->elements[p].dl))"));
        Files.copy(source.file("kernel/sched/cpudeadline.h"), sched.resolve("cpudeadline.h"));
        KernelTree edited = KernelTree.open(tmp, source.series());

        CpudlConformance.Result r = CpudlConformance.run(edited, CpudlConformance.portFor(edited),
                new CpudlConformance.Options(3, 20_000, 40, true, Map.of("hotplug", "on"), 0), null);

        assertThat(r.divergence()).isNotNull();
        CpudlConformance.Divergence d = r.divergence();
        assertThat(d.minimised().ops().size()).isLessThanOrEqualTo(d.original().ops().size()).isLessThanOrEqualTo(6);
        assertThat(d.c()).isNotEqualTo(d.java());
        assertThat(d.call()).startsWith(d.minimised().ops().size() + ". cpudl_set(");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        ConformCommand.print(r, Map.of(), new java.io.PrintStream(out, true, StandardCharsets.UTF_8));
        System.out.println("[kcheck conform] edited copy of " + source.file("kernel/sched/cpudeadline.c") + ":\n" + out);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("DIVERGENCE in generated sequence").contains("minimised to");
    }

    @Test
    void theJavaLinesAreTheDriversFormat() {
        Cpudl cp = Cpudl.init(3);
        new CpudlV612().set(cp, 1, -1L);
        assertThat(CpudlConformance.state(cp)).isEqualTo("size=1 heap=1:18446744073709551615 idx=-1,0,-1 free=5");
        CpudlConformance.Sequence s = new CpudlConformance.Sequence(2, new long[] {512, 1024},
                List.of(new CpudlConformance.Op('Q', 0, 5, false, 3, 3L << 18)));
        assertThat(CpudlConformance.javaLines(new CpudlV612(), s)).containsExactly("size=0 heap= idx=-1,-1 free=3",
                "size=0 heap= idx=-1,-1 free=3", "size=0 heap= idx=-1,-1 free=3 find=1 mask=2");
        assertThat(s.commands()).containsExactly("I 2", "K 512 1024", "Q 5 3 0 786432");
    }

    @Test
    void generatedSequencesKeepTheDeadlinesInOneWindow() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        for (int i = 0; i < 2000; i++) {
            CpudlConformance.Sequence s = CpudlConformance.generate(r, 40);
            boolean[] busy = new boolean[s.cpus()];
            long[] dl = new long[s.cpus()];
            for (CpudlConformance.Op op : s.ops()) {
                if (op.kind() == 'S') {
                    assertThat(CpudlConformance.windowed(busy, dl, op.cpu(), op.dl())).isTrue();
                    busy[op.cpu()] = true;
                    dl[op.cpu()] = op.dl();
                } else if (op.kind() == 'R') {
                    busy[op.cpu()] = false;
                }
            }
        }
        assertThat(CpudlConformance.windowed(new boolean[] {true, false}, new long[] {Long.MIN_VALUE - 1, 0}, 1, -1L)).isFalse();
    }
}
