package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C in a real process: kcheck is started as its own JVM with stderr going to a file (not a
 * terminal, as in CI), on a search that finds the fifo-entry violation at once but takes far
 * longer to prove mutual-exclusion (rq-lock before, 5 CPUs). Once the first progress line is in
 * the log, SIGINT is sent (the shell's kill; the child is started through {@code env
 * --default-signal=INT}, so it handles SIGINT even when this JVM ignores it, as a background job
 * does, and the test never needs to skip); the process must print the violation with its
 * timeline, say the search was interrupted, and exit 1 (a violation found is exit 1 however the
 * search ended).
 */
class InterruptTest {

    @Test
    void sigintPrintsTheVerdictsSoFarWithTheViolationsTracesAndExitsOne(@TempDir Path dir) throws Exception {
        Path err = dir.resolve("log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        /* a process started in the background by a shell ('cmd &') ignores SIGINT, and so would every
           child it starts (the JVM then cannot handle it): env(1) restores the default first */
        Process p = new ProcessBuilder("env", "--default-signal=INT", java.toString(), "-Xmx2g", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "check", "rq-lock", "--variant", "before", "--cpus", "5", "--property", "fifo-entry", "--property",
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
            new ProcessBuilder("sh", "-c", "kill -INT " + p.pid()).start().waitFor(10, TimeUnit.SECONDS);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the process ends after SIGINT").isTrue();
            reader.join(10_000);
            String o;
            synchronized (out) {
                o = out.toString();
            }
            assertThat(p.exitValue()).as(o + Files.readString(err)).isEqualTo(1);
            List<String> lines = o.lines().toList();
            assertThat(lines.get(0)).isEqualTo("model rq-lock, variant before (cpus=5 rounds=1 lock=ticket preempt=y core-sched=none calls=1)");
            /* after the signal, no second search makes the trace shortest: the first search's trace stays, and it is
               called shortest only if no ample set had been used before the signal (a slow machine can stop that early) */
            String fifo = o.contains("expanded with an ample set")
                    ? "fifo-entry +VIOLATED +trace \\d+ steps \\(partial-order reduction: may not be shortest"
                    : "fifo-entry +VIOLATED +shortest trace \\d+ steps\n";
            assertThat(o).contains("NOT EXHAUSTIVE: stopped by interrupted (SIGINT)")
                    .containsPattern(fifo)
                    .containsPattern("mutual-exclusion +INCOMPLETE")
                    .containsPattern("VIOLATION of fifo-entry at step \\d+: CPU \\d returns from double_lock_balance");
            assertThat(Files.readString(err)).contains("kcheck: SIGINT: stopping the search")
                    .contains("kcheck: interrupted (SIGINT): the search was not exhaustive");
        } finally {
            p.destroyForcibly();
        }
    }
}
