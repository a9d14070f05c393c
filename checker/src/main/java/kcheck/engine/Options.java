package kcheck.engine;

import java.time.Duration;

/**
 * Search options, orthogonal to the model: strategy, store, limits, reductions, workers, seed.
 *
 * @param maxStates   stop with INCOMPLETE after this many distinct states
 * @param timeLimit   stop with INCOMPLETE after this long (null: none)
 * @param memoryBytes budget for the state store and trace links; INCOMPLETE when reached
 * @param workers     BFS worker threads (results equal the sequential run)
 * @param reductions  apply the model's declared reductions (canonical forms, partial order)
 * @param seed        seed of the random walk
 * @param walkDepth   maximal length of one random walk
 * @param listener    receives progress; may be {@link ProgressListener#NONE}
 * @param partialOrder use the model's partial-order reduction (only with {@code reductions})
 * @param maxDepth    BFS expands no state deeper than this (Integer.MAX_VALUE: no bound)
 * @param disk        where {@link StoreMode#DISK} keeps its files, and its checkpoints
 */
public record Options(Strategy strategy, StoreMode store, long maxStates, Duration timeLimit, long memoryBytes,
                      int workers, boolean reductions, long seed, int walkDepth, ProgressListener listener,
                      boolean partialOrder, int maxDepth, Disk disk) {

    /**
     * Files of the disk search ({@link StoreMode#DISK}).
     *
     * @param dir        directory for its files (null: a new temporary directory, deleted after the run)
     * @param checkpoint write checkpoints into {@code dir} (kept after the run)
     * @param resume     continue from the checkpoint in {@code dir}
     * @param every      time between checkpoints (at least; more if a checkpoint took long)
     * @param graded     rely on the model's grading ({@link kcheck.model.Model#rank}) if it claims one
     */
    public record Disk(java.nio.file.Path dir, boolean checkpoint, boolean resume, Duration every, boolean graded) {
        public static final Disk NONE = new Disk(null, false, false, Duration.ofMinutes(5));

        public Disk(java.nio.file.Path dir, boolean checkpoint, boolean resume, Duration every) {
            this(dir, checkpoint, resume, every, true);
        }

        /** The same files, relying on a grading or not. */
        public Disk withGraded(boolean g) {
            return new Disk(dir, checkpoint, resume, every, g);
        }
    }

    public Options withDisk(Disk d) {
        return new Options(strategy, store, maxStates, timeLimit, memoryBytes, workers, reductions, seed, walkDepth, listener, partialOrder, maxDepth, d);
    }

    public static final long DEFAULT_MAX_STATES = 2_000_000_000L;

    /** Defaults: BFS, exact store, no state or time limit, 80% of the heap, one worker, reductions on. */
    public static Options defaults() {
        return new Options(Strategy.BFS, StoreMode.EXACT, DEFAULT_MAX_STATES, null,
                (long) (Runtime.getRuntime().maxMemory() * 0.8), 1, true, 1L, 10_000, ProgressListener.NONE, true,
                Integer.MAX_VALUE, Disk.NONE);
    }

    public Options withStrategy(Strategy s) {
        return new Options(s, store, maxStates, timeLimit, memoryBytes, workers, reductions, seed, walkDepth, listener, partialOrder, maxDepth, disk);
    }

    public Options withStore(StoreMode m) {
        return new Options(strategy, m, maxStates, timeLimit, memoryBytes, workers, reductions, seed, walkDepth, listener, partialOrder, maxDepth, disk);
    }

    public Options withMaxStates(long n) {
        return new Options(strategy, store, n, timeLimit, memoryBytes, workers, reductions, seed, walkDepth, listener, partialOrder, maxDepth, disk);
    }

    public Options withTimeLimit(Duration d) {
        return new Options(strategy, store, maxStates, d, memoryBytes, workers, reductions, seed, walkDepth, listener, partialOrder, maxDepth, disk);
    }

    public Options withMemoryBytes(long b) {
        return new Options(strategy, store, maxStates, timeLimit, b, workers, reductions, seed, walkDepth, listener, partialOrder, maxDepth, disk);
    }

    public Options withWorkers(int w) {
        return new Options(strategy, store, maxStates, timeLimit, memoryBytes, w, reductions, seed, walkDepth, listener, partialOrder, maxDepth, disk);
    }

    public Options withReductions(boolean r) {
        return new Options(strategy, store, maxStates, timeLimit, memoryBytes, workers, r, seed, walkDepth, listener, partialOrder, maxDepth, disk);
    }

    public Options withSeed(long s) {
        return new Options(strategy, store, maxStates, timeLimit, memoryBytes, workers, reductions, s, walkDepth, listener,
                partialOrder, maxDepth, disk);
    }

    public Options withWalkDepth(int d) {
        return new Options(strategy, store, maxStates, timeLimit, memoryBytes, workers, reductions, seed, d, listener,
                partialOrder, maxDepth, disk);
    }

    public Options withListener(ProgressListener l) {
        return new Options(strategy, store, maxStates, timeLimit, memoryBytes, workers, reductions, seed, walkDepth, l,
                partialOrder, maxDepth, disk);
    }

    public Options withPartialOrder(boolean p) {
        return new Options(strategy, store, maxStates, timeLimit, memoryBytes, workers, reductions, seed, walkDepth, listener,
                p, maxDepth, disk);
    }

    public Options withMaxDepth(int d) {
        return new Options(strategy, store, maxStates, timeLimit, memoryBytes, workers, reductions, seed, walkDepth, listener,
                partialOrder, d, disk);
    }
}
