package kcheck.engine;

import kcheck.engine.store.Ids;
import kcheck.engine.store.StateStore;
import kcheck.model.Model;
import kcheck.model.StepSink;

/**
 * One worker's successor loop: expands a state, checks step properties on each step, then
 * canonicalises, hashes and stores the successors as a batch (their table slots are read first
 * so the cache misses overlap), checks invariants and metrics of the new ones, and hands them to
 * {@link #discovered}. Allocation-free in steady state: scratch arrays grow only when a state has
 * more successors than any before.
 */
abstract class Expander implements StepSink {
    final Search search;
    final Model model;
    final int w;
    final long[] cur;
    final long[] one;
    final Ids.Block ids;
    private final boolean reduce;
    long curId;
    int depth;
    long transitions;
    long expanded;

    /* the batch: successors of the current state */
    private long[] batch;
    private long[] hashes;
    private int n;
    int sink;

    Expander(Search search) {
        this.search = search;
        this.model = search.options.workers() > 1 ? search.model.fork() : search.model;
        this.w = search.w;
        this.cur = new long[w];
        this.one = new long[w];
        this.ids = search.ids.block();
        this.reduce = search.options.reductions();
        this.batch = new long[16 * w];
        this.hashes = new long[16];
    }

    /** Expands state {@code id} (already in {@link #cur}) at {@code depth}. */
    final void expand(long id, int depth) {
        this.curId = id;
        this.depth = depth;
        this.n = 0;
        model.successors(cur, this);
        expanded++;
        transitions += n;
        if (n == 0) {
            if (search.checks.deadlock != null && !model.isFinal(cur)) {
                search.checks.recordDeadlock(id, depth, "no step is enabled and not every actor has finished");
            }
            return;
        }
        StateStore store = search.store;
        for (int k = 0; k < n; k++) {
            sink ^= store.touch(hashes[k]);
        }
        Checks checks = search.checks;
        for (int k = 0; k < n; k++) {
            if (!ids.ready()) {
                search.limit("state limit " + search.options.maxStates());
                return;
            }
            System.arraycopy(batch, k * w, one, 0, w);
            long sid = store.add(one, hashes[k], ids);
            if (sid >= 0) {
                if (!search.links.set(sid, id, k)) {
                    search.limit("memory budget");
                    return;
                }
                checks.onState(sid, one, depth + 1);
                discovered(sid, one);
            } else if (sid == StateStore.FULL) {
                search.limit("memory budget");
                return;
            }
        }
    }

    @Override
    public final void step(int actor, int action, long[] next) {
        int k = n++;
        if (search.checks.steps.length > 0) {
            search.checks.onStep(curId, k, cur, actor, action, next, depth + 1);
        }
        if ((k + 1) * w > batch.length) {
            batch = java.util.Arrays.copyOf(batch, batch.length * 2);
            hashes = java.util.Arrays.copyOf(hashes, hashes.length * 2);
        }
        int off = k * w;
        System.arraycopy(next, 0, batch, off, w);
        if (reduce) {
            System.arraycopy(next, 0, one, 0, w);
            model.canonicalize(one);
            System.arraycopy(one, 0, batch, off, w);
        }
        hashes[k] = Hashing.hash(batch, off, w);
    }

    /** A new state was stored with {@code id}; {@code s} is its packed form (scratch: copy to keep). */
    abstract void discovered(long id, long[] s);
}
