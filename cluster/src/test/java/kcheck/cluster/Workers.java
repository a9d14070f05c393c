package kcheck.cluster;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Worker JVMs on loopback ({@code kcheck worker}), started and stopped by a test. */
final class Workers implements AutoCloseable {
    final List<Process> processes = new ArrayList<>();
    final List<Integer> ports = new ArrayList<>();

    Workers(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            ports.add(freePort());
        }
        for (int i = 0; i < n; i++) {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx512m", "-Dkcheck.cluster.join=" + Nodes.JOIN.toSeconds(), "-cp", System.getProperty("java.class.path"), "kcheck.cli.Main", "worker",
                    "--join", "127.0.0.1:" + ports.get(0), "--port", Integer.toString(ports.get(i))));
            /* the workers' output stays with the build (target/), where a failing run can be read and `mvn clean` removes it */
            java.io.File log = Path.of("target", "kcheck-worker-" + ports.get(i) + ".log").toFile();
            processes.add(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log))
                    .start());
        }
    }

    String seed() {
        return "127.0.0.1:" + ports.get(0);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }
}
