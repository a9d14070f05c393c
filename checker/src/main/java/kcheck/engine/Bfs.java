package kcheck.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import kcheck.engine.store.ExactStore;
import kcheck.engine.store.StateStore;

/**
 * Level-synchronous breadth-first search, on one or several workers. Level {@code d+1} is
 * complete before any of its states is expanded, so the first violation found is a shortest one
 * and the distinct-state count, depth and shortest trace lengths do not depend on the number of
 * workers.
 *
 * <p>Exact mode needs no queue: ids are handed out in discovery order, so a level is an id range
 * of the store. Fingerprint mode keeps the frontier ({@link Frontier}).
 */
final class Bfs extends Search {
    private static final int BLOCK = 256;

    private final int workers;
    private final Worker[] pool;
    private final ExactStore exact;
    private long nextReport = System.nanoTime() + 1_000_000_000L;

    Bfs(kcheck.model.Model model, Options options) {
        this(model, options, Deadline.start(options));
    }

    Bfs(kcheck.model.Model model, Options options, Deadline deadline) {
        super(model, options, options.store() == StoreMode.EXACT || hasProgress(model), deadline);
        this.workers = Math.max(1, options.workers());
        this.exact = store instanceof ExactStore e ? e : null;
        this.pool = new Worker[workers];
        /* the cycle analysis takes its graphs from what the workers record (a search that ends early never analyses) */
        if (exact != null && EdgeLog.applies(checks) && options.maxDepth() == Integer.MAX_VALUE && EdgeLog.enabled) {
            edgeLogs = new EdgeLog.Set(checks.progress, budget);
        }
        for (int i = 0; i < workers; i++) {
            pool[i] = new Worker(this);
            if (edgeLogs != null) {
                pool[i].edgeLog = edgeLogs.part();
            }
        }
    }

    private static boolean hasProgress(kcheck.model.Model m) {
        return m.properties().stream().anyMatch(p -> p instanceof kcheck.model.Progress);
    }

    private final class Worker extends Expander {
        Frontier next;

        Worker(Search s) {
            super(s);
        }

        @Override
        void discovered(long id, long[] s) {
            if (next != null && !next.add(id, s)) {
                limit("memory budget");
            }
        }
    }

    @Override
    RunResult run() {
        List<Frontier> level = new ArrayList<>();
        Frontier first = exact == null ? new Frontier(w, budget) : null;
        for (int i = 0; i < initial.size(); i++) {
            long[] s = initial.get(i).clone();
            canonical(s);
            long id = addInitial(s, i);
            if (id >= 0 && first != null) {
                first.add(id, s);
            }
        }
        if (first != null) {
            level.add(first);
        }
        int shards = store.shards();
        long[] lo = new long[shards];
        long[] hi = counts();
        ExecutorService threads = workers > 1 ? Executors.newFixedThreadPool(workers - 1, r -> {
            Thread t = new Thread(r, "kcheck-bfs");
            t.setDaemon(true);
            return t;
        }) : null;
        boolean exhausted = false;
        try {
            while (!stopped && !checks.done()) {
                if (depth >= options.maxDepth()) {
                    limit("depth bound " + options.maxDepth());
                    break;
                }
                long levelSize = exact != null ? span(lo, hi) : level.stream().mapToLong(Frontier::size).sum();
                if (levelSize == 0) {
                    exhausted = true;
                    break;
                }
                long next;
                if (exact != null) {
                    expandRanges(lo, hi, threads);
                    lo = hi;
                    hi = counts();
                    next = span(lo, hi);
                } else {
                    level = expandFrontiers(level, threads);
                    next = level.stream().mapToLong(Frontier::size).sum();
                }
                if (next > 0 && !stopped && !checks.done()) {
                    depth++;
                }
            }
        } finally {
            if (threads != null) {
                threads.shutdownNow();
            }
        }
        for (Worker wk : pool) {
            transitions += wk.transitions;
            ampleStates += wk.reduced;
        }
        return result(exhausted && !stopped);
    }

