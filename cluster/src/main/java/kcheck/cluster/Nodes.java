package kcheck.cluster;

import java.util.List;

import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.JoinSeedNodes;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

/** Starts the actor systems of a kcheck cluster: Pekko Cluster over Artery TCP, kcheck's serializer, quiet logs. */
final class Nodes {
    static final String SYSTEM = "kcheck";

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
        ActorSystem<Msg.ToPartition> s = ActorSystem.create(PartitionNode.create(), SYSTEM, config(host, port, "worker"));
        join(s, seeds);
        return s;
    }

    /** A node that only coordinates (check --cluster HOST:PORT). */
    static ActorSystem<Void> coordinator(String host, List<Address> seeds) {
        Behavior<Void> nothing = Behaviors.empty();
        ActorSystem<Void> s = ActorSystem.create(nothing, SYSTEM, config(host, 0, "coordinator"));
        join(s, seeds);
        return s;
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
