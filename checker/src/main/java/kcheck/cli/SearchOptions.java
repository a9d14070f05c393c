package kcheck.cli;

import java.util.Locale;

import kcheck.engine.Durations;
import kcheck.engine.Options;
import kcheck.engine.Strategy;
import kcheck.engine.StoreMode;
import picocli.CommandLine.Option;

/** The search options shared by {@code check} and {@code bench}: orthogonal to the model. */
final class SearchOptions {
    @Option(names = "--strategy", paramLabel = "bfs|dfs|random", description = "search order (default bfs)")
    String strategy = "bfs";

    @Option(names = "--store", paramLabel = "exact|fingerprint|compact|disk", description = "visited-state store: exact "
            + "(default), fingerprint (64-bit hashes), compact (64-bit hashes in at most 8 bytes a state), disk (compact in "
            + "RAM, trace links and BFS levels on disk, fingerprints moved to disk when RAM runs short)")
    String store;

    @Option(names = "--disk-dir", paramLabel = "DIR", description = "with --store disk: where its files go (default a new "
            + "temporary directory; the files are deleted after the run)")
    java.nio.file.Path diskDir;

    @Option(names = "--checkpoint", paramLabel = "DIR", description = "disk search with a checkpoint in DIR every few "
            + "minutes and on SIGTERM (implies --store disk; DIR keeps the search's files)")
    java.nio.file.Path checkpoint;

    @Option(names = "--checkpoint-every", paramLabel = "DURATION", description = "time between checkpoints (default 5m; "
            + "at least 10 times what the last one took)")
    String checkpointEvery;

    @Option(names = "--resume", paramLabel = "DIR", description = "continue the disk search checkpointed in DIR (give the "
            + "same model, variant, parameters and properties; it goes on checkpointing into DIR)")
    java.nio.file.Path resume;

    @Option(names = "--max-states", paramLabel = "N", description = "stop (INCOMPLETE) after N distinct states")
    Long maxStates;

    @Option(names = "--time-limit", paramLabel = "DURATION", description = "stop (INCOMPLETE) after this long: 250ms, 90s, 5m, 1h")
    String timeLimit;

    @Option(names = "--memory", paramLabel = "SIZE", description = "memory budget for the store: 512m, 8g (units k, m, g, t; "
            + "at most the heap; default 80%% of the heap)")
    String memory;

    @Option(names = "--workers", paramLabel = "N", description = "BFS worker threads (default: available cores; dfs and random "
            + "run on one)")
    Integer workers;

    @Option(names = "--seed", paramLabel = "S", description = "with --strategy random: seed of the walks (printed when not given)")
    Long seed;

    @Option(names = "--walk-depth", paramLabel = "N", description = "with --strategy random: longest walk (default 10000)")
    Integer walkDepth;

    @Option(names = "--no-reduction", description = "switch off the model's reductions (canonical forms, partial order)")
    boolean noReduction;

    Options toOptions() {
        Options o = Options.defaults();
        Strategy s = switch (strategy.toLowerCase(Locale.ROOT)) {
            case "bfs" -> Strategy.BFS;
            case "dfs" -> Strategy.DFS;
            case "random" -> Strategy.RANDOM;
            default -> throw new UsageException("--strategy must be bfs, dfs or random, got '" + strategy + "'");
        };
        o = o.withStrategy(s);
        refuseUnused(s);
        boolean diskImplied = checkpoint != null || resume != null;
        String st = store != null ? store : diskImplied ? "disk" : "exact";
        StoreMode mode = switch (st.toLowerCase(Locale.ROOT)) {
            case "exact" -> StoreMode.EXACT;
            case "fingerprint", "fp" -> StoreMode.FINGERPRINT;
            case "compact" -> StoreMode.COMPACT;
            case "disk" -> StoreMode.DISK;
            default -> throw new UsageException("--store must be exact, fingerprint, compact or disk, got '" + st + "'");
        };
        o = o.withStore(mode);
        o = o.withDisk(disk(mode, s));
        if (maxStates != null) {
            if (maxStates < 1) {
                throw new UsageException("--max-states must be at least 1, got " + maxStates);
            }
            o = o.withMaxStates(Math.min(maxStates, Options.DEFAULT_MAX_STATES));
        }
        if (timeLimit != null) {
            try {
                o = o.withTimeLimit(Durations.parse(timeLimit));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--time-limit: " + e.getMessage());
            }
        }
        if (memory != null) {
            o = o.withMemoryBytes(MemorySize.parse(memory, Runtime.getRuntime().maxMemory()));
        }
        int cores = Runtime.getRuntime().availableProcessors();
        if (workers != null) {
            if (workers < 1 || workers > 256) {
                throw new UsageException("--workers must be in 1..256, got " + workers);
            }
            o = o.withWorkers(workers);
        } else {
            o = o.withWorkers(s == Strategy.BFS ? cores : 1);
        }
        if (walkDepth != null) {
            if (walkDepth < 1) {
                throw new UsageException("--walk-depth must be at least 1, got " + walkDepth);
            }
            o = o.withWalkDepth(walkDepth);
        }
        o = o.withSeed(seed != null ? seed : System.nanoTime() & 0xFFFF_FFFFL);
        return o.withReductions(!noReduction);
    }

