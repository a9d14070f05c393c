package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk search in a child JVM, killed with SIGKILL (kill -9) or stopped with SIGTERM part way,
 * then resumed from its checkpoint in this JVM: the same distinct-state count and verdicts as a
 * run that was never interrupted (rq-lock after, 4 CPUs, mutual-exclusion and fifo-entry).
 */
class CheckpointResumeTest {
    static final String[] RUN = {"check", "rq-lock", "--variant", "after", "--cpus", "4", "--property", "mutual-exclusion",
        "--property", "fifo-entry", "--quiet"};
    static final Pattern STATES = Pattern.compile("([\\d,]+) distinct states");
    static final Pattern NOTE = Pattern.compile("checkpoint in .*: ([\\d,]+) states, depth (\\d+)");

    private static Process child(Path dir, Path out) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
                "-cp", System.getProperty("java.class.path"), "kcheck.cli.Main"));
        cmd.addAll(List.of(RUN));
        cmd.addAll(List.of("--workers", "1", "--checkpoint", dir.toString(), "--checkpoint-every", "200ms"));
        return new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err(out).toFile()).start();
    }

    private static Path err(Path out) {
        return out.resolveSibling(out.getFileName() + ".err");
    }

    /** Waits (up to a minute) until the child's stderr holds {@code n} checkpoint notes; returns the states of the n-th. */
    private static long awaitCheckpoints(Process p, Path out, int n) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            String text = java.nio.file.Files.exists(err(out)) ? java.nio.file.Files.readString(err(out)) : "";
            Matcher m = NOTE.matcher(text);
            int seen = 0;
            while (m.find()) {
                if (++seen == n) {
                    return Long.parseLong(m.group(1).replace(",", ""));
                }
            }
            if (!p.isAlive() && seen < n) {
                throw new AssertionError("the child ended after " + seen + " checkpoints: " + text);
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no checkpoint " + n + " within a minute");
    }

    private static long states(Cli c) {
        Matcher m = STATES.matcher(c.out);
        assertThat(m.find()).as(c.out + c.err).isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    @Test
    void aSearchKilledWithSigkillResumesToTheSameCountAndVerdicts(@TempDir Path dir) throws Exception {
        long total = 436_268; // the exact store's count (README, docs/models/rq-lock.md)
        Process p = child(dir.resolve("cp"), dir.resolve("out.txt"));
        long atCheckpoint = awaitCheckpoints(p, dir.resolve("out.txt"), 1);
        Thread.sleep(100);
        assertThat(p.isAlive()).as("the child is still searching when it is killed").isTrue();
        p.destroyForcibly();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(atCheckpoint).as("killed part way").isLessThan(total);
        List<String> resume = new ArrayList<>(List.of(RUN));
        resume.addAll(List.of("--resume", dir.resolve("cp").toString()));
        Cli r = Cli.run(resume.toArray(String[]::new));
        assertThat(r.exit).as(r.out + r.err).isZero();
        assertThat(states(r)).isEqualTo(total);
        assertThat(r.out).contains("mutual-exclusion  HOLDS").contains("fifo-entry        HOLDS");
    }

    @Test
    void aSearchStoppedWithSigtermWritesACheckpointAndResumes(@TempDir Path dir) throws Exception {
        long total = 436_268;
        Process p = child(dir.resolve("cp"), dir.resolve("out.txt"));
        long first = awaitCheckpoints(p, dir.resolve("out.txt"), 1);
        p.destroy();
        long onTerm = awaitCheckpoints(p, dir.resolve("out.txt"), 2);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("ended by the signal, not finished").isNotZero();
        assertThat(first).isLessThan(total);
        assertThat(onTerm).isLessThan(total);
        List<String> resume = new ArrayList<>(List.of(RUN));
        resume.addAll(List.of("--resume", dir.resolve("cp").toString()));
        Cli r = Cli.run(resume.toArray(String[]::new));
        assertThat(r.exit).as(r.out + r.err).isZero();
        assertThat(states(r)).isEqualTo(total);
    }

    @Test
    void checkpointOptionsAreCheckedBeforeTheSearch(@TempDir Path dir) throws Exception {
        Cli a = Cli.run("check", "rq-lock", "--cpus", "2", "--resume", dir.toString());
        assertThat(a.exit).isEqualTo(2);
        assertThat(a.err).contains("no checkpoint there");
        Cli b = Cli.run("check", "rq-lock", "--cpus", "2", "--checkpoint", dir.toString(), "--store", "exact");
        assertThat(b.exit).isEqualTo(2);
        assertThat(b.err).contains("needs --store disk");
        /* a safety property: rq-lock's default set has a progress property (starvation-free), whose cycle analysis needs the exact store */
        Cli c = Cli.run("check", "rq-lock", "--cpus", "2", "--property", "mutual-exclusion", "--checkpoint", dir.toString(), "--quiet");
        assertThat(c.exit).as(c.out + c.err).isZero();
        Cli d = Cli.run("check", "rq-lock", "--cpus", "2", "--property", "mutual-exclusion", "--checkpoint", dir.toString());
        assertThat(d.exit).isEqualTo(2);
        assertThat(d.err).contains("already holds a checkpoint").contains("--resume");
        Cli e = Cli.run("check", "rq-lock", "--cpus", "3", "--property", "mutual-exclusion", "--resume", dir.toString());
        assertThat(e.exit).isEqualTo(2);
        assertThat(e.err).contains("another search").doesNotContain("Exception");
        Cli f = Cli.run("check", "rq-lock", "--cpus", "2", "--property", "mutual-exclusion", "--resume", dir.toString(), "--quiet");
        assertThat(f.exit).as("resuming a finished search gives its result").isZero();
        assertThat(states(f)).isEqualTo(states(c));
    }
}
