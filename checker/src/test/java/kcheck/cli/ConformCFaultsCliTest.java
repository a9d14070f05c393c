package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kcheck conform} on a C that hangs, crashes or writes outside its arrays: a divergence of
 * the C from the port (exit 1, minimised), never a hang of kcheck nor an exit 2. The C is a small
 * stand-in for cpudeadline.c written here (no kernel tree needed, only gcc): init, clear and
 * cleanup as the kernel's for a CPU that is not in the heap; cpudl_set and cpudl_find do
 * {@code SET_FAULT}, and cpudl_clear of a CPU going offline {@code OFFLINE_FAULT}. So the first
 * set or find of a sequence, or the first rq_offline_dl, is where it goes wrong. A hang that would
 * have hung the old code is bounded by a JUnit timeout on a separate thread.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConformCFaultsCliTest {
    @TempDir
    Path tmp;

    private static final String HEADER = """
            #define IDX_INVALID -1
            struct cpudl_item { u64 dl; int cpu; int idx; };
            struct cpudl { raw_spinlock_t lock; int size; cpumask_var_t free_cpus; struct cpudl_item *elements; };
            """;

    private static final String SOURCE = """
            #include <stdio.h>
            #include <stdlib.h>
            #ifndef SET_FAULT
            #define SET_FAULT
            #endif
            #ifndef OFFLINE_FAULT
            #define OFFLINE_FAULT
            #endif
            int cpudl_init(struct cpudl *cp)
            {
            \tcp->size = 0;
            \tcp->elements = kcalloc(nr_cpu_ids, sizeof(struct cpudl_item), GFP_KERNEL);
            \tzalloc_cpumask_var(&cp->free_cpus, GFP_KERNEL);
            \tfor (int i = 0; i < (int)nr_cpu_ids; i++)
            \t\tcp->elements[i].idx = IDX_INVALID;
            \treturn 0;
            }
            void cpudl_cleanup(struct cpudl *cp) { kfree(cp->elements); }
            void cpudl_clear(struct cpudl *cp, int cpu, bool online)
            {
            \tif (online) {
            \t\t__cpumask_set_cpu(cpu, cp->free_cpus);
            \t} else {
            \t\t__cpumask_clear_cpu(cpu, cp->free_cpus);
            \t\tOFFLINE_FAULT;
            \t}
            }
            void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { SET_FAULT; }
            int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *later_mask) { SET_FAULT; return 0; }
            """;

    /** A seed whose sequences call rq_offline_dl before any set or find (only cpudl_clear of online CPUs before it). */
    private static final long OFFLINE_FIRST = 6;

    /** A tree (v6.12) whose cpudeadline.c starts with "#define {@code define}". */
    private Path tree(String define) throws Exception {
        Path sched = Files.createDirectories(tmp.resolve("kernel/sched"));
        Files.writeString(tmp.resolve("Makefile"), "VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n");
        Files.writeString(sched.resolve("cpudeadline.h"), HEADER);
        Files.writeString(sched.resolve("cpudeadline.c"), "#define " + define + "\n" + SOURCE);
        return tmp;
    }

    private Cli conform(String define, long seed, String... more) throws Exception {
        assumeTrue(ConformCliTest.gcc(), "no gcc on this machine: kcheck conform's handling of a failing C is not tested");
        List<String> args = new java.util.ArrayList<>(List.of("conform", "cpudl", "--kernel-tree", tree(define).toString(), "--seed",
                Long.toString(seed), "--sequences", "50", "--no-walk"));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    @Test
    void aCrashInTheCIsADivergenceNamedByItsSignalAtTheMinimisedCall() throws Exception {
        Cli r = conform("SET_FAULT (*(volatile int *)0 = cp->size)", 7);
        assertThat(r.exit).as(r.out + r.err).isEqualTo(1);
        assertThat(r.out).contains("DIVERGENCE in generated sequence 1 (seed 7): the C crashed with SIGSEGV at call 1;")
                .contains("minimised to 1 (on ").contains("C    (kernel/sched/cpudeadline.c): crashed with SIGSEGV");
        assertThat(r.err).isEmpty();
    }

    @Test
    void aCallThatNeverReturnsAfterWritingHalfALineIsAHangDivergenceNotAHangOfKcheck() throws Exception {
        /* short sequences: each hanging candidate of the minimisation costs more than a call timeout */
        Cli r = conform("SET_FAULT do { fputs(\"size=\", stdout); fflush(stdout); for (volatile int spin = 1; spin;) ; } while (0)", 7,
                "--calls", "2");
        assertThat(r.exit).as(r.out + r.err).isEqualTo(1);
        assertThat(r.out).contains("the C did not return within 1000 ms at call 1;").contains("minimised to 1 (on ");
    }

    @Test
    void aDriverThatDiesInTheMiddleOfAnAnswerIsACrash() throws Exception {
        Cli r = conform("SET_FAULT do { fputs(\"size=0 he\", stdout); fflush(stdout); abort(); } while (0)", 7);
        assertThat(r.exit).as(r.out + r.err).isEqualTo(1);
        assertThat(r.out).contains("the C crashed with SIGABRT (in the middle of an answer) at call 1;");
    }

    @Test
    void aWriteJustPastTheEndOfAnArrayIsADivergenceEvenWhenNothingPrintedChanges() throws Exception {
        Cli r = conform("OFFLINE_FAULT (cp->elements[nr_cpu_ids].dl = 0)", OFFLINE_FIRST);
        assertThat(r.exit).as(r.out + r.err).isEqualTo(1);
        assertThat(r.out).containsPattern("the C wrote bytes 0\\.\\.7 past the end of a kcalloc'd array of \\d+ bytes at call 1;");
    }

    @Test
    void aWriteJustBeforeTheStartOfAnArrayIsADivergenceToo() throws Exception {
        Cli r = conform("OFFLINE_FAULT (cp->elements[-1].idx = 0)", OFFLINE_FIRST);
        assertThat(r.exit).as(r.out + r.err).isEqualTo(1);
        assertThat(r.out).containsPattern("the C wrote bytes 1\\.\\.4 before the start of a kcalloc'd array of \\d+ bytes at call 1;");
    }

    @Test
    void theTimeLimitStopsAWaitForTheCWithExit3() throws Exception {
        long t0 = System.nanoTime();
        Cli r = conform("SET_FAULT for (volatile int spin = 1; spin;)", 7, "--call-timeout", "100s", "--time-limit", "2s");
        assertThat(r.exit).as(r.out + r.err).isEqualTo(3);
        assertThat(r.out).contains("INCOMPLETE: the time limit (2s) was hit first (no disagreement so far)");
        /* a bound on how long it takes to stop, with a wide margin: not a timing test */
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0)).isLessThan(60);
    }

    @Test
    void aSignalStopsAWaitForTheCWithExit3() throws Exception {
        assumeTrue(ConformCliTest.gcc(), "no gcc on this machine");
        Path t = tree("SET_FAULT for (volatile int spin = 1; spin;)");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path out = tmp.resolve("out");
        Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"), Main.class.getName(), "conform", "cpudl",
                "--kernel-tree", t.toString(), "--seed", "7", "--no-walk", "--call-timeout", "100s")
                .redirectOutput(out.toFile()).redirectError(tmp.resolve("err").toFile()).start();
        try {
            for (int i = 0; i < 600 && !Files.readString(out).contains("seed 7 (repeat"); i++) {
                Thread.sleep(100);
            }
            Thread.sleep(1000);
            new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor(10, TimeUnit.SECONDS);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("kcheck conform ends after SIGTERM").isTrue();
            assertThat(p.exitValue()).as(Files.readString(out)).isEqualTo(3);
            assertThat(Files.readString(out)).contains("INCOMPLETE: interrupted (SIGTERM) (no disagreement so far)");
        } finally {
            p.destroyForcibly();
        }
    }
}
