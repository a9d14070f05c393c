package kcheck.engine;

import java.util.ArrayList;
import java.util.List;

import kcheck.engine.store.CompactStore;
import kcheck.engine.store.ExactStore;
import kcheck.engine.store.FingerprintStore;
import kcheck.engine.store.Links;
import kcheck.engine.store.TraceLinks;
import kcheck.engine.store.MemoryBudget;
import kcheck.engine.store.StateStore;
import kcheck.model.Model;

/**
 * What every exhaustive search shares: the model, the options, the store, the trace links, the
 * property bookkeeping, the clock, the run's deadline and the stop flag.
 */
abstract class Search {
    final Model model;
    final Options options;
    final int w;
    final MemoryBudget budget;
    final StateStore store;
    /** Trace links in RAM, keyed by store ids (null in the disk search, which streams its own). */
    final Links links;
    final Checks checks;
    /** Seconds of the cycle analysis per progress property ({@link ProgressCycles}), in the order analysed. */
    final java.util.Map<String, Double> analysisSeconds = new java.util.LinkedHashMap<>();
    /** The edges the workers took, for the cycle analysis ({@link EdgeLog}); null if not recorded. */
    EdgeLog.Set edgeLogs;
    /** Tests: keep {@link #edgeLogs} after the run to compare their graphs with rebuilt ones. */
    boolean keepEdgeLogs;
    final long startNanos = System.nanoTime();
    /** When the run must stop: polled by the search and by every phase after it (cycle analysis, traces). */
    final Deadline deadline;
    final List<long[]> initial = new ArrayList<>();

    volatile boolean stopped;
    volatile String limitReason = "";
    volatile int depth;
    long transitions;
    long ampleStates;

    Search(Model model, Options options, boolean exact, Deadline deadline) {
        this(model, options, deadline, b -> exact ? new ExactStore(model.width(), options.maxStates(), b, options.workers() > 1)
                : options.store() == StoreMode.COMPACT || options.store() == StoreMode.DISK ? new CompactStore(options.maxStates(), b, options.workers() > 1, false)
                : new FingerprintStore(options.maxStates(), b, options.workers() > 1), true);
    }

    /**
     * A search with the store {@code stores} makes (given the budget), and trace links in RAM if
     * {@code ramLinks}, that stops at {@code deadline}.
     */
    Search(Model model, Options options, Deadline deadline, java.util.function.Function<MemoryBudget, StateStore> stores,
           boolean ramLinks) {
        this.model = model;
        this.options = options;
        this.deadline = deadline;
        this.w = model.width();
        this.budget = new MemoryBudget(options.memoryBytes());
        this.store = stores.apply(budget);
        this.links = ramLinks ? new Links(options.maxStates(), budget) : null;
        this.checks = new Checks(model);
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

    /** True once the run's deadline has passed (time limit, stop request): then the search stops, naming it. */
    boolean timeUp() {
        String stop = deadline.reason();
        if (stop != null) {
            limit(stop);
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

    /** Distinct states found so far. */
    long states() {
        return store.size();
    }

    /** Where counterexamples are rebuilt from. */
    TraceLinks traceLinks() {
        return links;
    }

    /** Trace-link bytes per state. */
    double linkBytesPerState() {
        return Links.bytesPerState();
    }

    /** Bytes of the visited-state store(s). */
    long storeBytes() {
        return store.bytes();
    }

    /** True if states are kept in full (no omission). */
    boolean exactStore() {
        return store.exact();
    }

    /**
     * TLC's estimate of the probability that a fingerprint store omitted a state
     * ({@link FingerprintStore#omissionProbability}); 0 if states are kept in full.
     */
    double omission() {
        return exactStore() ? 0 : FingerprintStore.omissionProbability(states(), transitions);
    }

    /** Bytes the search keeps on disk (0 for the searches in RAM). */
    long diskBytes() {
        return 0;
    }

    void report(long queued) {
        options.listener().progress(new ProgressListener.Progress(states(), transitions, queued, depth, seconds(),
                budget.used()));
    }

    /** Runs the search and returns its result. */
    abstract RunResult run();

    /** Assembles the result once the search has ended. */
    RunResult result(boolean complete) {
        if (complete && checks.needsFullGraph() && store instanceof ExactStore exact) {
            new ProgressCycles(this, exact).check();
        }
        if (edgeLogs != null && !keepEdgeLogs) {
            edgeLogs.drop(); /* the traces after the analysis need no edges: their memory goes back to the budget */
        }
        return new ResultBuilder(this, complete).build();
    }
}
