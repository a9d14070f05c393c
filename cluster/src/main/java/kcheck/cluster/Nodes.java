package kcheck.cluster;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.JoinSeedNodes;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

import kcheck.cli.ClusterUnavailableException;

/** Starts the actor systems of a kcheck cluster: Pekko Cluster over Artery TCP, kcheck's serializer, quiet logs. */
final class Nodes {
    static final String SYSTEM = "kcheck";
    /** How long a node tries to join the cluster at its seeds before it gives up ({@code -Dkcheck.cluster.join=SECONDS}). */
    static final Duration JOIN = Duration.ofSeconds(Long.getLong("kcheck.cluster.join", 20));

    static {
        /* Pekko logs through its own loggers (off unless KCHECK_CLUSTER_LOG is set); keep SLF4J's "no provider" notice off stderr */
        if (System.getProperty("slf4j.internal.verbosity") == null) {
            System.setProperty("slf4j.internal.verbosity", "ERROR");
        }
    }

    private Nodes() {
    }

    static Config config(String host, int port, String role) {
        String log = System.getenv().getOrDefault("KCHECK_CLUSTER_LOG", "OFF");
        String text = String.join("\n",
                "pekko {",
                "  loglevel = " + log,
                "  stdout-loglevel = OFF",
                "  log-dead-letters = off",
                "  log-dead-letters-during-shutdown = off",
                "  actor {",
                "    provider = cluster",
                "    serializers { kcheck = \"kcheck.cluster.KcheckSerializer\" }",
                "    serialization-bindings { \"kcheck.cluster.Msg\" = kcheck }",
                "  }",
                "  remote.artery {",
                "    transport = tcp",
                "    canonical.hostname = \"" + host + "\"",
                "    canonical.port = " + port,
                "    advanced.maximum-frame-size = 4MiB",
                "    advanced.maximum-large-frame-size = 4MiB",
                "  }",
                "  cluster {",
                "    roles = [" + role + "]",
                "    jmx.enabled = off",
                "    log-info = off",
                "    failure-detector.acceptable-heartbeat-pause = 5s",
                "  }",
                "  coordinated-shutdown.exit-jvm = off",
                "}");
        return ConfigFactory.parseString(text).withFallback(ConfigFactory.load());
    }

    /** A worker node: hosts a {@link PartitionNode}; joins {@code seeds} (its own address to start a cluster). */
    static ActorSystem<Msg.ToPartition> worker(String host, int port, List<Address> seeds) {
        ActorSystem<Msg.ToPartition> s = create(PartitionNode.create(), host, port, "worker");
        join(s, seeds);
        return s;
    }

    /** A node that only coordinates (check --cluster HOST:PORT). */
    static ActorSystem<Void> coordinator(String host, List<Address> seeds) {
        Behavior<Void> nothing = Behaviors.empty();
        ActorSystem<Void> s = create(nothing, host, 0, "coordinator");
        join(s, seeds);
        return s;
    }

    /** An actor system listening on {@code host:port}; a port it cannot listen on is an input error naming it. */
    private static <T> ActorSystem<T> create(Behavior<T> behavior, String host, int port, String role) {
        try {
            return ActorSystem.create(behavior, SYSTEM, config(host, port, role));
        } catch (org.apache.pekko.remote.RemoteTransportException e) {
            Throwable c = e;
            while (c.getCause() != null && c.getCause() != c) {
                c = c.getCause();
            }
            throw new ClusterUnavailableException("cannot listen on " + host + ":" + port + ": " + c.getMessage());
        }
    }

    /**
     * Waits until {@code s} is an Up member of the cluster it joined; if no seed answered within
     * {@code within}, terminates it and throws an input error naming the seeds ({@code what} leads the message).
     */
    static void awaitUp(ActorSystem<?> s, List<Address> seeds, Duration within, String what) {
        CompletableFuture<Void> up = new CompletableFuture<>();
        org.apache.pekko.cluster.Cluster.get(Adapter.toClassic(s)).registerOnMemberUp(() -> up.complete(null));
        try {
            up.get(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | InterruptedException | ExecutionException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            String here = self(s).getHost().orElse("?");
            s.terminate();
            List<String> at = seeds.stream().map(a -> a.getHost().orElse("?") + ":" + a.getPort().orElse(0)).toList();
            throw new ClusterUnavailableException(what + ": no cluster node answered at " + String.join(", ", at) + " within "
                    + within.toSeconds() + " s (is a 'kcheck worker' running there, and can it reach this host at " + here + "?)");
        }
    }

    private static void join(ActorSystem<?> s, List<Address> seeds) {
        Cluster c = Cluster.get(s);
        List<Address> to = seeds.isEmpty() ? List.of(c.selfMember().address()) : seeds;
        c.manager().tell(new JoinSeedNodes(to));
    }

    static Address address(String hostPort) {
        int i = hostPort.lastIndexOf(':');
        return new Address("pekko", SYSTEM, hostPort.substring(0, i), Integer.parseInt(hostPort.substring(i + 1)));
    }

    static Address self(ActorSystem<?> s) {
        return Cluster.get(s).selfMember().address();
    }
}
