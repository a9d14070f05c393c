package kcheck.cluster;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;

import kcheck.engine.Partition;

/**
 * A worker node's actor: it hosts one {@link Partition} of each search it is given. The search
 * runs on a thread of its own, so the actor stays free to take batches (queued for that thread),
 * acknowledgements and end-of-level counts while the partition expands. Batches travel with a
 * window of {@value #WINDOW} unacknowledged batches per destination: a sender that waits keeps
 * storing what reaches it, so two nodes never wait for each other.
 */
final class PartitionNode {
    static final ServiceKey<Msg.ToPartition> KEY = ServiceKey.create(Msg.ToPartition.class, "kcheck-partition");
    static final int WINDOW = 8;

    private PartitionNode() {
    }

    static Behavior<Msg.ToPartition> create() {
        return Behaviors.setup(ctx -> {
            ctx.getSystem().receptionist().tell(Receptionist.register(KEY, ctx.getSelf()));
            Runner[] run = {null};
            return Behaviors.receive(Msg.ToPartition.class)
                    .onMessage(Msg.Start.class, m -> {
                        if (run[0] != null) {
                            run[0].close();
                        }
                        run[0] = new Runner(m, ctx.getSelf());
                        return Behaviors.same();
                    })
                    .onMessage(Msg.Batch.class, m -> {
                        if (run[0] != null) {
                            run[0].inbox.add(m);
                        }
                        return Behaviors.same();
                    })
                    .onMessage(Msg.Ack.class, m -> {
                        if (run[0] != null) {
                            run[0].inFlight.decrementAndGet(m.from());
                            run[0].inbox.add(WAKE);
                        }
                        return Behaviors.same();
                    })
                    .onMessage(Msg.EndOfLevel.class, m -> {
                        if (run[0] != null) {
                            run[0].expected.set(m.from(), m.batches());
                            run[0].expectedDepth.set(m.from(), m.depth());
                            run[0].inbox.add(WAKE);
                        }
                        return Behaviors.same();
                    })
                    .onMessage(Msg.RunLevel.class, m -> {
                        run[0].level(m);
                        return Behaviors.same();
                    })
                    .onMessage(Msg.Summarize.class, m -> {
                        run[0].summarize(m);
                        return Behaviors.same();
                    })
                    .onMessage(Msg.LinkQuery.class, m -> {
                        run[0].link(m);
                        return Behaviors.same();
                    })
                    .onMessage(Msg.Stop.class, m -> {
                        if (run[0] != null) {
                            run[0].close();
                            run[0] = null;
                        }
                        return Behaviors.same();
                    })
                    .build();
        });
    }

    /** Wakes the search thread when an acknowledgement or a count arrives. */
    private static final Msg.Batch WAKE = new Msg.Batch(-1, new long[0]);

    /** One search on this node: the partition and the thread that drives it. */
    private static final class Runner implements Partition.Transport {
        final int index;
        final List<ActorRef<Msg.ToPartition>> peers;
        final ActorRef<Msg.ToPartition> self;
        final LinkedBlockingQueue<Msg.Batch> inbox = new LinkedBlockingQueue<>();
        final AtomicIntegerArray inFlight;
        final AtomicLongArray expected;
        final java.util.concurrent.atomic.AtomicIntegerArray expectedDepth;
        int depth;
        final long[] received;
        final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "kcheck-partition");
            t.setDaemon(true);
            return t;
        });
        Partition part;
        volatile String error;
        /** Set by {@link #close}: loops that wait for peers give up (a peer may be gone). */
        volatile boolean closed;

        Runner(Msg.Start m, ActorRef<Msg.ToPartition> self) {
            this.index = m.index();
            this.peers = m.peers();
            this.self = self;
            int n = peers.size();
            this.inFlight = new AtomicIntegerArray(n);
            this.expected = new AtomicLongArray(n);
            this.expectedDepth = new AtomicIntegerArray(n);
            for (int i = 0; i < n; i++) {
                expected.set(i, -1);
                expectedDepth.set(i, -1);
            }
            this.received = new long[n];
            thread.execute(() -> {
                long size = 0;
                try {
                    Spec.Decoded d = Spec.decode(m.spec(), (long) (Runtime.getRuntime().maxMemory() * 0.8));
                    part = new Partition(d.model(), d.options(), index, n, this);
                    size = part.seed();
                } catch (RuntimeException e) {
                    error = "partition " + index + ": " + e;
                }
                m.replyTo().tell(new Msg.Started(index, size, error));
            });
        }

        @Override
        public void send(int to, long[] records, int longs) {
            while (inFlight.get(to) >= WINDOW) {
                if (closed) {
                    throw new IllegalStateException("search stopped");
                }
                take(1);
            }
            inFlight.incrementAndGet(to);
            peers.get(to).tell(new Msg.Batch(index, java.util.Arrays.copyOf(records, longs)));
        }

        @Override
        public void poll() {
            take(0);
        }

        /** Stores what has arrived; waits up to {@code ms} for the first. */
        private void take(long ms) {
            try {
                Msg.Batch b = ms > 0 ? inbox.poll(ms, TimeUnit.MILLISECONDS) : inbox.poll();
                while (b != null) {
                    if (b.from() >= 0) {
                        part.accept(b.data(), b.data().length);
                        received[b.from()]++;
                        peers.get(b.from()).tell(new Msg.Ack(index));
                    }
                    b = inbox.poll();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void level(Msg.RunLevel m) {
            thread.execute(() -> {
                long size = 0;
                String err = null;
                try {
                    depth = m.depth();
                    part.expandLevel(m.depth());
                    for (int p = 0; p < peers.size(); p++) {
                        if (p != index) {
                            peers.get(p).tell(new Msg.EndOfLevel(index, m.depth(), part.sent(p)));
                        }
                    }
                    while (!allIn()) {
                        if (closed) {
                            throw new IllegalStateException("search stopped");
                        }
                        take(1);
                    }
                    size = part.endLevel();
                } catch (RuntimeException e) {
                    err = "partition " + index + ": " + e;
                }
                m.replyTo().tell(new Msg.LevelDone(index, size, err));
            });
        }

        private boolean allIn() {
            for (int p = 0; p < peers.size(); p++) {
                if (p != index && (expectedDepth.get(p) != depth || expected.get(p) != received[p])) {
                    return false;
                }
            }
            return true;
        }

        void summarize(Msg.Summarize m) {
            thread.execute(() -> m.replyTo().tell(new Msg.Summary(index, part.summary())));
        }

        void link(Msg.LinkQuery m) {
            thread.execute(() -> {
                long[] l = part.link(m.id());
                m.replyTo().tell(new Msg.LinkReply(l[0], (int) l[1]));
            });
        }

        void close() {
            closed = true;
            thread.execute(() -> {
                if (part != null) {
                    part.close();
                }
            });
            thread.shutdown();
        }
    }
}
