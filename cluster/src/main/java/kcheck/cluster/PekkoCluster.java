package kcheck.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;

import kcheck.cli.ClusterSupport;
import kcheck.engine.Options;
import kcheck.engine.Partitioned;
import kcheck.engine.RunResult;
import kcheck.model.Model;

/** The cluster module's entry point for the CLI ({@code check --cluster}, {@code worker}), found by {@link java.util.ServiceLoader}. */
public final class PekkoCluster implements ClusterSupport {
    /** How long a coordinator waits for the workers to register. */
    static final Duration WAIT = Duration.ofSeconds(Long.getLong("kcheck.cluster.wait", 60));

    @Override
    public RunResult check(Model model, Options options, String cluster, int nodes) {
        List<ActorSystem<?>> systems = new ArrayList<>();
        try {
            ActorSystem<?> coordinator;
            if (cluster.startsWith("local:")) {
                ActorSystem<Msg.ToPartition> first = Nodes.worker("127.0.0.1", 0, List.of());
                systems.add(first);
                for (int i = 1; i < nodes; i++) {
                    systems.add(Nodes.worker("127.0.0.1", 0, List.of(Nodes.self(first))));
                }
                coordinator = first;
            } else {
                List<Address> seeds = new ArrayList<>();
                for (String s : cluster.split(",")) {
                    seeds.add(Nodes.address(s.trim()));
                }
                coordinator = Nodes.coordinator(hostOf(seeds.get(0)), seeds);
                systems.add(coordinator);
                Nodes.awaitUp(coordinator, seeds, Nodes.JOIN, "--cluster " + cluster);
            }
            return run(model, options, coordinator, nodes);
        } finally {
            for (ActorSystem<?> s : systems) {
                s.terminate();
            }
            for (ActorSystem<?> s : systems) {
                try {
                    s.getWhenTerminated().toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
                } catch (Exception e) {
                    // shutting down: nothing to do
                }
            }
        }
    }

    /** The address this JVM is reached at by the seeds: loopback for a loopback seed, else this host's name. */
    private static String hostOf(Address seed) {
        String h = seed.getHost().orElse("127.0.0.1");
        if (h.equals("127.0.0.1") || h.equals("localhost")) {
            return h;
        }
        return System.getProperty("kcheck.cluster.host", localHost());
    }

    private static String localHost() {
        try {
            return java.net.InetAddress.getLocalHost().getHostAddress();
        } catch (java.net.UnknownHostException e) {
            return "127.0.0.1";
        }
    }

    /** Runs the search from {@code coordinator}'s node on {@code nodes} partitions. */
    static RunResult run(Model model, Options options, ActorSystem<?> coordinator, int nodes) {
        PekkoDriver driver;
        try {
            driver = new PekkoDriver(coordinator, nodes, WAIT);
        } catch (Partitioned.PartitionLostException e) {
            throw new kcheck.cli.ClusterUnavailableException(e.getMessage());
        }
        RunResult r = Partitioned.check(model, options.withWorkers(nodes), driver);
        if (!Boolean.getBoolean("kcheck.cluster.quiet")) {
            describe(driver, r);
        }
        return r;
    }

    /** One line per node on stderr: where it ran, its states, store, links, what it sent, its heap. */
    private static void describe(PekkoDriver d, RunResult r) {
        List<long[]> f = kcheck.engine.Partition.Summary.figures(d.firstSearch);
        long sent = 0;
        long bytes = 0;
        for (int i = 0; i < f.size(); i++) {
            long[] x = f.get(i);
            sent += x[3];
            bytes += x[4];
            System.err.printf(java.util.Locale.ROOT, "kcheck cluster: partition %d at %s: %,d states, store %s, trace links %s, "
                    + "sent %,d states (%s), heap used %s%n", i, d.where(i), x[0], mb(x[1]), mb(x[2]), x[3], mb(x[4]), mb(x[5]));
        }
        long states = Math.max(1, r.stats().states());
        System.err.printf(java.util.Locale.ROOT, "kcheck cluster: %,d states sent between nodes (%s): %.2f per state, "
                + "%.1f bytes per state%n", sent, mb(bytes), (double) sent / states, (double) bytes / states);
    }

    private static String mb(long b) {
        return String.format(java.util.Locale.ROOT, "%.1f MB", b / 1e6);
    }

    /**
     * A worker starts a cluster only when {@code join} is its own address ({@code host:port});
     * told to join another address, it joins a node there or gives up after {@link Nodes#JOIN}.
     */
    @Override
    public int worker(String join, String host, int port) {
        Address seed = Nodes.address(join);
        boolean first = seed.getHost().orElse("").equals(host) && seed.getPort().orElse(-1) == port;
        ActorSystem<Msg.ToPartition> s = Nodes.worker(host, port, first ? List.of() : List.of(seed));
        System.out.println("kcheck worker: node " + Nodes.self(s) + (first ? " starting a cluster" : " joining " + seed)
                + "; stop it with Ctrl-C or SIGTERM");
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(s::terminate));
        Nodes.awaitUp(s, List.of(seed), Nodes.JOIN, "kcheck worker --join " + join);
        s.getWhenTerminated().toCompletableFuture().join();
        return 0;
    }
}
