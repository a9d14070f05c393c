package kcheck.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import kcheck.engine.store.CompactStore;
import kcheck.engine.store.DiskLinks;
import kcheck.engine.store.PairSorter;
import kcheck.engine.store.TraceLinks;
import kcheck.model.Model;

/**
 * Level-synchronous BFS for state spaces beyond RAM ({@link StoreMode#DISK}). RAM holds only the
 * compressed fingerprints ({@link CompactStore}, at most 8 bytes a state) and a few buffers; the
 * trace links ({@link DiskLinks}) and the levels ({@link DiskFrontier}) are sequential files.
 *
 * <p>When the fingerprint table can grow no more, states it cannot store are taken as new
 * (candidates), and at the end of the level the table's keys are written to a sorted run on disk
 * and the table is emptied (then refilled with the new level, which the next level's successors
 * mostly revisit). From the first run on, the level's new states are checked at the level's end:
 * their (key, id) pairs are sorted, and a state whose key is in a run, or repeats an earlier key
 * of the same level, is marked dead, so it is neither counted nor expanded. The survivor of a
 * repeated key is its smallest id: in a one-worker search, the first found, as in RAM. Invariants
 * and metrics are checked on every candidate when it is found; a dead candidate repeats a state
 * checked at the same or a smaller depth, so the shallowest violation and witness are unchanged.
 *
 * <p>Checkpoints ({@link Options.Disk#checkpoint}): every few minutes the workers pause between
 * chunks and {@link DiskCheckpoint} writes the search's state next to its files. The key runs and
 * the end-of-level check are {@link DiskKeyRuns}; the omission estimate is {@link DiskOmission}.
 *
 * <p>Graded models ({@link Model#rank}): a state is found at one depth only, so the states of
 * the level being built cannot repeat an older level's, and the table holds that level's keys and
 * is emptied when the level ends: no runs are written and the table does not fill. The grading is
 * checked on every state expanded; if it fails, the search stops INCOMPLETE. A search
 * resumed from a checkpoint written before it relied on the grading first writes the table's keys
 * as a run, which every later level is checked against as before: only the levels built under
 * the checked grading are spared the older keys.
 */
final class DiskBfs extends Search {
    private final int workers;
    private final Worker[] pool;
    final CompactStore ram;
    final Path dir;
    private final boolean ownDir;
    private final boolean checkpointing;
    final DiskLinks dlinks;
    final DiskKeyRuns keyRuns;
    final DiskOmission omission = new DiskOmission();
    private final DiskCheckpoint checkpoints = new DiskCheckpoint(this);

    /* the search's state, written to and read from checkpoints (DiskCheckpoint) */
    DiskFrontier cur;
    long[] curDead;
    long curBase;
    long curLive;
    DiskFrontier next;
    long startBlock;
    int cursorStart;
    long states;
    long transitionsBefore;
    long ampleBefore;
    double secondsBefore;
    int gen;
    String ramFile;
    final List<Path> retired = new ArrayList<>();
    /** Runs and level files already forced to disk by a checkpoint. */
    final Set<String> synced = new HashSet<>();
    /** The initial states' rank if the model claims a grading ({@link Model#rank}), else -1. */
    final long gradedRank;
    /** The levels are built relying on the grading: the table holds only the level being built. */
    boolean graded;

    private volatile boolean pause;
    private volatile boolean terminate;
    /** The checkpoint asked for by SIGTERM is written: the search ends. */
    private boolean termCheckpointed;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private long nextCheckpoint;
    private long lastCheckpointNanos;
    private long nextReport = System.nanoTime() + 1_000_000_000L;

    DiskBfs(Model model, Options options) {
        this(model, options, Deadline.start(options));
    }

