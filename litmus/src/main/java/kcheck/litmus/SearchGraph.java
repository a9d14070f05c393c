package kcheck.litmus;

import kcheck.litmus.GraphSearch.Run;

/**
 * One graph of {@link GraphSearch}: per thread its inputs, its latest run and how many of that run's events
 * are in the graph; the rf source of each read; the coherence order of each location (whole values, the
 * initial write first). Events are named by codes: {@code thread << 8 | index}, an initial write
 * {@code -(location + 1)}. Copies share the arrays they do not change.
 */
final class SearchGraph {
    /** Per thread: the values and choices its run took. */
    final long[][] inputs;
    final Run[] runs;
    /** Per thread: how many of its run's events are in the graph. */
    final int[] added;
    /** rf source of thread t's event k (an event code), or MISSING. */
    final int[][] rf;
    /** Per location: its writes in coherence order, the initial write first. */
    final int[][] co;

    SearchGraph(int threads, int locs) {
        inputs = new long[threads][0];
        runs = new Run[threads];
        added = new int[threads];
        rf = new int[threads][0];
        co = new int[locs][];
        for (int l = 0; l < locs; l++) {
            co[l] = new int[] {initCode(l)};
        }
    }

    /** A copy sharing each thread's inputs and rf row and each location's order: a change replaces those, never writes into them. */
    SearchGraph(SearchGraph o) {
        inputs = o.inputs.clone();
        runs = o.runs.clone();
        added = o.added.clone();
        rf = o.rf.clone();
        co = o.co.clone();
    }

    static final int MISSING = Integer.MIN_VALUE;

    static int initCode(int loc) {
        return -(loc + 1);
    }

    static int code(int thread, int k) {
        return thread << 8 | k;
    }

    /** The event {@code code} names (not an initial write). */
    GraphSearch.Access access(int code) {
        return runs[code >> 8].events().get(code & 255);
    }

    /** Where {@code code} stands in {@code order} (a location's co). */
    static int indexOf(int[] order, int code) {
        for (int i = 0; i < order.length; i++) {
            if (order[i] == code) {
                return i;
            }
        }
        throw new IllegalStateException("rf source " + code + " not in co");
    }
}