    private long[] counts() {
        long[] c = new long[store.shards()];
        for (int k = 0; k < c.length; k++) {
            c[k] = store.count(k);
        }
        return c;
    }

    private static long span(long[] lo, long[] hi) {
        long n = 0;
        for (int k = 0; k < lo.length; k++) {
            n += hi[k] - lo[k];
        }
        return n;
    }

    /** Expands the level: in each shard the local ids {@code [lo, hi)}, in blocks shared by the workers. */
    private void expandRanges(long[] lo, long[] hi, ExecutorService threads) {
        List<long[]> blocks = new ArrayList<>();
        for (int k = 0; k < lo.length; k++) {
            for (long b = lo[k]; b < hi[k]; b += BLOCK) {
                blocks.add(new long[] {k, b, Math.min(hi[k], b + BLOCK)});
            }
        }
        long total = span(lo, hi);
        AtomicLong cursor = new AtomicLong();
        runWorkers(threads, wk -> {
            while (!stopped && !checks.done()) {
                int b = (int) cursor.getAndIncrement();
                if (b >= blocks.size()) {
                    return;
                }
                long[] blk = blocks.get(b);
                int shard = (int) blk[0];
                for (long local = blk[1]; local < blk[2]; local++) {
                    long id = StateStore.id(shard, local);
                    exact.load(id, wk.cur);
                    wk.expand(id, depth);
                }
                housekeeping(wk, total - (long) b * BLOCK);
            }
        });
    }

    private List<Frontier> expandFrontiers(List<Frontier> level, ExecutorService threads) {
        List<long[]> blocks = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        for (Frontier f : level) {
            for (int k = 0; k < f.chunks.size(); k++) {
                blocks.add(f.chunks.get(k));
                counts.add(f.records(k));
            }
        }
        List<Frontier> nextLevel = new ArrayList<>();
        for (Worker wk : pool) {
            wk.next = new Frontier(w, budget);
            nextLevel.add(wk.next);
        }
        AtomicLong cursor = new AtomicLong();
        int rec = w + 1;
        runWorkers(threads, wk -> {
            while (!stopped && !checks.done()) {
                int b = (int) cursor.getAndIncrement();
                if (b >= blocks.size()) {
                    return;
                }
                long[] chunk = blocks.get(b);
                int n = counts.get(b);
                for (int r = 0; r < n; r++) {
                    System.arraycopy(chunk, r * rec + 1, wk.cur, 0, w);
                    wk.expand(chunk[r * rec], depth);
                }
                housekeeping(wk, (long) (blocks.size() - b) * Frontier.RECORDS_PER_CHUNK);
            }
        });
        for (Frontier f : level) {
            f.release();
        }
        return nextLevel;
    }

    private void housekeeping(Worker wk, long queued) {
        if (timeUp()) {
            return;
        }
        if (wk == pool[0]) {
            long now = System.nanoTime();
            if (now > nextReport) {
                nextReport = now + 1_000_000_000L;
                long t = 0;
                for (Worker x : pool) {
                    t += x.transitions;
                }
                transitions = t;
                report(queued);
                transitions = 0;
            }
        }
    }

    private interface Job {
        void run(Worker wk);
    }

    /** Runs one worker's share; if it fails, the other workers stop at their next block instead of finishing the level. */
    private void failFast(Job job, Worker wk) {
        try {
            job.run(wk);
        } catch (OutOfMemoryError e) {
            limit("memory budget");
            throw e;
        } catch (RuntimeException | Error e) {
            stopped = true;
            throw e;
        }
    }

    private void runWorkers(ExecutorService threads, Job job) {
        if (threads == null) {
            job.run(pool[0]);
            return;
        }
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 1; i < workers; i++) {
            Worker wk = pool[i];
            futures.add(threads.submit(() -> failFast(job, wk)));
        }
        failFast(job, pool[0]);
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
}