    DiskBfs(Model model, Options options, Deadline deadline) {
        super(model, options, deadline, b -> new CompactStore(options.maxStates(), b, options.workers() > 1, true), false);
        this.ram = (CompactStore) store;
        this.workers = Math.max(1, options.workers());
        Options.Disk d = options.disk();
        this.checkpointing = d.checkpoint() || d.resume();
        try {
            if (d.dir() == null) {
                if (checkpointing) {
                    throw new IllegalArgumentException("a checkpoint needs a directory");
                }
                this.dir = ScratchDirs.create("kcheck-disk-");
                this.ownDir = true;
            } else {
                Files.createDirectories(d.dir());
                this.dir = d.dir();
                this.ownDir = false;
            }
            this.dlinks = new DiskLinks(dir.resolve("links.bin"), d.resume());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long sortBytes = Math.max(1L << 20, Math.min(1L << 30, options.memoryBytes() / 16));
        int sortPairs = (int) (sortBytes / 16);
        budget.reserve(PairSorter.bytes(sortPairs));
        this.keyRuns = new DiskKeyRuns(dir, w, sortPairs, this::retire);
        /* headroom for the levels' dead-state bitmaps (1 bit per id of a level): allocated outside the budget */
        budget.reserve(Math.max(1L << 20, options.memoryBytes() / 32));
        this.pool = new Worker[workers];
        boolean unsure = !model.acyclic();
        for (int i = 0; i < workers; i++) {
            pool[i] = new Worker(this);
            pool[i].links = dlinks.writer();
            pool[i].ids = pool[i].links;
            pool[i].unsure = unsure;
        }
        this.nextCheckpoint = System.nanoTime() + d.every().toNanos();
        this.gradedRank = d.graded() ? rankOfInitial() : -1;
    }

    /** The common rank of the initial states, or -1 if the model claims no grading (or they differ). */
    private long rankOfInitial() {
        long r = -2;
        for (long[] s0 : initial) {
            long[] s = s0.clone();
            canonical(s);
            long x = model.rank(s);
            if (x < 0 || (r != -2 && x != r)) {
                return -1;
            }
            r = x;
        }
        return r < 0 ? -1 : r;
    }

    /** From now on the levels are built relying on the grading (checked on every state). */
    void relyOnGrading() {
        graded = true;
        for (Worker wk : pool) {
            wk.graded = gradedRank;
        }
    }

    private final class Worker extends Expander {
        DiskFrontier.Writer out;
        DiskFrontier.Reader in;
        DiskLinks.Writer links;

        Worker(Search s) {
            super(s);
        }

        @Override
        void discovered(long id, long[] s) {
            out.add(id, s);
        }
    }

    @Override
    long states() {
        DiskFrontier n = next;
        return states + (n == null ? 0 : n.size());
    }

    @Override
    TraceLinks traceLinks() {
        return dlinks;
    }

    @Override
    double linkBytesPerState() {
        return (double) dlinks.bytes() / Math.max(1, states);
    }

    @Override
    long diskBytes() {
        return dlinks.bytes() + (cur == null ? 0 : cur.bytes()) + (next == null ? 0 : next.bytes()) + keyRuns.bytes();
    }

    @Override
    double seconds() {
        return secondsBefore + super.seconds();
    }

    /** Transitions so far: before the resume, and by each worker since. */
    long totalTransitions() {
        long t = transitionsBefore;
        for (Worker wk : pool) {
            t += wk.transitions;
        }
        return t;
    }

    /** States expanded with an ample set so far: before the resume, and by each worker since. */
    long totalAmple() {
        long a = ampleBefore;
        for (Worker wk : pool) {
            a += wk.reduced;
        }
        return a;
    }

    /** {@link DiskOmission}: TLC's estimate per comparison set. */
    @Override
    double omission() {
        return omission.estimate(states(), totalTransitions());
    }

    @Override
    RunResult run() {
        Thread hook = null;
        try {
            if (options.disk().resume()) {
                checkpoints.resume();
            } else {
                start();
            }
            if (checkpointing) {
                hook = new Thread(this::onTerm, "kcheck-checkpoint-on-exit");
                Runtime.getRuntime().addShutdownHook(hook);
            }
            boolean exhausted;
            try {
                exhausted = search();
                if (checkpointing && !termCheckpointed && next == null) {
                    /* the end state: resuming it gives this result at once, and the retired files can go */
                    checkpoints.write(0);
                }
            } catch (IOException | UncheckedIOException e) {
                Throwable c = e instanceof UncheckedIOException && e.getCause() != null ? e.getCause() : e;
                limit("disk error in " + dir + ": " + (c.getMessage() != null ? c.getMessage() : c.getClass().getSimpleName()));
                exhausted = false;
            }
            for (Worker wk : pool) {
                wk.links.close();
            }
            transitions = totalTransitions();
            ampleStates = totalAmple();
            return result(exhausted && !stopped);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            terminated.countDown();
            if (hook != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // the JVM is shutting down: the hook is running
                }
            }
            cleanup();
        }
    }

