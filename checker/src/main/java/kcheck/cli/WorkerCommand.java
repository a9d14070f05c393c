package kcheck.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kcheck worker --join HOST:PORT}: a node of a kcheck cluster (needs the kcheck-cluster module). */
@Command(name = "worker", mixinStandardHelpOptions = true, description = "Run a cluster node that takes a partition of 'check --cluster' searches.")
final class WorkerCommand implements Callable<Integer> {

    @Option(names = "--join", paramLabel = "HOST:PORT", required = true, description = "a node of the cluster to join "
            + "(a seed); the first node names its own address (the same HOST as --host and PORT as --port) and starts the "
            + "cluster. A node that cannot join within 20 s (-Dkcheck.cluster.join=SECONDS) ends with exit 2")
    String join;

    @Option(names = "--host", paramLabel = "HOST", description = "address other nodes reach this one at (default 127.0.0.1)")
    String host = "127.0.0.1";

    @Option(names = "--port", paramLabel = "PORT", description = "port to listen on (default: any free port)")
    int port;

    @Override
    public Integer call() {
        ClusterOptions.hostPort(join, "--join");
        if (port < 0 || port > 65535) {
            throw new UsageException("--port must be in 0..65535, got " + port);
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
        return cs.worker(join, host, port);
    }
}
