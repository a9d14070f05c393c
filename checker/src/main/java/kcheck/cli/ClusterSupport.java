package kcheck.cli;

import java.util.Optional;
import java.util.ServiceLoader;

import kcheck.engine.Options;
import kcheck.engine.RunResult;
import kcheck.model.Model;

/**
 * What the optional {@code kcheck-cluster} module provides (found with {@link ServiceLoader} when
 * its jar is on the class path): the partitioned search over Apache Pekko Cluster. The core CLI
 * does not depend on it, so {@code kcheck check} without {@code --cluster} never loads Pekko.
 */
public interface ClusterSupport {

    /**
     * Checks {@code model} on a cluster: {@code cluster} is {@code local:N} (N nodes in this JVM)
     * or seed addresses {@code host:port[,host:port...]} of running workers, of which
     * {@code nodes} are awaited (0: as many as seeds are named).
     */
    RunResult check(Model model, Options options, String cluster, int nodes);

    /**
     * Runs a worker node until the JVM is stopped: it joins the cluster at {@code join}
     * ({@code host:port}; its own address to start a cluster), listening on {@code host:port}
     * ({@code port} 0: any free port). Throws {@link ClusterUnavailableException} if no node
     * answers at {@code join} within a bounded time, or the port cannot be listened on.
     */
    int worker(String join, String host, int port);

    /** The module, if its jar is on the class path. */
    static Optional<ClusterSupport> find() {
        return ServiceLoader.load(ClusterSupport.class).findFirst();
    }

    /** The module, or a usage error saying how to get it. */
    static ClusterSupport require(String option) {
        return find().orElseThrow(() -> new UsageException(option + " needs the kcheck-cluster module: build it with "
                + "'mvn -B -DskipTests -pl cluster -am package' (the kcheck launcher does) and put "
                + "cluster/target/kcheck-cluster.jar next to kcheck.jar"));
    }
}