    /** SIGTERM (or another orderly exit) during the search: write a checkpoint, then let the JVM go. */
    private void onTerm() {
        terminate = true;
        pause = true;
        try {
            terminated.await(10, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void start() throws IOException {
        cur = new DiskFrontier(dir, "L0", w);
        DiskFrontier.Writer first = cur.writer();
        for (int i = 0; i < initial.size(); i++) {
            long[] s = initial.get(i).clone();
            canonical(s);
            long id = store.add(s, Hashing.hash(s, 0, w));
            if (id == kcheck.engine.store.StateStore.FULL) {
                full();
                break;
            }
            if (id >= 0) {
                id = pool[0].links.add(-1, i);
                checks.onState(id, s, 0);
                first.add(id, s);
            }
        }
        first.close();
        pool[0].links.close();
        curLive = cur.size();
        states = curLive;
        curBase = 0;
        startBlock = dlinks.nextBlock();
        if (gradedRank >= 0) {
            relyOnGrading();
            ram.clear();
        } else {
            omission.initialStates(curLive);
        }
    }

    /** Runs levels until done; true if the state space was exhausted. */
    private boolean search() throws IOException {
        ExecutorService threads = workers > 1 ? Executors.newFixedThreadPool(workers - 1, r -> {
            Thread t = new Thread(r, "kcheck-disk-bfs");
            t.setDaemon(true);
            return t;
        }) : null;
        try {
            while (!stopped && !checks.done()) {
                if (depth >= options.maxDepth()) {
                    limit("depth bound " + options.maxDepth());
                    return false;
                }
                if (curLive == 0) {
                    return true;
                }
                expandLevel(threads);
                if (termCheckpointed) {
                    return false;
                }
                long live = finishLevel();
                if (live > 0 && !stopped && !checks.done()) {
                    depth++;
                }
                if (checkpointing && !stopped && (pause || System.nanoTime() > nextCheckpoint)) {
                    checkpoints.write(0);
                    if (terminate) {
                        termCheckpointed = true;
                        limit("terminated; checkpoint written to " + dir + " (continue with --resume)");
                        return false;
                    }
                }
            }
            return false;
        } finally {
            if (threads != null) {
                threads.shutdownNow();
            }
        }
    }

    private void expandLevel(ExecutorService threads) throws IOException {
        if (next == null) {
            next = new DiskFrontier(dir, "L" + (depth + 1) + "g" + gen, w);
            startBlock = dlinks.nextBlock();
        }
        for (Worker wk : pool) {
            wk.out = next.writer();
            wk.in = cur.new Reader();
        }
        int total = cur.chunks();
        AtomicInteger cursor = new AtomicInteger(cursorStart);
        cursorStart = 0;
        int rec = w + 1;
        long[] dead = curDead;
        long base = curBase;
        try {
            while (true) {
                runWorkers(threads, wk -> {
                    while (!stopped && !checks.done() && !pause) {
                        int c = cursor.getAndIncrement();
                        if (c >= total) {
                            return;
                        }
                        int n = wk.in.read(c);
                        long[] buf = wk.in.buf;
                        for (int r = 0; r < n; r++) {
                            long id = buf[r * rec];
                            if (DiskKeyRuns.isDead(dead, id - base)) {
                                continue;
                            }
                            System.arraycopy(buf, r * rec + 1, wk.cur, 0, w);
                            wk.expand(id, depth);
                        }
                        housekeeping(wk, total - c);
                    }
                });
                if (cursor.get() >= total || stopped || checks.done()) {
                    break;
                }
                if (pause) {
                    checkpoints.write(Math.min(cursor.get(), total));
                    if (terminate) {
                        termCheckpointed = true;
                        limit("terminated; checkpoint written to " + dir + " (continue with --resume)");
                        return;
                    }
                }
            }
        } finally {
            for (Worker wk : pool) {
                wk.in.close();
                wk.out.close();
                wk.links.close();
            }
        }
    }

    /** Counts the new level: checks its states against the runs when needed, and moves RAM to disk when full. */
    private long finishLevel() throws IOException {
        long records = next.size();
        boolean saturated = ram.saturated();
        boolean filter = !keyRuns.isEmpty() || saturated;
        long base = startBlock << 12;
        long span = (dlinks.nextBlock() - startBlock) << 12;
        long[] bitmap = null;
        long dead = 0;
        if (filter) {
            long words = (span + 63) >>> 6;
            if (words > Integer.MAX_VALUE - 8) {
                limit("memory budget");
                return 0;
            }
            bitmap = new long[(int) words];
            /* a graded level's survivors are never looked up again: no run of them */
            String liveRun = saturated && !graded ? keyRuns.nextLiveRun() : null;
            announce("checking the level's %,d new states against %d key run(s) on disk", records, keyRuns.size());
            long t0 = System.nanoTime();
            if (graded && !saturated) {
                /* the table holds exactly the level's keys, once each: look them up, in order, from the table itself */
                dead = keyRuns.olderKeys(ram, workers, next, bitmap, base);
            } else {
                dead = keyRuns.antiJoin(next, bitmap, base, liveRun);
            }
            announce("%,d of them seen before, %,d new (%.0f s)", dead, records - dead, (System.nanoTime() - t0) / 1e9);
        }
        if (graded) {
            /* the next level's states have the next rank: none of them is in this one */
            ram.clear();
        } else if (saturated) {
            announce("RAM table full: writing its keys to disk as a sorted run, then refilling it with the new level");
            keyRuns.ramToRun(ram);
            ram.clear();
            if (gradedRank < 0) {
                keyRuns.reseed(ram, next, bitmap, base);
            }
            /* else the search relies on the grading from the next level on: the level's keys are in the live run */
        }
        if (keyRuns.tooMany()) {
            announce("merging %d key runs into one", keyRuns.size());
            keyRuns.merge();
        }
        long live = records - dead;
        states += live;
        omission.levelDone(graded, totalTransitions(), records + keyRuns.keys(), live);
        for (Path p : cur.paths()) {
            retire(p);
        }
        cur = next;
        curDead = bitmap;
        curBase = base;
        curLive = live;
        next = null;
        if (!graded && gradedRank >= 0) {
            keepKeysAsRun();
        }
        return live;
    }

    /**
     * Resumed from a checkpoint that did not rely on the grading: the table's keys (with the runs,
     * every state found so far) become a run that later levels are checked against, and the
     * table is emptied to hold one level at a time.
     */
    private void keepKeysAsRun() throws IOException {
        if (ram.stored() == 0) {
            announce("the model is graded: every key found so far is in the runs on disk, and from now on RAM holds one level");
        } else {
            announce("the model is graded: the %,d keys in RAM go to disk as a sorted run, and from now on RAM holds one level",
                    ram.stored());
            keyRuns.ramToRun(ram);
        }
        ram.clear();
        relyOnGrading();
    }

    /** Tells the listener about a long end-of-level step of the level being counted (depth + 1). */
    private void announce(String format, Object... args) {
        options.listener().phase("depth " + (depth + 1) + ": " + String.format(java.util.Locale.ROOT, format, args));
    }

    private void housekeeping(Worker wk, long queuedChunks) {
        if (checkpointing && (terminate || options.listener().stopRequested() != null)) {
            /* SIGINT/SIGTERM through the command line: checkpoint first (at the next pause), then stop */
            terminate = true;
            pause = true;
            return;
        }
        if (timeUp()) {
            return;
        }
        if (wk == pool[0]) {
            long now = System.nanoTime();
            if (now > nextReport) {
                nextReport = now + 1_000_000_000L;
                transitions = totalTransitions();
                report(queuedChunks * DiskFrontier.RECORDS);
                transitions = 0;
            }
            if (checkpointing && now > nextCheckpoint) {
                pause = true;
            }
        }
    }

    private interface Job {
        void run(Worker wk);
    }

    private void runWorkers(ExecutorService threads, Job job) {
        if (threads == null) {
            job.run(pool[0]);
            return;
        }
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 1; i < workers; i++) {
            Worker wk = pool[i];
            futures.add(threads.submit(() -> job.run(wk)));
        }
        job.run(pool[0]);
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                limit("interrupted");
            } catch (java.util.concurrent.ExecutionException e) {
                Throwable c = e.getCause();
                if (c instanceof RuntimeException r) {
                    throw r;
                }
                if (c instanceof OutOfMemoryError) {
                    limit("memory budget");
                    continue;
                }
                throw new IllegalStateException(c);
            }
        }
    }

