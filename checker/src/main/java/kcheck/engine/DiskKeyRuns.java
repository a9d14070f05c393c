package kcheck.engine;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import kcheck.engine.store.CompactStore;
import kcheck.engine.store.KeyRun;
import kcheck.engine.store.PairSorter;

/**
 * The disk search's memory of the states it found before the fingerprint table was last emptied:
 * sorted runs of keys on disk ({@link KeyRun}), and the end-of-level check of a new level against
 * them. A state of the new level is dead if its key is in a run, or repeats an earlier (key, id)
 * of the same level; dead states are marked in the level's bitmap (bit = id minus the level's
 * base), so they are neither counted nor expanded. The survivor of a repeated key is its smallest
 * id. Runs beyond {@link #MAX_RUNS} are merged into one, since each level's check reads every run.
 */
final class DiskKeyRuns {
    /** Runs beyond which they are merged into one (each level's check reads every run). */
    static final int MAX_RUNS = 12;

    private final Path dir;
    private final int w;
    private final int sortPairs;
    /** Where a file that is no longer needed goes (deleted now, or once a checkpoint no longer needs it). */
    private final Consumer<Path> retire;
    private final List<String> runs = new ArrayList<>();
    private final List<Long> runKeys = new ArrayList<>();
    private int merges;
    private PairSorter sorter;

    DiskKeyRuns(Path dir, int w, int sortPairs, Consumer<Path> retire) {
        this.dir = dir;
        this.w = w;
        this.sortPairs = sortPairs;
        this.retire = retire;
    }

    boolean isEmpty() {
        return runs.isEmpty();
    }

    int size() {
        return runs.size();
    }

    /** Keys in all runs. */
    long keys() {
        long k = 0;
        for (long x : runKeys) {
            k += x;
        }
        return k;
    }

    /** Bytes of the runs on disk. */
    long bytes() {
        long b = 0;
        for (String r : runs) {
            try {
                b += Files.size(dir.resolve(r));
            } catch (IOException e) {
                // gone: count nothing
            }
        }
        return b;
    }

    /** The runs' files. */
    List<Path> paths() {
        List<Path> out = new ArrayList<>();
        for (String r : runs) {
            out.add(dir.resolve(r));
        }
        return out;
    }

    /** Forces every run not yet forced to disk ({@code synced} names the ones that were). */
    void force(Set<String> synced) throws IOException {
        for (String r : runs) {
            if (synced.add(r)) {
                kcheck.engine.store.FileIo.force(dir.resolve(r));
            }
        }
    }

    /** The name of the run that will hold a saturated level's surviving keys. */
    String nextLiveRun() {
        return "run-" + (++merges) + "-live.keys";
    }

    /** Writes the table's keys to a new sorted run on disk, one of the runs every later level is checked against. */
    void ramToRun(CompactStore ram) throws IOException {
        String name = "run-" + (++merges) + "-ram.keys";
        try (KeyRun.Writer wr = new KeyRun.Writer(dir.resolve(name))) {
            ram.forEachSorted(wr);
            runKeys.add(wr.count());
        }
        runs.add(name);
    }

    /**
     * Marks dead, in {@code bitmap}, each state of {@code level} whose key is in a run or repeats
     * an earlier (key, id) of the level; writes the survivors' keys as a new run if
     * {@code liveRun} is named (they may be missing from the full RAM table). Returns the number
     * of dead states.
     */
    long antiJoin(DiskFrontier level, long[] bitmap, long base, String liveRun) throws IOException {
        if (sorter == null) {
            sorter = new PairSorter(dir, sortPairs);
        }
        forEachRecord(level, w, (id, key) -> {
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
     * For a graded level whose keys are all in the table {@code ram} (once each): marks dead the
     * states whose key is in a run (found before the search relied on the grading). The table
     * streams its keys in order, in one key range per thread ({@code parts} of them), and each
     * thread looks its range up in every run. Returns the number of dead states.
     */
    long olderKeys(CompactStore ram, int parts, DiskFrontier level, long[] bitmap, long base) throws IOException {
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
        forEachRecord(level, w, (id, key) -> {
            if (old.contains(key)) {
                markDead(bitmap, id - base);
                dead[0]++;
            }
            return true;
        });
        return dead[0];
    }

    /** True if there are more runs than {@link #MAX_RUNS}: {@link #merge} them. */
    boolean tooMany() {
        return runs.size() > MAX_RUNS;
    }

    /** Merges every run into one. */
    void merge() throws IOException {
        List<Path> in = paths();
        String name = "run-" + (++merges) + "-merged.keys";
        long n = KeyRun.Reader.merge(in, dir.resolve(name));
        for (Path p : in) {
            retire.accept(p);
        }
        runs.clear();
        runKeys.clear();
        runs.add(name);
        runKeys.add(n);
    }

    /** Puts the live states of {@code level} back into the emptied table {@code ram} (the next level revisits them most). */
    void reseed(CompactStore ram, DiskFrontier level, long[] dead, long base) throws IOException {
        forEachRecord(level, w, (id, key) -> isDead(dead, id - base) || ram.put(key));
    }

    /** The runs (names and key counts) and the file counter, for a checkpoint's manifest. */
    void write(DataOutputStream out) throws IOException {
        out.writeInt(runs.size());
        for (int i = 0; i < runs.size(); i++) {
            out.writeUTF(runs.get(i));
            out.writeLong(runKeys.get(i));
        }
    }

    /** As written by {@link #write}. */
    void read(DataInputStream in) throws IOException {
        int nr = in.readInt();
        for (int i = 0; i < nr; i++) {
            runs.add(in.readUTF());
            runKeys.add(in.readLong());
        }
    }

    /** The counter that names new runs (kept in the checkpoint so names never repeat). */
    int merges() {
        return merges;
    }

    void merges(int m) {
        merges = m;
    }

    /** Receives a level's records as (id, key); false stops the walk. */
    @FunctionalInterface
    interface RecordSink {
        boolean record(long id, long key) throws IOException;
    }

    /** Walks {@code level}'s records (states of {@code w} longs) in file order, each as its id and its state's key. */
    static void forEachRecord(DiskFrontier level, int w, RecordSink sink) throws IOException {
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
    static boolean isDead(long[] bitmap, long x) {
        return bitmap != null && (bitmap[(int) (x >>> 6)] & (1L << x)) != 0;
    }

    private static void markDead(long[] bitmap, long x) {
        bitmap[(int) (x >>> 6)] |= 1L << x;
    }
}
