package kcheck.engine;

import kcheck.model.Model;

/**
 * Entry point of the exploration engine. Knows nothing of kernels: it explores any
 * {@link Model} with the chosen {@link Strategy} and returns verdicts, figures and traces.
 */
public final class Engine {
    private Engine() {
    }

    public static RunResult check(Model model, Options options) {
        return switch (options.strategy()) {
            case BFS -> new Bfs(model, options).run();
            case DFS -> new Dfs(model, options).run();
            case RANDOM -> new RandomWalk(model, options).run();
        };
    }
}