    /* ---------------------------------------------------------------- checkpoints */

    private void retire(Path p) {
        if (checkpointing) {
            retired.add(p);
        } else {
            delete(p);
        }
    }

    static void delete(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // left for the user to remove: nothing depends on it
        }
    }

    /** Closes every worker's link writer and forces its part of the next level to disk (before a checkpoint). */
    void syncWorkers() throws IOException {
        for (Worker wk : pool) {
            wk.links.close();
            if (wk.out != null) {
                wk.out.sync();
            }
        }
    }

    /** A checkpoint that took {@code took} ns is written: the workers go on, and the next is due later. */
    void checkpointWritten(long took) {
        pause = false;
        lastCheckpointNanos = took;
        long every = options.disk().every().toNanos();
        /* a zero interval (tests) means at every chance; else at least ten times what this one took */
        nextCheckpoint = System.nanoTime() + (every == 0 ? 0 : Math.max(every, 10 * took));
        options.listener().checkpoint(dir, states(), depth, took / 1e9);
    }

    private void cleanup() {
        try {
            dlinks.close();
        } catch (IOException e) {
            // nothing to keep
        }
        if (checkpointing) {
            return;
        }
        List<Path> ours = new ArrayList<>(retired);
        if (cur != null) {
            ours.addAll(cur.paths());
        }
        if (next != null) {
            ours.addAll(next.paths());
        }
        ours.addAll(keyRuns.paths());
        ours.add(dir.resolve("links.bin"));
        for (Path p : ours) {
            delete(p);
        }
        if (ownDir) {
            ScratchDirs.release(dir);
        }
    }

}
