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

    @Option(names = "--store", paramLabel = "exact|fingerprint", description = "visited-state store (default exact)")
    String store = "exact";

    @Option(names = "--max-states", paramLabel = "N", description = "stop (INCOMPLETE) after N distinct states")
    Long maxStates;

    @Option(names = "--time-limit", paramLabel = "DURATION", description = "stop (INCOMPLETE) after this long: 250ms, 90s, 5m, 1h")
    String timeLimit;

    @Option(names = "--memory", paramLabel = "SIZE", description = "memory budget for the store: 512m, 8g (default 80%% of the heap)")
    String memory;

    @Option(names = "--workers", paramLabel = "N", description = "BFS worker threads (default: available cores)")
    Integer workers;

    @Option(names = "--seed", paramLabel = "S", description = "seed of the random walk (printed when not given)")
    Long seed;

    @Option(names = "--walk-depth", paramLabel = "N", description = "longest random walk (default 10000)")
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
        o = o.withStore(switch (store.toLowerCase(Locale.ROOT)) {
            case "exact" -> StoreMode.EXACT;
            case "fingerprint", "fp" -> StoreMode.FINGERPRINT;
            default -> throw new UsageException("--store must be exact or fingerprint, got '" + store + "'");
        });
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
            o = o.withMemoryBytes(parseSize(memory));
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

    static long parseSize(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        long mult = 1;
        if (t.endsWith("g") || t.endsWith("gb")) {
            mult = 1L << 30;
        } else if (t.endsWith("m") || t.endsWith("mb")) {
            mult = 1L << 20;
        } else if (t.endsWith("k") || t.endsWith("kb")) {
            mult = 1L << 10;
        }
        String digits = t.replaceAll("[a-z]+$", "");
        try {
            long v = (long) (Double.parseDouble(digits) * mult);
            if (v < (1L << 20)) {
                throw new UsageException("--memory must be at least 1m, got '" + text + "'");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new UsageException("--memory: bad size '" + text + "' (examples: 512m, 8g)");
        }
    }
}
