package kcheck.engine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import kcheck.engine.store.CompactStore;
import kcheck.engine.store.DiskLinks;
import kcheck.engine.store.ExactStore;
import kcheck.engine.store.MemoryBudget;
import kcheck.engine.store.StateStore;
import kcheck.engine.store.TraceLinks;
import kcheck.model.Model;

/**
 * One partition of a partitioned, level-synchronous BFS (the search that {@code kcheck check
 * --cluster} spreads over several machines). A state belongs to partition {@link #owner}(hash);
 * each partition keeps its states in its own store ({@link ExactStore} with {@code --store exact},
 * else {@link CompactStore}), its trace links in a {@link DiskLinks} file and its BFS level in RAM.
 * It expands its level; successors it owns are stored at once, the others are batched for their
 * owners ({@link Transport}), which store them with {@link #accept}. A level ends when every
 * partition has expanded its level and accepted every batch sent to it; the coordinator then
 * starts the next. Levels stay synchronous, so counts, depths and shortest-trace lengths are the
 * single-machine ones.
 *
 * <p>State ids are global: {@code local * 256 + partition}, so a trace link names its parent's
 * partition and a counterexample is rebuilt by asking each partition in turn ({@link #link}). The
 * engine knows nothing of the transport: the {@code cluster} module carries batches over Apache
 * Pekko; tests carry them in memory.
 *
 * <p>Not thread-safe: one thread calls {@link #expandLevel}, {@link #accept} and
 * {@link #endLevel} (the transport calls {@link #accept} on that thread while it waits).
 */
public final class Partition extends Search implements AutoCloseable {
    /** At most this many partitions (ids keep the partition in 8 bits). */
    public static final int MAX_PARTITIONS = 256;
    /** Records per batch. */
    public static final int BATCH = 4096;

    /** Carries batches of records {@code [state words..., parent id, ordinal]} to their owners. */
    public interface Transport {
        /**
         * Sends {@code longs} longs of {@code records} to partition {@code to}. The array is the
         * caller's again once this returns. May block (flow control); while it waits it must
         * keep calling {@link Partition#accept} with what arrives, or two partitions could wait
         * for each other.
         */
        void send(int to, long[] records, int longs);

        /** Called between chunks of a level: accept what has arrived. */
        void poll();
    }

    private final int index;
    private final int count;
    private final Transport transport;
    private final Path dir;
    private final DiskLinks dlinks;
    private final DiskLinks.Writer writer;
    private final Node node;
    private final long[][] out;
    private final int[] outLongs;
    private final int rec;
    private Frontier level;
    private Frontier next;
    private long states;
    /** Batches sent to each partition (for the end-of-level count). */
    private final long[] sent;
    /** States sent to other partitions. */
    private long recordsSent;
    private final long[] scratch;

    private final class Node extends Expander {
        Node(Search s) {
            super(s);
        }

        @Override
        void discovered(long id, long[] s) {
            if (!next.add(id, s)) {
                limit("memory budget");
            }
        }
    }

