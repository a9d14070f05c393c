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
            case BFS -> shortest(model, options, new Bfs(model, options).run());
            case DFS -> new Dfs(model, options).run();
            case RANDOM -> new RandomWalk(model, options).run();
        };
    }

    /**
     * Partial-order reduction may put steps into a counterexample that a shortest one does not
     * need. When it was used and something is violated, search again without it, only as deep as
     * the deepest counterexample, and take the (shortest) traces from there.
     */
    private static RunResult shortest(Model model, Options options, RunResult r) {
        int deepest = -1;
        for (PropertyResult p : r.properties()) {
            if (p.verdict() == Verdict.VIOLATED && p.trace() != null && p.trace().loopStart() < 0) {
                deepest = Math.max(deepest, p.trace().length());
            }
        }
        if (r.stats().ampleStates() == 0 || deepest < 0) {
            return r;
        }
        RunResult again = new Bfs(model, options.withPartialOrder(false).withMaxDepth(deepest + 1)).run();
        java.util.List<PropertyResult> out = new java.util.ArrayList<>();
        boolean all = true;
        for (PropertyResult p : r.properties()) {
            PropertyResult q = again.property(p.id());
            boolean replace = p.verdict() == Verdict.VIOLATED && p.trace() != null && p.trace().loopStart() < 0
                    && q.verdict() == Verdict.VIOLATED;
            all &= replace || p.verdict() != Verdict.VIOLATED || p.trace() == null || p.trace().loopStart() >= 0;
            out.add(replace ? new PropertyResult(p.id(), p.kind(), p.description(), p.verdict(), q.message(), q.trace(),
                    p.metric()) : p);
        }
        return new RunResult(r.model(), all ? r.stats().withShortestRecheck() : r.stats(), out);
    }
}
