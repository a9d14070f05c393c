package kcheck.engine;

import kcheck.engine.store.ExactStore;
import kcheck.engine.store.StateStore;
import kcheck.model.Model;
import kcheck.model.StepSink;

/**
 * One worker's successor loop: expands a state, checks step properties on each step, chooses an
 * ample set, then canonicalises, hashes and stores the successors it keeps as a batch (their
 * table slots are read first so the cache misses overlap), checks invariants and metrics of the
 * new ones, and hands them to {@link #discovered}. Allocation-free in steady state: scratch arrays grow only when a state has
 * more successors than any before.
 */
abstract class Expander implements StepSink {
    final Search search;
    final Model model;
    final int w;
    final long[] cur;
    final long[] one;
    private final boolean reduce;
    long curId;
    int depth;
    long transitions;
    long expanded;

    /*
     * the batch: successors of the current state, in chunks of 2^shift slots (chunk 0 starts at 16
     * slots and doubles up to that); a state of tens of thousands of wide successors never copies
     * gigabytes, and first touching fresh memory (seconds per gigabyte on some machines) is
     * interleaved with polls of the deadline
     */
    private long[][] chunks;
    private final int shift;
    private final int mask;
    /** Slots the chunks hold. */
    private int room;
    private long[] hashes;
    private int[] actorOf;
    /** Per successor: it is the state being expanded (a self-loop), so it is stored already and is neither hashed nor looked up. */
    private boolean[] loop;
    private int n;
    /** The batch could not grow within the memory budget: the current state's successors are incomplete. */
    private boolean overflow;
    int sink;

    /* partial-order reduction */
    private final boolean por;
    private final boolean proviso;
    private final int actors;
    private final long[] future;
    private final long[] footprint;
    /** States expanded with an ample set of one actor instead of every enabled step. */
    long reduced;

    /**
     * The disk search's id source and trace-link writer for this worker (null: ids come from the
     * store and links go to {@link Search#links}).
     */
    kcheck.engine.store.IdSource ids;
    /**
     * This worker's record of the edges it takes, for the cycle analysis after the search (null: not
     * recorded; the analysis then expands the states again). Only with an {@link ExactStore} on one machine.
     */
    EdgeLog edgeLog;
    /** Per successor of the batch: its progress bits and fair classes ({@link EdgeLog#info}), while logging. */
    private int[] infoOf;
    /** The partitioned search's router: takes the successors another partition owns (null: all are local). */
    Router router;

    /** Routes a successor to the partition that owns it. */
    interface Router {
        /** True if {@code s} (hash {@code h}) belongs to another partition and was sent there, from {@code parent} by step {@code ordinal}. */
        boolean remote(long h, long[] s, long parent, int ordinal);
    }
    /**
     * The store's "new" may be a state stored elsewhere (the disk search's runs, a saturated
     * table): for the cycle proviso such a successor counts as already visited (conservative).
     */
    boolean unsure;
    /**
     * The rank of the initial states if the search relies on the model's grading
     * ({@link kcheck.model.Model#rank}): every state expanded at depth d must then have rank
     * {@code graded + d}, else the search stops INCOMPLETE. Every live state of a level is
     * expanded, so no state of a wrong rank is left unseen. -1: not relied on.
     */
    long graded = -1;

    Expander(Search search) {
        this.search = search;
        this.model = search.options.workers() > 1 ? search.model.fork() : search.model;
        this.w = search.w;
        this.cur = new long[w];
        this.one = new long[w];
        this.reduce = search.options.reductions();
        this.shift = Math.max(4, 31 - Integer.numberOfLeadingZeros(Math.max(1, CHUNK_WORDS / w)));
        this.mask = (1 << shift) - 1;
        this.chunks = new long[][] {new long[16 * w]};
        this.room = 16;
        this.hashes = new long[16];
        this.actorOf = new int[16];
        this.loop = new boolean[16];
        this.infoOf = new int[16];
        this.por = reduce && search.options.partialOrder() && model.partialOrder() && search.checks.progress.length == 0;
        this.proviso = !model.acyclic();
        this.actors = model.actors().size();
        this.future = new long[actors];
        this.footprint = new long[actors];
        this.pollSteps = Math.max(1, 1024 / w);
    }

