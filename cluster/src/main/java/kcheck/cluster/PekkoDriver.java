package kcheck.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.typed.Cluster;

import kcheck.model.Model;
import kcheck.engine.Options;
import kcheck.engine.Partitioned;
import kcheck.engine.store.TraceLinks;

/**
 * The coordinator's side of the partitioned search over Pekko: finds the partition actors with
 * the receptionist, asks them to start, run levels, summarise and answer trace-link queries.
 * While it waits it watches the cluster: a partition whose node becomes unreachable or leaves
 * ends the search INCOMPLETE, naming the node.
 */
final class PekkoDriver implements Partitioned.Driver {
    private static final Duration ASK = Duration.ofDays(7);

    private final ActorSystem<?> system;
    private final List<ActorRef<Msg.ToPartition>> parts;
    private final Address selfAddress;

    PekkoDriver(ActorSystem<?> system, int n, Duration wait) throws Partitioned.PartitionLostException {
        this.system = system;
        this.selfAddress = Nodes.self(system);
        long deadline = System.nanoTime() + wait.toNanos();
        List<ActorRef<Msg.ToPartition>> found = List.of();
        while (System.nanoTime() < deadline) {
            try {
                Receptionist.Listing l = AskPattern.<Receptionist.Command, Receptionist.Listing>ask(system.receptionist(),
                        r -> Receptionist.find(PartitionNode.KEY, r), Duration.ofSeconds(5), system.scheduler())
                        .toCompletableFuture().get(10, TimeUnit.SECONDS);
                Set<ActorRef<Msg.ToPartition>> set = l.getServiceInstances(PartitionNode.KEY);
                if (set.size() >= n) {
                    found = new ArrayList<>(set);
                    break;
                }
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (ExecutionException | TimeoutException e) {
                // the receptionist is not ready yet: ask again
            }
        }
        if (found.size() < n) {
            throw new Partitioned.PartitionLostException("cluster: " + n + " workers awaited, " + found.size()
                    + " found within " + wait.toSeconds() + " s");
        }
        found.sort(Comparator.comparing(r -> r.path().toString()));
        this.parts = List.copyOf(found.subList(0, n));
    }

    @Override
    public int partitions() {
        return parts.size();
    }

    /** Where partition {@code i} runs. */
    String where(int i) {
        Address a = parts.get(i).path().address();
        return (a.hasGlobalScope() ? a : selfAddress).toString();
    }

    private <T> List<T> all(Function<ActorRef<Msg.ToPartition>, CompletionStage<T>> ask) throws Partitioned.PartitionLostException {
        List<CompletableFuture<T>> fs = new ArrayList<>();
        for (ActorRef<Msg.ToPartition> p : parts) {
            fs.add(ask.apply(p).toCompletableFuture());
        }
        List<T> out = new ArrayList<>();
        for (CompletableFuture<T> f : fs) {
            while (true) {
                try {
                    out.add(f.get(500, TimeUnit.MILLISECONDS));
                    break;
                } catch (TimeoutException e) {
                    lost();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new Partitioned.PartitionLostException("interrupted");
                } catch (ExecutionException e) {
                    lost();
                    throw new Partitioned.PartitionLostException("cluster: " + e.getCause());
                }
            }
        }
        return out;
    }

    /** Throws if a partition's node is unreachable or gone. */
    private void lost() throws Partitioned.PartitionLostException {
        var state = Cluster.get(system).state();
        for (int i = 0; i < parts.size(); i++) {
            Address a = parts.get(i).path().address();
            if (!a.hasGlobalScope()) {
                continue;
            }
            boolean member = false;
            for (Member m : state.getMembers()) {
                member |= m.address().equals(a);
            }
            boolean unreachable = false;
            for (Member m : state.getUnreachable()) {
                unreachable |= m.address().equals(a);
            }
            if (unreachable || !member) {
                throw new Partitioned.PartitionLostException("lost node " + a + " (partition " + i + " of " + parts.size()
                        + "): " + (unreachable ? "unreachable" : "left the cluster"));
            }
        }
    }

    private <T> CompletionStage<T> ask(ActorRef<Msg.ToPartition> p, Function<ActorRef<T>, Msg.ToPartition> msg) {
        return AskPattern.ask(p, msg::apply, ASK, system.scheduler());
    }

    @Override
    public long[] start(Model model, Options options) throws Partitioned.PartitionLostException {
        searches++;
        byte[] spec = Spec.encode(model, options);
        List<Msg.Started> r = all(p -> ask(p, (ActorRef<Msg.Started> to) -> new Msg.Start(parts.indexOf(p), parts, spec, to)));
        long[] sizes = new long[parts.size()];
        for (Msg.Started s : r) {
            if (s.error() != null) {
                throw new Partitioned.PartitionLostException(s.error());
            }
            sizes[s.index()] = s.size();
        }
        return sizes;
    }

    @Override
    public long[] level(int depth) throws Partitioned.PartitionLostException {
        List<Msg.LevelDone> r = all(p -> ask(p, (ActorRef<Msg.LevelDone> to) -> new Msg.RunLevel(depth, to)));
        long[] sizes = new long[parts.size()];
        for (Msg.LevelDone d : r) {
            if (d.error() != null) {
                throw new Partitioned.PartitionLostException(d.error());
            }
            sizes[d.index()] = d.size();
        }
        return sizes;
    }

    /** The last summaries of the first search (the figures a user asked for; a re-check for shortest traces comes after). */
    List<byte[]> firstSearch = List.of();
    private int searches;

    @Override
    public List<byte[]> summaries() throws Partitioned.PartitionLostException {
        List<Msg.Summary> r = all(p -> ask(p, (ActorRef<Msg.Summary> to) -> new Msg.Summarize(to)));
        byte[][] out = new byte[parts.size()][];
        for (Msg.Summary s : r) {
            out[s.index()] = s.bytes();
        }
        if (searches == 1) {
            firstSearch = List.of(out);
        }
        return List.of(out);
    }

    @Override
    public TraceLinks links() {
        return new TraceLinks() {
            private long cached = Long.MIN_VALUE;
            private Msg.LinkReply reply;

            private Msg.LinkReply get(long id) {
                if (id != cached) {
                    ActorRef<Msg.ToPartition> p = parts.get((int) (id % kcheck.engine.Partition.MAX_PARTITIONS));
                    try {
                        reply = PekkoDriver.this.<Msg.LinkReply>ask(p, to -> new Msg.LinkQuery(id, to))
                                .toCompletableFuture().get(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while rebuilding a trace");
                    } catch (ExecutionException | TimeoutException e) {
                        throw new IllegalStateException("cluster: no trace link for state " + id + ": " + e);
                    }
                    cached = id;
                }
                return reply;
            }

            @Override
            public long parent(long id) {
                return get(id).parent();
            }

            @Override
            public int ordinal(long id) {
                return get(id).ordinal();
            }
        };
    }

    @Override
    public void stop() {
        for (ActorRef<Msg.ToPartition> p : parts) {
            p.tell(new Msg.Stop());
        }
    }
}