    public Partition(Model model, Options options, int index, int count, Transport transport) {
        super(model, options.withWorkers(1), Deadline.start(options), b -> options.store() == StoreMode.EXACT
                ? new ExactStore(model.width(), options.maxStates(), b, false)
                : new CompactStore(options.maxStates(), b, false, false), false);
        if (count < 1 || count > MAX_PARTITIONS || index < 0 || index >= count) {
            throw new IllegalArgumentException("partition " + index + " of " + count);
        }
        this.index = index;
        this.count = count;
        this.transport = transport;
        try {
            this.dir = ScratchDirs.create("kcheck-partition-");
            this.dlinks = new DiskLinks(dir.resolve("links.bin"), false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.writer = dlinks.writer();
        this.rec = w + 2;
        this.out = new long[count][];
        this.outLongs = new int[count];
        this.sent = new long[count];
        this.scratch = new long[w];
        this.node = new Node(this);
        node.ids = (parent, ordinal) -> writer.add(parent, ordinal) * MAX_PARTITIONS + index;
        node.unsure = !model.acyclic();
        node.router = (h, s, parent, ordinal) -> {
            int o = owner(h, count);
            if (o == index) {
                return false;
            }
            long[] b = out[o];
            if (b == null) {
                b = out[o] = new long[BATCH * rec];
            }
            int off = outLongs[o];
            System.arraycopy(s, 0, b, off, w);
            b[off + w] = parent;
            b[off + w + 1] = ordinal;
            outLongs[o] = off + rec;
            if (outLongs[o] == b.length) {
                flush(o);
            }
            return true;
        };
        this.level = new Frontier(w, budget);
        this.next = new Frontier(w, budget);
    }

    /** The partition that owns a state of hash {@code h}: from hash bits the stores do not use for their shards. */
    public static int owner(long h, int count) {
        return (int) ((((h >>> 16) & 0xFFFF_FFFFL) * count) >>> 32);
    }

    private void flush(int o) {
        if (outLongs[o] > 0) {
            transport.send(o, out[o], outLongs[o]);
            sent[o]++;
            recordsSent += outLongs[o] / rec;
            outLongs[o] = 0;
        }
    }

    /** Stores the initial states this partition owns: the first level. Returns its size. */
    public long seed() {
        for (int i = 0; i < initial.size(); i++) {
            long[] s = initial.get(i).clone();
            canonical(s);
            long h = Hashing.hash(s, 0, w);
            if (owner(h, count) != index) {
                continue;
            }
            long id = store.add(s, h);
            if (id == StateStore.FULL) {
                full();
                break;
            }
            if (id >= 0) {
                long gid = node.ids.add(-1, i);
                checks.onState(gid, s, 0);
                level.add(gid, s);
                states++;
            }
        }
        return level.size();
    }

    /** Expands this partition's level {@code depth}, then sends what is left in the batches. */
    public void expandLevel(int depth) {
        this.depth = depth;
        int recL = w + 1;
        for (int k = 0; k < level.chunks.size() && !stopped; k++) {
            long[] chunk = level.chunks.get(k);
            int n = level.records(k);
            for (int r = 0; r < n && !stopped; r++) {
                System.arraycopy(chunk, r * recL + 1, node.cur, 0, w);
                node.expand(chunk[r * recL], depth);
            }
            transport.poll();
            timeUp();
        }
        for (int o = 0; o < count; o++) {
            flush(o);
        }
    }

    /** Batches sent to partition {@code to} so far. */
    public long sent(int to) {
        return sent[to];
    }

    /** Stores states sent by other partitions (at the level after the one being expanded). */
    public void accept(long[] records, int longs) {
        long[] s = scratch;
        for (int off = 0; off < longs; off += rec) {
            System.arraycopy(records, off, s, 0, w);
            long id = store.add(s, Hashing.hash(s, 0, w));
            if (id >= 0) {
                long gid = node.ids.add(records[off + w], (int) records[off + w + 1]);
                checks.onState(gid, s, depth + 1);
                if (!next.add(gid, s)) {
                    limit("memory budget");
                }
            } else if (id == StateStore.FULL) {
                full();
            }
        }
    }

    /** Ends the level: the states stored during it become the next level. Returns its size. */
    public long endLevel() {
        level.release();
        level = next;
        next = new Frontier(w, budget);
        states += level.size();
        return level.size();
    }

    /** The parent id and step ordinal of state {@code gid} (one of this partition's). */
    public long[] link(long gid) {
        if (gid % MAX_PARTITIONS != index) {
            throw new IllegalArgumentException("state " + gid + " is not in partition " + index);
        }
        writer.close();
        long local = gid / MAX_PARTITIONS;
        return new long[] {dlinks.parent(local), dlinks.ordinal(local)};
    }

    /** What this partition found so far and its figures, for the coordinator ({@link Summary#read}). */
    public byte[] summary() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(b)) {
            out.writeLong(states);
            out.writeLong(node.transitions);
            out.writeLong(node.reduced);
            out.writeLong(store.bytes());
            out.writeLong(dlinks.bytes());
            out.writeLong(recordsSent);
            out.writeLong(recordsSent * rec * 8);
            Runtime rt = Runtime.getRuntime();
            out.writeLong(rt.totalMemory() - rt.freeMemory());
            out.writeUTF(limitReason);
            checks.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return b.toByteArray();
    }

    /** True if a limit stopped this partition. */
    public boolean stopped() {
        return stopped;
    }

    @Override
    RunResult run() {
        throw new UnsupportedOperationException("a partition is driven level by level");
    }

    @Override
    public void close() {
        try {
            dlinks.close();
        } catch (IOException e) {
            // the file goes with its directory
        }
        ScratchDirs.release(dir);
    }

    /** The coordinator's view: the partitions' summaries merged into one result. */
    public static final class Summary extends Search {
        private final long total;
        private final double elapsed;
        private final TraceLinks remote;
        private long storeBytes;
        private long linkBytes;

        private Summary(Model model, Options options, List<byte[]> parts, int depth, double seconds, TraceLinks remote) {
            super(model, options, Deadline.start(options), b -> new kcheck.engine.store.FingerprintStore(1, new MemoryBudget(1L << 20), false), false);
            this.remote = remote;
            this.elapsed = seconds;
            this.depth = depth;
            long n = 0;
            for (byte[] p : parts) {
                try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(p))) {
                    n += in.readLong();
                    transitions += in.readLong();
                    ampleStates += in.readLong();
                    storeBytes += in.readLong();
                    linkBytes += in.readLong();
                    in.readLong();
                    in.readLong();
                    in.readLong();
                    String lim = in.readUTF();
                    if (!lim.isEmpty() && limitReason.isEmpty()) {
                        limitReason = lim;
                        stopped = true;
                    }
                    Checks c = new Checks(model);
                    c.read(in);
                    checks.merge(c);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            this.total = n;
        }

        /** True once every safety property is violated somewhere (the search may stop, as on one machine). */
        public static boolean allDecided(Model model, List<byte[]> parts) {
            Checks all = new Checks(model);
            for (byte[] p : parts) {
                try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(p))) {
                    for (int i = 0; i < FIGURES; i++) {
                        in.readLong();
                    }
                    in.readUTF();
                    Checks c = new Checks(model);
                    c.read(in);
                    all.merge(c);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return all.done();
        }

        /** Longs at the head of a summary: states, transitions, ample states, store bytes, link bytes, states sent, bytes sent, heap used. */
        static final int FIGURES = 8;

        /**
         * Per partition: {states, store bytes, trace-link bytes, states sent to other partitions,
         * bytes of states sent, heap used}.
         */
        public static List<long[]> figures(List<byte[]> parts) {
            List<long[]> out = new ArrayList<>();
            for (byte[] p : parts) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(p);
                long[] f = new long[FIGURES];
                for (int i = 0; i < FIGURES; i++) {
                    f[i] = b.getLong();
                }
                out.add(new long[] {f[0], f[3], f[4], f[5], f[6], f[7]});
            }
            return out;
        }

        /** States the partitions stored before their current level. */
        public static long states(List<byte[]> parts) {
            long n = 0;
            for (byte[] p : parts) {
                n += java.nio.ByteBuffer.wrap(p).getLong(0);
            }
            return n;
        }

        /** The first limit a partition reported, or "". */
        public static String limit(List<byte[]> parts) {
            for (byte[] p : parts) {
                try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(p))) {
                    for (int i = 0; i < FIGURES; i++) {
                        in.readLong();
                    }
                    String l = in.readUTF();
                    if (!l.isEmpty()) {
                        return l;
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return "";
        }

        /**
         * The result of a partitioned search: verdicts and figures from the partitions'
         * summaries, counterexamples rebuilt through {@code links} (which asks each state's
         * partition). {@code limit} names what stopped the search early ("" if nothing did).
         */
        public static RunResult assemble(Model model, Options options, List<byte[]> parts, int depth, double seconds,
                                         boolean exhausted, String limit, TraceLinks links) {
            Summary s = new Summary(model, options, parts, depth, seconds, links);
            if (!limit.isEmpty()) {
                s.limit(limit);
            }
            return s.result(exhausted && !s.stopped);
        }

        @Override
        long states() {
            return total;
        }

        @Override
        double seconds() {
            return elapsed;
        }

        @Override
        TraceLinks traceLinks() {
            return remote;
        }

        @Override
        double linkBytesPerState() {
            return (double) linkBytes / Math.max(1, total);
        }

        @Override
        long storeBytes() {
            return storeBytes;
        }

        @Override
        boolean exactStore() {
            return options.store() == StoreMode.EXACT;
        }

        @Override
        RunResult run() {
            throw new UnsupportedOperationException();
        }
    }

    /** Partition ids of the states in a batch (for tests). */
    static List<Integer> owners(long[] records, int longs, int width, int count) {
        List<Integer> o = new ArrayList<>();
        for (int off = 0; off < longs; off += width + 2) {
            o.add(owner(Hashing.hash(records, off, width), count));
        }
        return o;
    }
}
