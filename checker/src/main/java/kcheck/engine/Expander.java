package kcheck.engine;

import kcheck.engine.store.StateStore;
import kcheck.model.Model;
import kcheck.model.StepSink;

/**
 * One worker's successor loop: expands a state, checks step properties on each step,
 * canonicalises and stores each successor, checks invariants and metrics of the new ones, and
 * hands them to {@link #discovered}. Allocation-free: fixed scratch arrays, primitive fields.
 */
abstract class Expander implements StepSink {
    final Search search;
    final Model model;
    final int w;
    final long[] cur;
    final long[] canon;
    long curId;
    int ordinal;
    int depth;
    long transitions;
    long expanded;

    Expander(Search search) {
        this.search = search;
        this.model = search.options.workers() > 1 ? search.model.fork() : search.model;
        this.w = search.w;
        this.cur = new long[w];
        this.canon = new long[w];
    }

    /** Expands state {@code id} (already in {@link #cur}) at {@code depth}. */
    final void expand(long id, int depth) {
        this.curId = id;
        this.depth = depth;
        this.ordinal = 0;
        model.successors(cur, this);
        expanded++;
        if (ordinal == 0 && search.checks.deadlock != null && !model.isFinal(cur)) {
            search.checks.recordDeadlock(id, depth, "no step is enabled and not every actor has finished");
        }
    }

    @Override
    public final void step(int actor, int action, long[] next) {
        int ord = ordinal++;
        transitions++;
        Checks checks = search.checks;
        if (checks.steps.length > 0) {
            checks.onStep(curId, ord, cur, actor, action, next, depth + 1);
        }
        System.arraycopy(next, 0, canon, 0, w);
        if (search.options.reductions()) {
            model.canonicalize(canon);
        }
        long id = search.store.add(canon, Hashing.hash(canon, 0, w));
        if (id >= 0) {
            if (!search.links.set(id, curId, ord)) {
                search.limit("memory budget");
                return;
            }
            checks.onState(id, canon, depth + 1);
            discovered(id, canon);
        } else if (id == StateStore.FULL) {
            search.limit(search.store.fullReason().equals("state limit")
                    ? "state limit " + search.options.maxStates() : "memory budget");
        }
    }

    /** A new state was stored with {@code id}; {@code s} is its packed form (scratch: copy to keep). */
    abstract void discovered(long id, long[] s);
}
