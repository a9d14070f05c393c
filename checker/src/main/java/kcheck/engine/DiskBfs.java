package kcheck.engine;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
import kcheck.engine.store.KeyRun;
import kcheck.engine.store.PairSorter;
import kcheck.engine.store.TraceLinks;
import kcheck.model.Model;
import kcheck.model.Property;

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
 * chunks; the fingerprint table, the link index, the level files' chunk lists, the checks found
 * so far and the counters are written next to the files, and a manifest is renamed into place.
 * A resumed search cuts every file back to the manifest and continues from the chunk where the
 * checkpoint was taken; files retired after a checkpoint are deleted only once a later checkpoint
 * no longer needs them.
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
    private static final long MAGIC = 0x6b63686b64626673L;
    /**
     * 2: level chunks are compressed (their byte length is in the chunk list); 3: whether the
     * grading is relied on; 4: the omission estimate's counters.
     */
    private static final int VERSION = 4;

    private final int workers;
    private final Worker[] pool;
    private final CompactStore ram;
    private final Path dir;
    private final boolean ownDir;
    private final boolean checkpointing;
    private final DiskLinks dlinks;
    private final List<String> runs = new ArrayList<>();
    private final List<Long> runKeys = new ArrayList<>();
    private int merges;
    private final int sortPairs;
    private PairSorter sorter;

    private DiskFrontier cur;
    private long[] curDead;
    private long curBase;
    private long curLive;
    private DiskFrontier next;
    private long startBlock;
    private int cursorStart;
    private long states;
    private long transitionsBefore;
    private long ampleBefore;
    private double secondsBefore;
    private int gen;
    private String ramFile;
    private final List<Path> retired = new ArrayList<>();
    /** Runs already forced to disk by a checkpoint. */
    private final Set<String> synced = new HashSet<>();
    /** The initial states' rank if the model claims a grading ({@link Model#rank}), else -1. */
    private final long gradedRank;
    /** The levels are built relying on the grading: the table holds only the level being built. */
    private boolean graded;
    /** Transitions counted when the level being built began: the ones after it are its successors. */
    private long levelTransitions;
    /** The levels built without the grading (with the initial states): their transitions and new states. */
    private long ungradedTransitions;
    private long ungradedStates;
    /** The graded levels' share of the omission estimate ({@link #omission}). */
    private double gradedOmission;

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
        this.sortPairs = (int) (sortBytes / 16);
        budget.reserve(PairSorter.bytes(sortPairs));
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
    private void relyOnGrading() {
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
        long b = dlinks.bytes() + (cur == null ? 0 : cur.bytes()) + (next == null ? 0 : next.bytes());
        for (String r : runs) {
            try {
                b += Files.size(dir.resolve(r));
            } catch (IOException e) {
                // gone: count nothing
            }
        }
        return b;
    }

    @Override
    double seconds() {
        return secondsBefore + super.seconds();
    }

    /** Transitions so far: before the resume, and by each worker since. */
    private long totalTransitions() {
        long t = transitionsBefore;
        for (Worker wk : pool) {
            t += wk.transitions;
        }
        return t;
    }

    /** States expanded with an ample set so far: before the resume, and by each worker since. */
    private long totalAmple() {
        long a = ampleBefore;
        for (Worker wk : pool) {
            a += wk.reduced;
        }
        return a;
    }

    /**
     * TLC's estimate n * (m - n) / 2^64, taken per comparison set. A state found again can be taken
     * for another only among the keys it is compared with. Without the grading, those keys are
     * every state, so the levels built that way count as TLC counts the whole search. A graded level is
     * compared only with its own keys (and the runs of keys found before the search relied on the
     * grading), so it adds keys * (its successors - its new states) / 2^64 (see
     * {@link #countOmission}). A level stopped before its end counts as ungraded.
     */
    @Override
    double omission() {
        long pending = totalTransitions() - levelTransitions;
        return (double) states() * Math.max(0, ungradedTransitions + pending - ungradedStates) / 0x1p64 + gradedOmission;
    }

    /** Adds a finished level to the omission estimate: {@code generated} successors, {@code records} keys of the level, {@code live} of them new. */
    private void countOmission(long generated, long records, long live) {
        if (graded) {
            long keys = records;
            for (long k : runKeys) {
                keys += k;
            }
            gradedOmission += (double) keys * Math.max(0, generated - live) / 0x1p64;
        } else {
            ungradedTransitions += generated;
            ungradedStates += live;
        }
    }

    @Override
    RunResult run() {
        Thread hook = null;
        try {
            if (options.disk().resume()) {
                resume();
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
                    checkpoint(0);
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
            ungradedStates = curLive;
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
                    checkpoint(0);
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
                            if (isDead(dead, id - base)) {
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
                    checkpoint(Math.min(cursor.get(), total));
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
        boolean filter = !runs.isEmpty() || saturated;
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
            String liveRun = saturated && !graded ? "run-" + (++merges) + "-live.keys" : null;
            announce("checking the level's %,d new states against %d key run(s) on disk", records, runs.size());
            long t0 = System.nanoTime();
            if (graded && !saturated) {
                /* the table holds exactly the level's keys, once each: look them up, in order, from the table itself */
                dead = olderKeys(next, bitmap, base);
            } else {
                dead = antiJoin(next, bitmap, base, liveRun);
            }
            announce("%,d of them seen before, %,d new (%.0f s)", dead, records - dead, (System.nanoTime() - t0) / 1e9);
        }
        if (graded) {
            /* the next level's states have the next rank: none of them is in this one */
            ram.clear();
        } else if (saturated) {
            announce("RAM table full: writing its keys to disk as a sorted run, then refilling it with the new level");
            ramToRun();
            ram.clear();
            if (gradedRank < 0) {
                reseed(next, bitmap, base);
            }
            /* else the search relies on the grading from the next level on: the level's keys are in the live run */
        }
        if (runs.size() > MAX_RUNS) {
            announce("merging %d key runs into one", runs.size());
            mergeRuns();
        }
        long live = records - dead;
        states += live;
        long now = totalTransitions();
        countOmission(now - levelTransitions, records, live);
        levelTransitions = now;
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
            ramToRun();
        }
        ram.clear();
        relyOnGrading();
    }

    /** Writes the table's keys to a new sorted run on disk, one of the runs every later level is checked against. */
    private void ramToRun() throws IOException {
        String name = "run-" + (++merges) + "-ram.keys";
        try (KeyRun.Writer wr = new KeyRun.Writer(dir.resolve(name))) {
            ram.forEachSorted(wr);
            runKeys.add(wr.count());
        }
        runs.add(name);
    }

    /** Tells the listener about a long end-of-level step of the level being counted (depth + 1). */
    private void announce(String format, Object... args) {
        options.listener().phase("depth " + (depth + 1) + ": " + String.format(java.util.Locale.ROOT, format, args));
    }

    /**
     * Marks dead, in {@code bitmap}, each state of {@code level} whose key is in a run or repeats
     * an earlier (key, id) of the level; writes the survivors' keys as a new run if
     * {@code liveRun} is named (they may be missing from the full RAM table). Returns the number
     * of dead states.
     */
    private long antiJoin(DiskFrontier level, long[] bitmap, long base, String liveRun) throws IOException {
        if (sorter == null) {
            sorter = new PairSorter(dir, sortPairs);
        }
        forEachRecord(level, (id, key) -> {
            sorter.add(key, id);
            return true;
        });
        List<KeyRun.Reader> readers = new ArrayList<>();
        KeyRun.Writer live = liveRun == null ? null : new KeyRun.Writer(dir.resolve(liveRun));
        long[] dead = {0};
        try {
            for (String r : runs) {
                readers.add(new KeyRun.Reader(dir.resolve(r)));
            }
            long[] prev = {0};
            boolean[] any = {false};
            sorter.finish((k, id) -> {
                boolean repeat = any[0] && k == prev[0];
                any[0] = true;
                prev[0] = k;
                boolean isDead = repeat;
                for (int i = 0; i < readers.size() && !isDead; i++) {
                    isDead = readers.get(i).contains(k);
                }
                if (isDead) {
                    markDead(bitmap, id - base);
                    dead[0]++;
                } else if (live != null) {
                    live.add(k);
                }
            });
        } finally {
            sorter.close();
            for (KeyRun.Reader r : readers) {
                r.close();
            }
            if (live != null) {
                live.close();
                runs.add(liveRun);
                runKeys.add(live.count());
            }
        }
        return dead[0];
    }

    /**
     * For a graded level whose keys are all in the table (once each): marks dead the states whose
     * key is in a run (found before the search relied on the grading). The table streams its keys
     * in order, in one key range per worker, and each worker looks its range up in every run.
     * Returns the number of dead states.
     */
    private long olderKeys(DiskFrontier level, long[] bitmap, long base) throws IOException {
        int parts = workers;
        java.util.Set<Long> old = java.util.concurrent.ConcurrentHashMap.newKeySet();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            int part = p;
            Thread t = new Thread(() -> {
                List<KeyRun.Reader> readers = new ArrayList<>();
                try {
                    for (String r : runs) {
                        readers.add(new KeyRun.Reader(dir.resolve(r)));
                    }
                    ram.forEachSorted(part, parts, k -> {
                        for (KeyRun.Reader rd : readers) {
                            if (rd.contains(k)) {
                                old.add(k);
                                return;
                            }
                        }
                    });
                } catch (IOException | RuntimeException e) {
                    failures.add(e);
                } finally {
                    for (KeyRun.Reader rd : readers) {
                        try {
                            rd.close();
                        } catch (IOException e) {
                            // read-only
                        }
                    }
                }
            }, "kcheck-disk-lookup-" + p);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while checking the level");
            }
        }
        if (!failures.isEmpty()) {
            Throwable f = failures.get(0);
            if (f instanceof IOException io) {
                throw io;
            }
            throw (RuntimeException) f;
        }
        if (old.isEmpty()) {
            return 0;
        }
        long[] dead = {0};
        forEachRecord(level, (id, key) -> {
            if (old.contains(key)) {
                markDead(bitmap, id - base);
                dead[0]++;
            }
            return true;
        });
        return dead[0];
    }

    /** Runs beyond which they are merged into one (each level's check reads every run). */
    private static final int MAX_RUNS = 12;

    private void mergeRuns() throws IOException {
        List<Path> in = new ArrayList<>();
        for (String r : runs) {
            in.add(dir.resolve(r));
        }
        String name = "run-" + (++merges) + "-merged.keys";
        long n = KeyRun.Reader.merge(in, dir.resolve(name));
        for (Path p : in) {
            retire(p);
        }
        runs.clear();
        runKeys.clear();
        runs.add(name);
        runKeys.add(n);
    }

    /** Puts the live states of the new level back into the emptied table (the next level revisits them most). */
    private void reseed(DiskFrontier level, long[] dead, long base) throws IOException {
        forEachRecord(level, (id, key) -> isDead(dead, id - base) || ram.put(key));
    }

    /** Receives a level's records as (id, key); false stops the walk. */
    @FunctionalInterface
    private interface RecordSink {
        boolean record(long id, long key) throws IOException;
    }

    /** Walks {@code level}'s records in file order, each as its id and its state's key. */
    private void forEachRecord(DiskFrontier level, RecordSink sink) throws IOException {
        int rec = w + 1;
        try (DiskFrontier.Reader in = level.new Reader()) {
            for (int c = 0; c < level.chunks(); c++) {
                int n = in.read(c);
                for (int r = 0; r < n; r++) {
                    int off = r * rec;
                    if (!sink.record(in.buf[off], CompactStore.key(Hashing.hash(in.buf, off + 1, w)))) {
                        return;
                    }
                }
            }
        }
    }

    /** True if bit {@code x} (a state's id minus its level's base) is set in the level's dead-state bitmap (null: none dead). */
    private static boolean isDead(long[] bitmap, long x) {
        return bitmap != null && (bitmap[(int) (x >>> 6)] & (1L << x)) != 0;
    }

    private static void markDead(long[] bitmap, long x) {
        bitmap[(int) (x >>> 6)] |= 1L << x;
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

    private String identity() {
        List<String> props = new ArrayList<>();
        for (Property p : model.properties()) {
            props.add(p.id());
        }
        return model.name() + " " + model.variant() + " " + model.params() + " " + props + " width " + w + " reductions "
                + options.reductions() + " partial-order " + options.partialOrder() + " max-depth " + options.maxDepth();
    }

    private void retire(Path p) {
        if (checkpointing) {
            retired.add(p);
        } else {
            delete(p);
        }
    }

    private static void delete(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // left for the user to remove: nothing depends on it
        }
    }

    /**
     * Writes a checkpoint: all workers are paused between chunks; {@code cursor} chunks of the
     * current level are expanded, and their successors are in {@link #next}.
     */
    private void checkpoint(int cursor) throws IOException {
        long t0 = System.nanoTime();
        for (Worker wk : pool) {
            wk.links.close();
            if (wk.out != null) {
                wk.out.sync();
            }
        }
        gen++;
        String ramName = "ram-" + gen + ".keys";
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(dir.resolve(ramName)), 1 << 20))) {
            ram.write(out);
        }
        Path tmp = dir.resolve("checkpoint.tmp");
        kcheck.engine.store.FileIo.force(dir.resolve(ramName));
        for (String r : runs) {
            if (synced.add(r)) {
                kcheck.engine.store.FileIo.force(dir.resolve(r));
            }
        }
        for (Path p : cur.paths()) {
            if (synced.add(p.getFileName().toString()) && Files.exists(p)) {
                kcheck.engine.store.FileIo.force(p);
            }
        }
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16))) {
            out.writeLong(MAGIC);
            out.writeInt(VERSION);
            out.writeUTF(identity());
            out.writeInt(gen);
            out.writeInt(depth);
            out.writeLong(states);
            out.writeLong(curLive);
            out.writeLong(totalTransitions());
            out.writeLong(totalAmple());
            out.writeDouble(seconds());
            out.writeLong(startBlock);
            out.writeInt(cursor);
            cur.write(out);
            out.writeLong(curBase);
            out.writeInt(curDead == null ? -1 : curDead.length);
            if (curDead != null) {
                for (long x : curDead) {
                    out.writeLong(x);
                }
            }
            out.writeBoolean(next != null);
            if (next != null) {
                next.write(out);
            }
            dlinks.write(out);
            out.writeInt(runs.size());
            for (int i = 0; i < runs.size(); i++) {
                out.writeUTF(runs.get(i));
                out.writeLong(runKeys.get(i));
            }
            out.writeUTF(ramName);
            out.writeInt(merges);
            out.writeBoolean(graded);
            out.writeLong(levelTransitions);
            out.writeLong(ungradedTransitions);
            out.writeLong(ungradedStates);
            out.writeDouble(gradedOmission);
            checks.write(out);
            out.writeLong(MAGIC);
        }
        kcheck.engine.store.FileIo.force(tmp);
        Files.move(tmp, dir.resolve("checkpoint.bin"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        if (ramFile != null) {
            delete(dir.resolve(ramFile));
        }
        ramFile = ramName;
        for (Path p : retired) {
            delete(p);
        }
        retired.clear();
        pause = false;
        long took = System.nanoTime() - t0;
        lastCheckpointNanos = took;
        long every = options.disk().every().toNanos();
        /* a zero interval (tests) means at every chance; else at least ten times what this one took */
        nextCheckpoint = System.nanoTime() + (every == 0 ? 0 : Math.max(every, 10 * took));
        options.listener().checkpoint(dir, states(), depth, took / 1e9);
    }

    private void resume() throws IOException {
        Path manifest = dir.resolve("checkpoint.bin");
        if (!Files.exists(manifest)) {
            throw new CheckpointException("no checkpoint in " + dir + " (checkpoint.bin is missing)");
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(manifest), 1 << 16))) {
            int version = in.readLong() == MAGIC ? in.readInt() : -1;
            if (version < 2 || version > VERSION) {
                throw new CheckpointException(manifest + " is not a kcheck checkpoint of this version");
            }
            String id = in.readUTF();
            if (!id.equals(identity())) {
                throw new CheckpointException("the checkpoint in " + dir + " is of another search: " + id + "; this one is "
                        + identity());
            }
            gen = in.readInt();
            depth = in.readInt();
            states = in.readLong();
            curLive = in.readLong();
            transitionsBefore = in.readLong();
            ampleBefore = in.readLong();
            secondsBefore = in.readDouble();
            startBlock = in.readLong();
            cursorStart = in.readInt();
            cur = DiskFrontier.read(in, dir, w);
            curBase = in.readLong();
            int words = in.readInt();
            if (words >= 0) {
                curDead = new long[words];
                for (int i = 0; i < words; i++) {
                    curDead[i] = in.readLong();
                }
            }
            if (in.readBoolean()) {
                next = DiskFrontier.read(in, dir, w);
            }
            dlinks.read(in);
            int nr = in.readInt();
            for (int i = 0; i < nr; i++) {
                runs.add(in.readUTF());
                runKeys.add(in.readLong());
            }
            ramFile = in.readUTF();
            merges = in.readInt();
            if (version >= 3 && in.readBoolean()) {
                if (gradedRank < 0) {
                    throw new CheckpointException("the checkpoint in " + dir + " relies on the model's grading, which this search does not");
                }
                relyOnGrading();
            }
            if (version >= 4) {
                levelTransitions = in.readLong();
                ungradedTransitions = in.readLong();
                ungradedStates = in.readLong();
                gradedOmission = in.readDouble();
            } else {
                /* written before the estimate was kept per level: all counted as TLC counts the whole search */
                levelTransitions = transitionsBefore;
                ungradedTransitions = transitionsBefore;
                ungradedStates = states;
            }
            checks.read(in);
            if (in.readLong() != MAGIC) {
                throw new CheckpointException(manifest + " is truncated");
            }
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(dir.resolve(ramFile)), 1 << 20))) {
            ram.read(in);
        }
        Set<Path> keep = new HashSet<>();
        keep.add(manifest);
        keep.add(dir.resolve("links.bin"));
        keep.add(dir.resolve(ramFile));
        keep.addAll(cur.paths());
        if (next != null) {
            keep.addAll(next.paths());
        }
        for (String r : runs) {
            keep.add(dir.resolve(r));
        }
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                String n = p.getFileName().toString();
                boolean ours = n.endsWith(".q") || n.endsWith(".keys") || n.endsWith(".pairs") || n.equals("checkpoint.tmp");
                if (ours && !keep.contains(p)) {
                    delete(p);
                }
            }
        }
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
        for (String r : runs) {
            ours.add(dir.resolve(r));
        }
        ours.add(dir.resolve("links.bin"));
        for (Path p : ours) {
            delete(p);
        }
        if (ownDir) {
            ScratchDirs.release(dir);
        }
    }

}
