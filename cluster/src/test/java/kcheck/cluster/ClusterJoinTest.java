package kcheck.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * A node that cannot join: {@code check --cluster} and {@code worker --join} naming an address
 * where nothing listens end with exit 2 and one line naming it, after the join time (3 s here,
 * {@code -Dkcheck.cluster.join}); a worker told to join another address never starts a cluster of
 * its own; a port that cannot be listened on is exit 2 naming it. Each runs {@code kcheck} in a
 * JVM of its own; the 90 s wait is a hang guard, not a timing assertion.
 */
class ClusterJoinTest {

    record Run(int exit, String out, String err) {
    }

    private static Run kcheck(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-Dkcheck.cluster.join=3", "-cp", System.getProperty("java.class.path"), "kcheck.cli.Main"));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("kcheck-join-", ".out");
        Path err = Files.createTempFile("kcheck-join-", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            boolean ended = p.waitFor(90, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly().waitFor();
            }
            Run r = new Run(ended ? p.exitValue() : -1, Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            assertThat(ended).as("kcheck %s ended within 90 s (stdout: %s)", String.join(" ", args), r.out()).isTrue();
            return r;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** A loopback port nothing listens on (free a moment ago). */
    private static int unusedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void checkWithNothingAtTheSeedIsExit2WithOneLineNamingTheSeed() throws Exception {
        String seed = "127.0.0.1:" + unusedPort();
        Run r = kcheck("check", "rq-lock", "--cpus", "2", "--property", "mutual-exclusion", "--cluster", seed);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines().toList()).singleElement().asString().startsWith("kcheck: --cluster " + seed + ": ")
                .contains("no cluster node answered at " + seed + " within 3 s");
    }

    @Test
    void aWorkerToldToJoinAnotherAddressNeverStartsAClusterOfItsOwn() throws Exception {
        String seed = "127.0.0.1:" + unusedPort();
        Run r = kcheck("worker", "--join", seed);
        assertThat(r.out()).as("it does not take the seed's address").doesNotContain("node pekko://kcheck@" + seed);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines().toList()).singleElement().asString()
                .startsWith("kcheck: kcheck worker --join " + seed + ": no cluster node answered at " + seed + " within 3 s");
    }

    @Test
    void aWorkerOnAPortInUseIsExit2NamingThePort() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            String at = "127.0.0.1:" + taken.getLocalPort();
            Run r = kcheck("worker", "--join", at, "--port", Integer.toString(taken.getLocalPort()));
            assertThat(r.exit()).isEqualTo(2);
            assertThat(r.err().lines().toList()).singleElement().asString().startsWith("kcheck: cannot listen on " + at + ": ");
        }
    }
}
