package kcheck.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kcheck worker --join HOST:PORT}: a node of a kcheck cluster (needs the kcheck-cluster module). */
@Command(name = "worker", description = "Run a cluster node that takes a partition of 'check --cluster' searches.")
final class WorkerCommand implements Callable<Integer> {

    @Option(names = "--join", paramLabel = "HOST:PORT", required = true, description = "a node of the cluster to join "
            + "(a seed); the first node names itself")
    String join;

    @Option(names = "--host", paramLabel = "HOST", description = "address other nodes reach this one at (default 127.0.0.1)")
    String host = "127.0.0.1";

    @Option(names = "--port", paramLabel = "PORT", description = "port to listen on (default: the port of --join if it "
            + "names this host, else any free port)")
    Integer port;

    @Override
    public Integer call() {
        String[] hp = ClusterOptions.hostPort(join, "--join");
        int p = port != null ? port : hp[0].equals(host) && isFree(Integer.parseInt(hp[1])) ? Integer.parseInt(hp[1]) : 0;
        if (p < 0 || p > 65535) {
            throw new UsageException("--port must be in 0..65535, got " + p);
        }
        ClusterSupport cs = ClusterSupport.require("kcheck worker");
        /* a worker has no search to report: SIGINT and SIGTERM end it (leaving the cluster), not the search-stopping handler */
        for (String sig : new String[] {"INT", "TERM"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(sig), sun.misc.SignalHandler.SIG_DFL);
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // the JVM's default applies
            }
        }
        return cs.worker(join, host, p);
    }

    private static boolean isFree(int port) {
        try (java.net.ServerSocket s = new java.net.ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new java.net.InetSocketAddress("127.0.0.1", port));
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