    /**
     * The actor whose enabled steps form an ample set in {@link #cur}, or -1: its steps are
     * invisible (footprint not -1), and touch no object any other actor may touch in the future.
     */
    private int ampleActor() {
        model.footprints(cur, footprint, future);
        for (int p = 0; p < actors; p++) {
            long fp = footprint[p];
            if (fp == -1L || !enabled(p)) {
                continue;
            }
            boolean independent = true;
            for (int q = 0; q < actors && independent; q++) {
                independent = q == p || (future[q] & fp) == 0;
            }
            if (independent) {
                return p;
            }
        }
        return -1;
    }

    private boolean enabled(int p) {
        for (int k = 0; k < n; k++) {
            if (actorOf[k] == p) {
                return true;
            }
        }
        return false;
    }

    /** Expands state {@code id} (already in {@link #cur}) at {@code depth}. */
    final void expand(long id, int depth) {
        this.curId = id;
        this.depth = depth;
        this.n = 0;
        if (graded >= 0 && !ranked(cur, depth)) {
            return;
        }
        try {
            model.successors(cur, this);
        } catch (StepSink.Stop e) {
            if (!overflow) {
                return; /* the deadline passed while this state's successors were enumerated: the search is stopped already */
            }
        }
        if (overflow) {
            double mib = 8.0 * n * w / (1 << 20);
            search.limit(String.format(java.util.Locale.ROOT, "memory budget: one state has over %,d successors of %,d bytes (%s)", n,
                    8L * w, mib < 1024 ? String.format(java.util.Locale.ROOT, "%.1f MiB", mib)
                            : String.format(java.util.Locale.ROOT, "%.1f GiB", mib / 1024)));
            return;
        }
        expanded++;
        transitions += n;
        if (n == 0) {
            if (search.checks.deadlock != null && !model.isFinal(cur)) {
                search.checks.recordDeadlock(id, depth, "no step is enabled and not every actor has finished");
            }
            return;
        }
        int ample = por && n > 1 ? ampleActor() : -1;
        StateStore store = search.store;
        for (int k = 0; k < n; k++) {
            if (ample < 0 || actorOf[k] == ample) {
                prepare(k);
            }
        }
        for (int k = 0; k < n; k++) {
            if ((ample < 0 || actorOf[k] == ample) && !loop[k]) {
                sink ^= store.touch(hashes[k]);
            }
        }
        if (ample >= 0) {
            reduced++;
            boolean revisits = add(id, depth, ample, true);
            if (revisits && proviso) {
                for (int k = 0; k < n; k++) {
                    if (actorOf[k] != ample) {
                        prepare(k);
                    }
                }
                add(id, depth, ample, false);
            }
            return;
        }
        add(id, depth, -1, true);
    }

    /**
     * Stores the batch's successors: those of actor {@code only} (all if -1) if {@code in},
     * else the others. Returns true if one of them was already present (the cycle proviso's test).
     */
    private boolean add(long id, int depth, int only, boolean in) {
        StateStore store = search.store;
        Checks checks = search.checks;
        boolean present = false;
        EdgeLog log = edgeLog;
        if (log != null && (only >= 0 || !log.row(id))) {
            edgeLog = log = null; /* dropped (or an ample set, never with progress properties): the analysis expands again */
        }
        for (int k = 0; k < n; k++) {
            if (k % pollSteps == pollSteps - 1 && search.timeUp()) {
                return present; /* storing thousands of wide successors, each checked, takes seconds: the search is stopped */
            }
            if (only >= 0 && (actorOf[k] == only) != in) {
                continue;
            }
            if (loop[k]) {
                present = true;
                if (log != null && !log.edge(id, k, infoOf[k])) {
                    edgeLog = log = null;
                }
                continue;
            }
            System.arraycopy(chunks[k >>> shift], (k & mask) * w, one, 0, w);
            if (router != null && router.remote(hashes[k], one, id, k)) {
                present |= unsure;
                continue;
            }
            long sid = log != null ? ((ExactStore) store).addOrFind(one, hashes[k]) : store.add(one, hashes[k]);
            if (log != null && sid != StateStore.FULL
                    && !log.edge(sid >= 0 ? sid : ExactStore.presentId(sid), k, infoOf[k])) {
                edgeLog = log = null;
            }
            if (sid >= 0) {
                if (ids != null) {
                    sid = ids.add(id, k);
                    present |= unsure;
                } else if (!search.links.set(sid, id, k)) {
                    search.limit("memory budget");
                    return false;
                }
                checks.onState(sid, one, depth + 1);
                discovered(sid, one);
            } else if (sid == StateStore.FULL) {
                search.full();
                return false;
            } else {
                present = true;
            }
        }
        return present;
    }

