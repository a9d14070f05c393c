package kcheck.engine;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import kcheck.engine.store.TraceLinks;
import kcheck.model.Model;
import kcheck.model.Progress;
import kcheck.model.Property;

/**
 * The coordinator of a partitioned search ({@link Partition}), whatever carries its messages:
 * starts every partition, runs the levels one after the other (each ends only when every
 * partition has expanded and received all of it), stops on a limit, a lost partition or when
 * every safety property is violated, and assembles the result. Counterexamples are made shortest
 * as on one machine ({@link Engine#shortest}), by a second partitioned search.
 *
 * <p>Progress properties need the whole state graph in one place (cycle detection): they are
 * checked by a one-machine search of those properties alone, and the report says so.
 */
public final class Partitioned {
    private Partitioned() {
    }

    /** What the coordinator asks of the partitions; implemented over Pekko by the cluster module, in memory by tests. */
    public interface Driver {
        /** Number of partitions. */
        int partitions();

        /** Starts a search of {@code model} with {@code options} on every partition; returns their first levels' sizes. */
        long[] start(Model model, Options options) throws PartitionLostException;

        /** Runs level {@code depth} on every partition; returns the sizes of the next levels. */
        long[] level(int depth) throws PartitionLostException;

        /** Every partition's {@link Partition#summary}. */
        List<byte[]> summaries() throws PartitionLostException;

        /** Trace links across the partitions (each state's partition answers for it). */
        TraceLinks links();

        /** Ends the search on every partition (their files go). */
        void stop();
    }

    /** A partition stopped answering: its node left the cluster. */
    public static final class PartitionLostException extends Exception {
        public PartitionLostException(String message) {
            super(message);
        }
    }

    /** Checks {@code model} on the partitions of {@code driver}. */
    public static RunResult check(Model model, Options options, Driver driver) {
        if (options.strategy() != Strategy.BFS) {
            throw new IllegalArgumentException("a partitioned search is breadth-first");
        }
        Deadline deadline = Deadline.start(options);
        RunResult r = search(model, options, driver, deadline);
        r = Engine.shortest(r, options, deadline, again -> search(model, again, driver, Deadline.start(again)));
        return withProgress(model, options, r, deadline);
    }

    /** One partitioned search, level by level, until it is exhaustive, every property is decided or {@code deadline} passes. */
    private static RunResult search(Model model, Options options, Driver driver, Deadline deadline) {
        long t0 = System.nanoTime();
        int depth = 0;
        boolean exhausted = false;
        String limit = "";
        List<byte[]> parts = List.of();
        try {
            long[] sizes = driver.start(model, options);
            while (true) {
                if (depth >= options.maxDepth()) {
                    limit = "depth bound " + options.maxDepth();
                    break;
                }
                if (sum(sizes) == 0) {
                    exhausted = true;
                    break;
                }
                String stop = deadline.reason();
                if (stop != null) {
                    limit = stop;
                    break;
                }
                sizes = driver.level(depth);
                parts = driver.summaries();
                String l = Partition.Summary.limit(parts);
                if (!l.isEmpty()) {
                    limit = l;
                    break;
                }
                if (Partition.Summary.allDecided(model, parts)) {
                    break;
                }
                if (sum(sizes) > 0) {
                    depth++;
                }
                options.listener().progress(new ProgressListener.Progress(Partition.Summary.states(parts), 0,
                        sum(sizes), depth, (System.nanoTime() - t0) / 1e9, 0));
            }
            parts = driver.summaries();
        } catch (PartitionLostException e) {
            limit = e.getMessage();
            exhausted = false;
            if (parts.isEmpty()) {
                parts = List.of();
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        RunResult r;
        if (parts.isEmpty()) {
            r = Partition.Summary.assemble(model, options, List.of(), depth, seconds, false,
                    limit.isEmpty() ? "no partition answered" : limit, driver.links());
        } else {
            r = Partition.Summary.assemble(model, options, parts, depth, seconds, exhausted, limit, driver.links());
        }
        driver.stop();
        return r;
    }

    private static long sum(long[] a) {
        long s = 0;
        for (long x : a) {
            s += x;
        }
        return s;
    }

    /** Progress properties: from a one-machine search of those properties alone, within the run's deadline. */
    private static RunResult withProgress(Model model, Options options, RunResult r, Deadline deadline) {
        Set<String> progress = new LinkedHashSet<>();
        for (Property p : model.properties()) {
            if (p instanceof Progress) {
                progress.add(p.id());
            }
        }
        if (progress.isEmpty()) {
            return r;
        }
        /* the same instance (a model may pack monitor state only for the properties selected), all its properties */
        RunResult one = Engine.check(model, options.withStore(StoreMode.EXACT), deadline);
        List<PropertyResult> out = new ArrayList<>();
        for (PropertyResult p : r.properties()) {
            if (progress.contains(p.id())) {
                PropertyResult q = one.property(p.id());
                out.add(new PropertyResult(q.id(), q.kind(), q.description(), q.verdict(),
                        q.message() + " (cycle detection on the coordinator, one machine)", q.trace(), q.metric()));
            } else {
                out.add(p);
            }
        }
        return new RunResult(r.model(), r.stats(), out);
    }
}
