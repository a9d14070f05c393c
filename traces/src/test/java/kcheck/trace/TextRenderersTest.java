package kcheck.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TextRenderersTest {

    /** Six tasks with long actions and fields: the shape of an rwsem trace with 3 readers and 3 writers. */
    static Trace sixTasks() {
        List<String> actors = List.of("reader 0", "reader 1", "reader 2", "writer 0", "writer 1", "writer 2");
        List<Trace.Step> steps = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            steps.add(new Trace.Step(i, (i * 5) % 6, "__rwsem_down_write_failed_common: raw_spin_lock(wait_lock) step " + i,
                    "rwsem_down_write_failed (kernel/locking/rwsem-xadd.c:NNN, v4.7)",
                    List.of(new Trace.Field("writer" + i + ".at", 3, "rwsem_optimistic_spin: osq_lock(&sem->osq) -> "
                            + "spinning on owner " + "x".repeat(60))), null));
        }
        return new Trace(Trace.FORMAT, "rwsem-owner", "before", Map.of("readers", "3", "writers", "3"), "exclusion",
                "invariant", "VIOLATED", "two writers hold the lock: " + "y".repeat(120), null, actors,
                List.of(new Trace.Field("count", null, "0")), steps, null, 8, null, null,
                List.of("rq2=[t2.0*! t2.1]: rq 2 holds task 2.0 (running, marked) and 2.1"), null, null, null);
    }

    @ParameterizedTest
    @ValueSource(ints = {40, 60, 72, 100, 150})
    void timelineLinesFitTheWidth(int width) {
        for (Trace t : List.of(SampleTraces.fifo(), SampleTraces.lasso(), SampleTraces.withLocks(), sixTasks())) {
            String text = TimelineRenderer.render(t, width);
            assertThat(text.lines()).as("width %d:%n%s", width, text).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(width));
        }
    }

    @Test
    void tooManyColumnsForTheWidthFallBackToOneLinePerStep() {
        String narrow = TimelineRenderer.render(sixTasks(), 100);
        assertThat(narrow).contains("one line per step").contains("writer 1  __rwsem_down_write_failed_common")
                .doesNotContain("| reader 0");
        String wide = TimelineRenderer.render(sixTasks(), 150);
        assertThat(wide).contains("| reader 0").contains("| writer 2");
    }

    @Test
    void timelineEndsWithTheLegend() {
        String text = TimelineRenderer.render(SampleTraces.withLocks(), 100);
        assertThat(text).contains("legend:\n  rqN.next: the next ticket rq N hands out\n");
        assertThat(TimelineRenderer.render(SampleTraces.fifo())).doesNotContain("legend:");
    }

    @Test
    void compactFormIsOneLinePerStepWithNumberedKernelCitations() {
        String text = CompactRenderer.steps(SampleTraces.fifo(), 72);
        assertThat(text).contains("  1  CPU 0  spin_lock(rq[0]): take ticket [1]\n")
                .contains("  2  CPU 1  spin_unlock(rq[1]) [2]\n")
                .contains("=>3  CPU 0  spin_trylock(rq[1]) = 1")
                .contains("kernel code:\n  [1] __ticket_spin_lock (include/asm-x86/spinlock.h, v2.6.25)\n"
                        + "  [2] double_lock_balance (kernel/sched.c, v2.6.27)\n");
    }

    @Test
    void mailIsSeventyTwoColumnsWithVerdictStepsLegendAndReproduceCommand() {
        String mail = MailRenderer.render(SampleTraces.withLocks());
        assertThat(mail.lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(72));
        assertThat(mail).contains("kcheck: rq-lock, variant before (cpus=2)")
                .contains("fifo-entry: VIOLATED (3 steps, violated at step 3)")
                .contains("  2  CPU 1  spin_unlock(rq[1]) [2]")
                .contains("legend:\n  rqN.next")
                .contains("reproduce (kcheck 0.1.0 (git 0123abc)):\n  kcheck check rq-lock --variant before --param cpus=2")
                .contains("--property fifo-entry")
                .contains("  " + "ab".repeat(32) + "\n");
        String six = MailRenderer.render(sixTasks());
        assertThat(six.lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(72));
    }

    @Test
    void reproduceCommandWrapsWithShellContinuations() {
        StringBuilder out = new StringBuilder();
        Reproduce.shell(out, List.of("kcheck check rq-lock", "--variant before", "--param cpus=2", "--param rounds=1",
                "--param lock=ticket", "--property fifo-entry"), 40, "  ", "      ");
        assertThat(out.toString().lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(40));
        assertThat(out.toString()).contains(" \\\n      --param").doesNotContain("--param\n");
    }

    @Test
    void reproduceNamesTheVariantFileAndItsHash() {
        Trace t = SampleTraces.fifo().withVariantFile("/tmp/patch/Mine.java (sha256 " + "cd".repeat(32) + ")");
        assertThat(Reproduce.command(t)).contains("--variant-file /tmp/patch/Mine.java").doesNotContain("--variant before");
        assertThat(Reproduce.sha256(t)).isEqualTo("cd".repeat(32));
    }
}
