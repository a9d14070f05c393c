package kcheck.engine;

import kcheck.model.Model;

/**
 * Entry point of the exploration engine. Knows nothing of kernels: it explores any
 * {@link Model} with the chosen {@link Strategy} and returns verdicts, figures and traces.
 */
public final class Engine {
    private Engine() {
    }

    /**
     * True if the distinct-state count of a reduced search of {@code model} may depend on the
     * order in which states are stored (several workers, partitions, the disk store): partial-order
     * reduction on a state graph with cycles, whose cycle proviso asks whether a successor was
     * visited already. Verdicts never depend on it (docs/cluster.md).
     */
    public static boolean countDependsOnOrder(Model model) {
        return model.partialOrder() && !model.acyclic();
    }

    /**
     * Checks {@code model}. The run ends by its options' time limit, counted from now, or when their
     * listener asks it to stop, whatever phase it is in (search, cycle analysis, traces).
     */
    public static RunResult check(Model model, Options options) {
        return check(model, options, Deadline.start(options));
    }

    /** As {@link #check(Model, Options)}, ending at {@code deadline} (a run's deadline already started, or a test's clock). */
    static RunResult check(Model model, Options options, Deadline deadline) {
        return switch (options.strategy()) {
            case BFS -> shortest(model, options, deadline, options.store() == StoreMode.DISK && !hasProgress(model)
                    ? new DiskBfs(model, options, deadline).run() : new Bfs(model, options, deadline).run());
            case DFS -> new Dfs(model, options, deadline).run();
            case RANDOM -> new RandomWalk(model, options, deadline).run();
        };
    }

    private static boolean hasProgress(Model m) {
        return m.properties().stream().anyMatch(p -> p instanceof kcheck.model.Progress);
    }

    /**
     * Makes BFS counterexamples canonical: a parallel search (ids in shard order) or a
     * partial-order reduced one may report any of several shortest counterexamples, or with
     * partial-order reduction a longer one. When something is violated, search again on one
     * worker in discovery order (successors in the model's order, frontier first-in first-out),
     * without partial-order reduction and only as deep as the deepest counterexample, and take
     * the traces from there: the first counterexample in that order, the same for any number of
     * workers or either store. The second search ends at the run's deadline; if it does not finish,
     * the first search's traces stay.
     */
    private static RunResult shortest(Model model, Options options, Deadline deadline, RunResult r) {
        return shortest(r, options, deadline, again -> options.store() == StoreMode.DISK
                /* beyond RAM: search again on disk too, in a directory of its own that is deleted afterwards */
                ? new DiskBfs(model, again.withStore(StoreMode.DISK).withDisk(Options.Disk.NONE)).run()
                : new Bfs(model, again).run());
    }

    /**
     * As above, with the second search run by {@code again} (given its options: no partial-order
     * reduction, one worker, as deep as the deepest counterexample): a partitioned search passes its
     * own, so that the canonical traces come from the same partitions. {@code deadline} is the run's:
     * the second search stops with it (its options have no time limit of their own but its stop
     * requests), and does not start once it has passed.
     */
    static RunResult shortest(RunResult r, Options options, Deadline deadline, java.util.function.Function<Options, RunResult> again) {
        int deepest = -1;
        for (PropertyResult p : r.properties()) {
            if (p.verdict() == Verdict.VIOLATED && p.trace() != null && p.trace().loopStart() < 0) {
                deepest = Math.max(deepest, p.trace().length());
            }
        }
        if (deepest < 0 || deadline.passed()) {
            return r;
        }
        options.listener().phase("searching again, on one worker, for the shortest counterexamples (depth " + deepest + ")");
        Options o = options.withPartialOrder(false).withMaxDepth(deepest + 1).withWorkers(1).withStore(StoreMode.FINGERPRINT)
                .withTimeLimit(null).withListener(deadline.asListener()).withMaxStates(Options.DEFAULT_MAX_STATES);
        RunResult a = again.apply(o);
        java.util.List<PropertyResult> out = new java.util.ArrayList<>();
        boolean all = true;
        for (PropertyResult p : r.properties()) {
            PropertyResult q = a.property(p.id());
            boolean violated = p.verdict() == Verdict.VIOLATED && p.trace() != null && p.trace().loopStart() < 0;
            boolean replace = violated && q.verdict() == Verdict.VIOLATED && q.trace() != null
                    && q.trace().length() <= p.trace().length();
            all &= replace || !violated;
            out.add(replace ? new PropertyResult(p.id(), p.kind(), p.description(), p.verdict(), q.message(), q.trace(),
                    p.metric()) : p);
        }
        return new RunResult(r.model(), all ? r.stats().withShortestRecheck() : r.stats(), out);
    }
}
