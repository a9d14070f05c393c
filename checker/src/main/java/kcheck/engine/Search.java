package kcheck.engine;

import java.util.ArrayList;
import java.util.List;

import kcheck.engine.store.ExactStore;
import kcheck.engine.store.FingerprintStore;
import kcheck.engine.store.Links;
import kcheck.engine.store.MemoryBudget;
import kcheck.engine.store.StateStore;
import kcheck.model.Model;

/**
 * What every exhaustive search shares: the model, the options, the store, the trace links, the
 * property bookkeeping, the clock and the stop flag.
 */
abstract class Search {
    final Model model;
    final Options options;
    final int w;
    final MemoryBudget budget;
    final StateStore store;
    final Links links;
    final Checks checks;
    final long startNanos = System.nanoTime();
    final long deadlineNanos;
    final List<long[]> initial = new ArrayList<>();

    volatile boolean stopped;
    volatile String limitReason = "";
    volatile int depth;
    long transitions;
    long ampleStates;

    Search(Model model, Options options, boolean exact) {
        this.model = model;
        this.options = options;
        this.w = model.width();
        this.budget = new MemoryBudget(options.memoryBytes());
        boolean concurrent = options.workers() > 1;
        this.store = exact ? new ExactStore(w, options.maxStates(), budget, concurrent)
                : new FingerprintStore(options.maxStates(), budget, concurrent);
        this.links = new Links(options.maxStates(), budget);
        this.checks = new Checks(model);
        this.deadlineNanos = options.timeLimit() == null ? Long.MAX_VALUE
                : startNanos + options.timeLimit().toNanos();
        model.initial(s -> initial.add(s.clone()));
    }

    double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Stops the search with INCOMPLETE, naming the limit. */
    void limit(String reason) {
        if (!stopped) {
            limitReason = reason;
            stopped = true;
        }
    }

    boolean timeUp() {
        String stop = options.listener().stopRequested();
        if (stop != null) {
            limit(stop);
            return true;
        }
        if (System.nanoTime() > deadlineNanos) {
            limit("time limit " + Durations.format(options.timeLimit()));
            return true;
        }
        return false;
    }

    void canonical(long[] s) {
        if (options.reductions()) {
            model.canonicalize(s);
        }
    }

    /** Stores an initial state (ordinal {@code i}); its id, or -1 if already present or out of room. */
    long addInitial(long[] s, int i) {
        long id = store.add(s, Hashing.hash(s, 0, w));
        if (id == StateStore.FULL) {
            full();
            return -1;
        }
        if (id >= 0) {
            links.set(id, -1, i);
            checks.onState(id, s, 0);
        }
        return id;
    }

    /** The store refused a state: stop, naming the limit. */
    void full() {
        limit(store.fullReason().equals("state limit") ? "state limit " + options.maxStates() : "memory budget");
    }

    long linkBytes() {
        return store.size() * Links.bytesPerState();
    }

    void report(long queued) {
        options.listener().progress(new ProgressListener.Progress(store.size(), transitions, queued, depth, seconds(),
                budget.used()));
    }

    /** Runs the search and returns its result. */
    abstract RunResult run();

    /** Assembles the result once the search has ended. */
    RunResult result(boolean complete) {
        if (complete && checks.needsFullGraph() && store instanceof ExactStore exact) {
            new ProgressCycles(this, exact).check();
        }
        return new ResultBuilder(this, complete).build();
    }
}
