package kcheck.engine;

import java.util.ArrayList;
import java.util.List;

import kcheck.engine.store.TraceLinks;
import kcheck.model.Model;

/** Partitions in one thread, batches handed over in memory: the partitioned search without a network. */
final class InMemoryDriver implements Partitioned.Driver {
    private final int n;
    private final List<Partition> parts = new ArrayList<>();
    private final List<List<long[]>> inbox = new ArrayList<>();
    long batches;

    InMemoryDriver(int n) {
        this.n = n;
    }

    @Override
    public int partitions() {
        return n;
    }

    @Override
    public long[] start(Model model, Options options) {
        stop();
        long[] sizes = new long[n];
        for (int i = 0; i < n; i++) {
            inbox.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            Partition p = new Partition(model.fork(), options, i, n, new Partition.Transport() {
                @Override
                public void send(int to, long[] records, int longs) {
                    inbox.get(to).add(java.util.Arrays.copyOf(records, longs));
                    batches++;
                }

                @Override
                public void poll() {
                }
            });
            parts.add(p);
            sizes[i] = p.seed();
        }
        return sizes;
    }

    @Override
    public long[] level(int depth) {
        for (Partition p : parts) {
            p.expandLevel(depth);
        }
        long[] sizes = new long[n];
        for (int i = 0; i < n; i++) {
            for (long[] b : inbox.get(i)) {
                parts.get(i).accept(b, b.length);
            }
            inbox.get(i).clear();
            sizes[i] = parts.get(i).endLevel();
        }
        return sizes;
    }

    @Override
    public List<byte[]> summaries() {
        List<byte[]> out = new ArrayList<>();
        for (Partition p : parts) {
            out.add(p.summary());
        }
        return out;
    }

    @Override
    public TraceLinks links() {
        List<Partition> snapshot = new ArrayList<>(parts);
        return new TraceLinks() {
            @Override
            public long parent(long id) {
                return id < 0 ? -1 : snapshot.get((int) (id % Partition.MAX_PARTITIONS)).link(id)[0];
            }

            @Override
            public int ordinal(long id) {
                return (int) snapshot.get((int) (id % Partition.MAX_PARTITIONS)).link(id)[1];
            }
        };
    }

    @Override
    public void stop() {
        parts.forEach(Partition::close);
        parts.clear();
        inbox.clear();
    }
}
