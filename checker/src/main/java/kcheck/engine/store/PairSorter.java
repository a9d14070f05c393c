package kcheck.engine.store;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Sorts (key, id) pairs by key, then id, in a fixed RAM buffer: when the buffer is full its
 * sorted contents go to a temporary file, and {@link #finish} merges the files. The disk search
 * uses it to find, at the end of a level, the new states that were already stored on disk or found
 * twice.
 */
public final class PairSorter implements AutoCloseable {
    private final Path dir;
    private final long[] keys;
    private final long[] ids;
    private int n;
    private final List<Path> spills = new ArrayList<>();

    /** Receives sorted pairs. */
    @FunctionalInterface
    public interface PairSink {
        void pair(long key, long id) throws IOException;
    }

    public PairSorter(Path dir, int capacity) {
        this.dir = dir;
        this.keys = new long[capacity];
        this.ids = new long[capacity];
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

    private void spill() throws IOException {
        sort(keys, ids, 0, n - 1);
        Path f = Files.createTempFile(dir, "sort-", ".pairs");
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(f), 1 << 16))) {
            for (int i = 0; i < n; i++) {
                out.writeLong(keys[i]);
                out.writeLong(ids[i]);
            }
        }
        spills.add(f);
        n = 0;
    }

    /** Streams every pair added, ordered by key then id. */
    public void finish(PairSink out) throws IOException {
        sort(keys, ids, 0, n - 1);
        if (spills.isEmpty()) {
            for (int i = 0; i < n; i++) {
                out.pair(keys[i], ids[i]);
            }
            return;
        }
        List<DataInputStream> ins = new ArrayList<>();
        PriorityQueue<Head> pq = new PriorityQueue<>((a, b) -> a.key != b.key ? Long.compare(a.key, b.key) : Long.compare(a.id, b.id));
        try {
            for (Path p : spills) {
                ins.add(new DataInputStream(new BufferedInputStream(Files.newInputStream(p), 1 << 16)));
            }
            for (int s = 0; s < ins.size(); s++) {
                Head h = next(ins.get(s), s);
                if (h != null) {
                    pq.add(h);
                }
            }
            int mem = 0;
            while (!pq.isEmpty() || mem < n) {
                Head h = pq.peek();
                if (h == null || (mem < n && (keys[mem] < h.key || (keys[mem] == h.key && ids[mem] < h.id)))) {
                    out.pair(keys[mem], ids[mem]);
                    mem++;
                    continue;
                }
                pq.poll();
                out.pair(h.key, h.id);
                Head nx = next(ins.get(h.src), h.src);
                if (nx != null) {
                    pq.add(nx);
                }
            }
        } finally {
            for (DataInputStream in : ins) {
                in.close();
            }
        }
    }

    private record Head(long key, long id, int src) {
    }

    private static Head next(DataInputStream in, int src) throws IOException {
        long k;
        long id;
        try {
            k = in.readLong();
            id = in.readLong();
        } catch (EOFException e) {
            return null;
        }
        return new Head(k, id, src);
    }

    @Override
    public void close() throws IOException {
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
