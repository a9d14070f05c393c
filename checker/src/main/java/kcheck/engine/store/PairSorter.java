package kcheck.engine.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Sorts (key, id) pairs by key, then id, in a fixed RAM buffer: when the buffer is full its
 * sorted contents go to a temporary file, and {@link #finish} merges the files. The disk search
 * uses it to find, at the end of a level, the new states that were already stored on disk or found
 * twice.
 *
 * <p>The buffer is two halves: while one half is sorted and written by a background thread, the
 * caller fills the other (the disk search reads and hashes the level meanwhile).
 */
public final class PairSorter implements AutoCloseable {
    private final Path dir;
    private long[] keys;
    private long[] ids;
    private long[] spareKeys;
    private long[] spareIds;
    private int n;
    private final List<Path> spills = new ArrayList<>();
    private java.util.concurrent.ExecutorService background;
    private java.util.concurrent.Future<?> pending;

    /** Receives sorted pairs. */
    @FunctionalInterface
    public interface PairSink {
        void pair(long key, long id) throws IOException;
    }

    public PairSorter(Path dir, int capacity) {
        this.dir = dir;
        int half = Math.max(1, capacity / 2);
        this.keys = new long[half];
        this.ids = new long[half];
        this.spareKeys = new long[Math.max(1, capacity - half)];
        this.spareIds = new long[spareKeys.length];
    }

    /** Bytes of RAM a sorter of {@code capacity} pairs takes. */
    public static long bytes(int capacity) {
        return capacity * 16L;
    }

    public void add(long key, long id) throws IOException {
        if (n == keys.length) {
            spill();
        }
        keys[n] = key;
        ids[n] = id;
        n++;
    }

    /** Hands the full half to the background thread (after the previous one is written) and fills the other. */
    private void spill() throws IOException {
        awaitPending();
        Path f = Files.createTempFile(dir, "sort-", ".pairs");
        spills.add(f);
        long[] k = keys;
        long[] v = ids;
        int count = n;
        if (background == null) {
            background = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "kcheck-pair-sorter");
                t.setDaemon(true);
                return t;
            });
        }
        pending = background.submit(() -> {
            write(f, k, v, count);
            return null;
        });
        keys = spareKeys.length >= k.length ? spareKeys : new long[k.length];
        ids = spareIds.length >= v.length ? spareIds : new long[v.length];
        spareKeys = k;
        spareIds = v;
        n = 0;
    }

    private static void write(Path f, long[] keys, long[] ids, int n) throws IOException {
        sort(keys, ids, 0, n - 1);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(BUFFER);
            for (int i = 0; i < n; i++) {
                if (b.remaining() < 16) {
                    drain(ch, b);
                }
                b.putLong(keys[i]).putLong(ids[i]);
            }
            drain(ch, b);
        }
    }

    private static void drain(FileChannel ch, ByteBuffer b) throws IOException {
        b.flip();
        while (b.hasRemaining()) {
            ch.write(b);
        }
        b.clear();
    }

    /** Bytes each spill file is read and written through. */
    private static final int BUFFER = 1 << 20;

    /** A spill file read pair by pair. */
    private static final class Spill implements AutoCloseable {
        private final FileChannel ch;
        private final ByteBuffer b = ByteBuffer.allocate(BUFFER);
        long key;
        long id;

        Spill(Path f) throws IOException {
            ch = FileChannel.open(f, StandardOpenOption.READ);
            b.limit(0);
        }

        /** Reads the next pair into {@link #key} and {@link #id}; false at the end. */
        boolean next() throws IOException {
            if (b.remaining() < 16) {
                b.compact();
                while (b.position() < 16) {
                    if (ch.read(b) < 0) {
                        break;
                    }
                }
                b.flip();
                if (b.remaining() < 16) {
                    return false;
                }
            }
            key = b.getLong();
            id = b.getLong();
            return true;
        }

        @Override
        public void close() throws IOException {
            ch.close();
        }
    }

    /** Waits for the half being written, passing on its failure. */
    private void awaitPending() throws IOException {
        java.util.concurrent.Future<?> p = pending;
        if (p == null) {
            return;
        }
        pending = null;
        try {
            p.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while sorting");
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(c);
        }
    }

    /** Streams every pair added, ordered by key then id. */
    public void finish(PairSink out) throws IOException {
        awaitPending();
        sort(keys, ids, 0, n - 1);
        if (spills.isEmpty()) {
            for (int i = 0; i < n; i++) {
                out.pair(keys[i], ids[i]);
            }
            return;
        }
        List<Spill> ins = new ArrayList<>();
        try {
            for (Path p : spills) {
                ins.add(new Spill(p));
            }
            /* a binary heap of the spills' heads, by (key, id) */
            int[] heap = new int[ins.size()];
            int size = 0;
            for (int src = 0; src < ins.size(); src++) {
                if (ins.get(src).next()) {
                    heap[size++] = src;
                    up(heap, size - 1, ins);
                }
            }
            int mem = 0;
            while (size > 0 || mem < n) {
                Spill h = size > 0 ? ins.get(heap[0]) : null;
                if (h == null || (mem < n && (keys[mem] < h.key || (keys[mem] == h.key && ids[mem] < h.id)))) {
                    out.pair(keys[mem], ids[mem]);
                    mem++;
                    continue;
                }
                out.pair(h.key, h.id);
                if (!h.next()) {
                    heap[0] = heap[--size];
                }
                down(heap, size, ins);
            }
        } finally {
            for (Spill in : ins) {
                in.close();
            }
        }
    }

    private static boolean before(Spill a, Spill b) {
        return a.key < b.key || (a.key == b.key && a.id < b.id);
    }

    private static void up(int[] heap, int i, List<Spill> ins) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(ins.get(heap[i]), ins.get(heap[parent]))) {
                return;
            }
            int t = heap[i];
            heap[i] = heap[parent];
            heap[parent] = t;
            i = parent;
        }
    }

    private static void down(int[] heap, int size, List<Spill> ins) {
        int i = 0;
        while (true) {
            int l = 2 * i + 1;
            if (l >= size) {
                return;
            }
            int c = l + 1 < size && before(ins.get(heap[l + 1]), ins.get(heap[l])) ? l + 1 : l;
            if (!before(ins.get(heap[c]), ins.get(heap[i]))) {
                return;
            }
            int t = heap[i];
            heap[i] = heap[c];
            heap[c] = t;
            i = c;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            awaitPending();
        } catch (IOException | RuntimeException e) {
            // the files go anyway
        }
        if (background != null) {
            background.shutdown();
            background = null;
        }
        for (Path p : spills) {
            Files.deleteIfExists(p);
        }
        spills.clear();
        n = 0;
    }

    /** Sorts keys[lo..hi] ascending by (key, id), moving ids along. */
    static void sort(long[] k, long[] v, int lo, int hi) {
        while (hi - lo > 24) {
            int mid = (lo + hi) >>> 1;
            if (less(k, v, mid, lo)) {
                swap(k, v, mid, lo);
            }
            if (less(k, v, hi, lo)) {
                swap(k, v, hi, lo);
            }
            if (less(k, v, hi, mid)) {
                swap(k, v, hi, mid);
            }
            long pk = k[mid];
            long pv = v[mid];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (k[i] < pk || (k[i] == pk && v[i] < pv)) {
                    i++;
                }
                while (k[j] > pk || (k[j] == pk && v[j] > pv)) {
                    j--;
                }
                if (i <= j) {
                    swap(k, v, i, j);
                    i++;
                    j--;
                }
            }
            if (j - lo < hi - i) {
                sort(k, v, lo, j);
                lo = i;
            } else {
                sort(k, v, i, hi);
                hi = j;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            for (int j = i; j > lo && less(k, v, j, j - 1); j--) {
                swap(k, v, j, j - 1);
            }
        }
    }

    private static boolean less(long[] k, long[] v, int a, int b) {
        return k[a] < k[b] || (k[a] == k[b] && v[a] < v[b]);
    }

    private static void swap(long[] k, long[] v, int a, int b) {
        long t = k[a];
        k[a] = k[b];
        k[b] = t;
        t = v[a];
        v[a] = v[b];
        v[b] = t;
    }
}
