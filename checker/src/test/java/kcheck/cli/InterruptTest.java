package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C in a real process: kcheck is started as its own JVM with stderr going to a file (not a
 * terminal, as in CI), on a search that finds the fifo-entry violation at once but takes far
 * longer to prove mutual-exclusion (rq-lock before, 5 CPUs). Once the first progress line is in
 * the log, SIGINT is sent; the process must print the violation with its timeline, say the search
 * was interrupted, and exit 1 (a violation found is exit 1 however the search ended).
 */
class InterruptTest {

    @Test
    void sigintPrintsTheVerdictsSoFarWithTheViolationsTracesAndExitsOne(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/kill")) || Files.isExecutable(Path.of("/usr/bin/kill")),
                "SKIPPED: no kill(1) to send SIGINT");
        /* a process started in the background by a shell ('cmd &') ignores SIGINT, and so does every
           child it starts: the JVM then cannot handle it, and the child would never see the signal */
        Assumptions.assumeFalse(sigintIgnored(), "SKIPPED: this process ignores SIGINT (started in the background), and so would the child");
        Path err = dir.resolve("log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-Xmx2g", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "check", "rq-lock", "--variant", "before", "--cpus", "5", "--property", "fifo-entry", "--property",
                "mutual-exclusion", "--workers", "1", "--progress-interval", "1")
                .redirectError(err.toFile()).start();
        try {
            StringBuilder out = new StringBuilder();
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    String l;
                    while ((l = r.readLine()) != null) {
                        synchronized (out) {
                            out.append(l).append('\n');
                        }
                    }
                } catch (java.io.IOException e) {
                    // process gone
                }
            });
            reader.start();
            for (int i = 0; i < 600 && !(Files.exists(err) && Files.readString(err).contains("kcheck: progress at")); i++) {
                assertThat(p.isAlive()).as("still searching when the first progress line is written").isTrue();
                Thread.sleep(100);
            }
            assertThat(Files.readString(err)).contains("kcheck: progress at");
            new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor(10, TimeUnit.SECONDS);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the process ends after SIGINT").isTrue();
            reader.join(10_000);
            String o;
            synchronized (out) {
                o = out.toString();
            }
            assertThat(p.exitValue()).as(o + Files.readString(err)).isEqualTo(1);
            List<String> lines = o.lines().toList();
            assertThat(lines.get(0)).isEqualTo("model rq-lock, variant before (cpus=5 rounds=1 lock=ticket preempt=y core-sched=none calls=1)");
            assertThat(o).contains("NOT EXHAUSTIVE: stopped by interrupted (SIGINT)")
                    /* after the signal, no second search makes the trace shortest: the first search's trace stays */
                    .containsPattern("fifo-entry +VIOLATED +trace \\d+ steps \\(partial-order reduction: may not be shortest")
                    .containsPattern("mutual-exclusion +INCOMPLETE")
                    .containsPattern("VIOLATION of fifo-entry at step \\d+: CPU \\d returns from double_lock_balance");
            assertThat(Files.readString(err)).contains("kcheck: SIGINT: stopping the search")
                    .contains("kcheck: interrupted (SIGINT): the search was not exhaustive");
        } finally {
            p.destroyForcibly();
        }
    }

    /** True if this process ignores SIGINT (bit 2 of the SigIgn mask in /proc/self/status, Linux). */
    private static boolean sigintIgnored() throws java.io.IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return false;
        }
        for (String l : Files.readAllLines(status)) {
            if (l.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(l.substring(7).trim(), 16) & 2) != 0;
            }
        }
        return false;
    }
}