    /** Options the chosen strategy would ignore are refused, not dropped in silence. */
    private void refuseUnused(Strategy s) {
        String name = s.name().toLowerCase(Locale.ROOT);
        if (s != Strategy.RANDOM && seed != null) {
            throw new UsageException("--seed is used only with --strategy random (the seed of its walks): a " + name + " search "
                    + "explores every state, in an order no seed changes");
        }
        if (s != Strategy.RANDOM && walkDepth != null) {
            throw new UsageException("--walk-depth is used only with --strategy random (the length of one walk)");
        }
        if (s != Strategy.BFS && workers != null && workers > 1) {
            throw new UsageException("--workers " + workers + " is used only with --strategy bfs: a " + name + " search runs on one "
                    + "thread");
        }
    }

    private kcheck.engine.Options.Disk disk(StoreMode mode, Strategy s) {
        String opt = checkpoint != null ? "--checkpoint" : resume != null ? "--resume" : diskDir != null ? "--disk-dir"
                : checkpointEvery != null ? "--checkpoint-every" : null;
        if (opt == null) {
            return kcheck.engine.Options.Disk.NONE;
        }
        if (mode != StoreMode.DISK) {
            throw new UsageException(opt + " needs --store disk, got --store " + store);
        }
        if (s != Strategy.BFS) {
            throw new UsageException("--store disk needs --strategy bfs");
        }
        java.time.Duration every = java.time.Duration.ofMinutes(5);
        if (checkpointEvery != null) {
            if (checkpoint == null && resume == null) {
                throw new UsageException("--checkpoint-every applies only with --checkpoint or --resume");
            }
            try {
                every = Durations.parse(checkpointEvery);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--checkpoint-every: " + e.getMessage());
            }
        }
        java.nio.file.Path dir = resume != null ? resume : checkpoint != null ? checkpoint : diskDir;
        for (java.nio.file.Path other : new java.nio.file.Path[] {checkpoint, diskDir}) {
            if (other != null && !other.toAbsolutePath().normalize().equals(dir.toAbsolutePath().normalize())) {
                throw new UsageException("--resume, --checkpoint and --disk-dir name one directory: got " + dir + " and " + other);
            }
        }
        java.nio.file.Path manifest = dir.resolve("checkpoint.bin");
        if (resume != null) {
            if (!java.nio.file.Files.isRegularFile(manifest)) {
                throw new UsageException("--resume " + dir + ": no checkpoint there (" + manifest + " is missing)");
            }
        } else if (java.nio.file.Files.exists(manifest)) {
            throw new UsageException((checkpoint != null ? "--checkpoint " : "--disk-dir ") + dir + " already holds a checkpoint: "
                    + "continue it with --resume " + dir + ", or remove it");
        }
        if (java.nio.file.Files.exists(dir) && !java.nio.file.Files.isDirectory(dir)) {
            throw new UsageException(opt + " " + dir + " is not a directory");
        }
        java.nio.file.Path parent = dir.toAbsolutePath().getParent();
        if (!java.nio.file.Files.exists(dir) && (parent == null || !java.nio.file.Files.isDirectory(parent))) {
            throw new UsageException(opt + " " + dir + ": directory " + parent + " does not exist");
        }
        return new kcheck.engine.Options.Disk(dir, checkpoint != null || resume != null, resume != null, every);
    }

    /** Adds a line on stderr for each checkpoint the disk search writes (also when the progress line is off). */
    kcheck.engine.ProgressListener withCheckpointNotes(kcheck.engine.ProgressListener l) {
        if (checkpoint == null && resume == null) {
            return l;
        }
        return new kcheck.engine.ProgressListener() {
            @Override
            public void progress(Progress p) {
                l.progress(p);
            }

            @Override
            public String stopRequested() {
                return l.stopRequested();
            }

            @Override
            public void phase(String what) {
                l.phase(what);
            }

            @Override
            public void checkpoint(java.nio.file.Path dir, long states, int depth, double seconds) {
                ProgressPrinter.done(l);
                System.err.printf(Locale.ROOT, "kcheck: checkpoint in %s: %,d states, depth %d (written in %.1f s)%n", dir, states,
                        depth, seconds);
                l.checkpoint(dir, states, depth, seconds);
            }
        };
    }
}