    /** Checks the model's grading on {@code s} at {@code depth}; stops the search if it fails. */
    private boolean ranked(long[] s, int depth) {
        long r = model.rank(s);
        if (r == graded + depth) {
            return true;
        }
        search.limit(String.format(java.util.Locale.ROOT,
                "the model's grading is false: a state at depth %d has rank %d, not %d (the disk search relies on it)", depth, r,
                graded + depth));
        return false;
    }

    /**
     * Successors enumerated between two polls of the deadline within one state, less the wider the
     * state: a state can have tens of thousands of successors, each costing up to a second where the
     * state is thousands of words wide (cpudl at --cpus 4096: every cpudl_find step scans every CPU,
     * and so does its step property); a narrow state (rq-lock: one to four words) has far fewer
     * successors than this, so its expansion never polls and costs nothing more.
     */
    private final int pollSteps;

    @Override
    public final void step(int actor, int action, long[] next) {
        int k = n;
        if (k % pollSteps == pollSteps - 1 && search.timeUp()) {
            throw StepSink.Stop.INSTANCE;
        }
        if (k >= room && !grow()) {
            overflow = true;
            throw StepSink.Stop.INSTANCE;
        }
        n++;
        if (search.checks.steps.length > 0) {
            search.checks.onStep(curId, k, cur, actor, action, next, depth + 1);
        }
        actorOf[k] = actor;
        if (edgeLog != null) {
            infoOf[k] = edgeLog.info(cur, actor, action, next);
        }
        System.arraycopy(next, 0, chunks[k >>> shift], (k & mask) * w, w);
    }

    /**
     * Canonicalises successor {@code k} of the batch in place, tells whether it is the state being
     * expanded, and hashes it. Done after the ample set is chosen, and only for the successors
     * stored: at 5 and 6 CPUs of rq-lock over half the states are expanded with an ample set, whose
     * other successors are enumerated (and their step properties checked) but never stored.
     */
    private void prepare(int k) {
        long[] batch = chunks[k >>> shift];
        int off = (k & mask) * w;
        if (reduce) {
            System.arraycopy(batch, off, one, 0, w);
            model.canonicalize(one);
            System.arraycopy(one, 0, batch, off, w);
        }
        boolean same = true;
        for (int i = 0; i < w && same; i++) {
            same = batch[off + i] == cur[i];
        }
        loop[k] = same;
        if (!same) {
            hashes[k] = Hashing.hash(batch, off, w);
        }
    }

    /** Words of one full chunk of the batch (8 MB). */
    private static final int CHUNK_WORDS = 1 << 20;

    /**
     * Makes room for one more successor: doubles chunk 0 while it is smaller than a chunk, else adds
     * a chunk; the per-successor arrays double when the chunks outgrow them. What it adds is
     * reserved from the search's memory budget (a state of many wide successors can need
     * gigabytes); false if the budget or the largest array refuses, or the deadline has passed.
     */
    private boolean grow() {
        if (search.timeUp()) {
            throw StepSink.Stop.INSTANCE;
        }
        int slots = room < mask + 1 ? room * 2 : room + mask + 1;
        if (slots < 0) {
            return false;
        }
        int side = hashes.length;
        while (side < slots) {
            side *= 2;
        }
        long bytes = (long) (slots - room) * w * Long.BYTES + (long) (side - hashes.length) * (Long.BYTES + 2 * Integer.BYTES + 1);
        if (!search.budget.reserve(bytes)) {
            return false;
        }
        try {
            if (room < mask + 1) {
                chunks[0] = java.util.Arrays.copyOf(chunks[0], slots * w);
            } else {
                chunks = java.util.Arrays.copyOf(chunks, chunks.length + 1);
                chunks[chunks.length - 1] = new long[(mask + 1) * w];
            }
            if (side > hashes.length) {
                hashes = java.util.Arrays.copyOf(hashes, side);
                actorOf = java.util.Arrays.copyOf(actorOf, side);
                loop = java.util.Arrays.copyOf(loop, side);
                infoOf = java.util.Arrays.copyOf(infoOf, side);
            }
        } catch (OutOfMemoryError e) {
            search.budget.release(bytes);
            return false;
        }
        room = slots;
        return true;
    }

    /** A new state was stored with {@code id}; {@code s} is its packed form (scratch: copy to keep). */
    abstract void discovered(long id, long[] s);
}
