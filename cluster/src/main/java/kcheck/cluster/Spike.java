package kcheck.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;

/**
 * The measured spike behind the choice of Pekko: how many states a second one JVM can send another
 * over Artery TCP on loopback, in the cluster's own messages (batches of 4,096 records of 4 longs,
 * as a 6-CPU rq-lock state with its trace link travels; a window of {@value PartitionNode#WINDOW}
 * unacknowledged batches). Run {@code receive PORT} in one JVM and {@code send HOST:PORT SECONDS}
 * in another (docs/cluster.md has the figures).
 */
public final class Spike {
    static final ServiceKey<Msg.ToPartition> KEY = ServiceKey.create(Msg.ToPartition.class, "kcheck-spike");
    static final int RECORD = 4;

    private Spike() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("receive")) {
            int port = Integer.parseInt(args[1]);
            ActorSystem<Msg.ToPartition> s = ActorSystem.create(receiver(), Nodes.SYSTEM, Nodes.config("127.0.0.1", port, "worker"));
            org.apache.pekko.cluster.typed.Cluster.get(s).manager()
                    .tell(new org.apache.pekko.cluster.typed.JoinSeedNodes(List.of(Nodes.self(s))));
            System.out.println("spike receiver on " + Nodes.self(s));
            s.getWhenTerminated().toCompletableFuture().join();
        } else if (args.length >= 3 && args[0].equals("send")) {
            System.out.println(send(args[1], Integer.parseInt(args[2])));
            System.exit(0);
        } else {
            System.err.println("usage: Spike receive PORT | Spike send HOST:PORT SECONDS");
            System.exit(2);
        }
    }

    static Behavior<Msg.ToPartition> receiver() {
        return Behaviors.setup(ctx -> {
            ctx.getSystem().receptionist().tell(Receptionist.register(KEY, ctx.getSelf()));
            @SuppressWarnings("unchecked")
            ActorRef<Msg.ToPartition>[] back = new ActorRef[1];
            return Behaviors.receive(Msg.ToPartition.class)
                    .onMessage(Msg.Start.class, m -> {
                        back[0] = m.peers().get(0);
                        return Behaviors.same();
                    })
                    .onMessage(Msg.Batch.class, m -> {
                        back[0].tell(new Msg.Ack(1));
                        return Behaviors.same();
                    })
                    .build();
        });
    }

    /** Sends for {@code seconds} and returns a line with batches, states/s and MB/s acknowledged. */
    static String send(String to, int seconds) throws Exception {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicLong acked = new AtomicLong();
        Behavior<Msg.ToPartition> acks = Behaviors.receive(Msg.ToPartition.class)
                .onMessage(Msg.Ack.class, m -> {
                    inFlight.decrementAndGet();
                    acked.incrementAndGet();
                    return Behaviors.same();
                }).build();
        ActorSystem<Msg.ToPartition> s = ActorSystem.create(acks, Nodes.SYSTEM, Nodes.config("127.0.0.1", 0, "coordinator"));
        org.apache.pekko.cluster.typed.Cluster.get(s).manager()
                .tell(new org.apache.pekko.cluster.typed.JoinSeedNodes(List.of(Nodes.address(to))));
        ActorRef<Msg.ToPartition> target = null;
        for (int i = 0; i < 600 && target == null; i++) {
            Receptionist.Listing l = AskPattern.<Receptionist.Command, Receptionist.Listing>ask(s.receptionist(),
                    r -> Receptionist.find(KEY, r), Duration.ofSeconds(5), s.scheduler()).toCompletableFuture().get(10, TimeUnit.SECONDS);
            Set<ActorRef<Msg.ToPartition>> set = l.getServiceInstances(KEY);
            if (!set.isEmpty()) {
                target = set.iterator().next();
            } else {
                Thread.sleep(100);
            }
        }
        if (target == null) {
            s.terminate();
            return "no receiver at " + to;
        }
        target.tell(new Msg.Start(0, List.of(s), new byte[0], s.ignoreRef()));
        long[] batch = new long[4096 * RECORD];
        for (int i = 0; i < batch.length; i++) {
            batch[i] = i * 0x9E3779B97F4A7C15L;
        }
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long t0 = System.nanoTime();
        long a0 = acked.get();
        while (System.nanoTime() < end) {
            while (inFlight.get() >= PartitionNode.WINDOW && System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            inFlight.incrementAndGet();
            target.tell(new Msg.Batch(0, batch.clone()));
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        long n = acked.get() - a0;
        s.terminate();
        return String.format(java.util.Locale.ROOT, "%d batches acknowledged in %.1f s: %,.0f states/s, %.1f MB/s", n, secs,
                n * 4096 / secs, n * 4096.0 * RECORD * 8 / secs / 1e6);
    }
}
