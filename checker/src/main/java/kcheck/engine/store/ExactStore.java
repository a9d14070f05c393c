package kcheck.engine.store;

import java.util.concurrent.atomic.AtomicLong;

import kcheck.engine.Hashing;

/**
 * Full packed states. Each shard keeps its states contiguously in chunked {@code long} arrays
 * (so the BFS frontier is a local id range per shard, no separate queue, and a shard rehashes by
 * a sequential scan of its own states) and an open-addressing index of {@code int} entries: the
 * local id + 1 in the low {@code idBits} bits, and above it a tag of hash bits, so most probes
 * compare no state. A shard widens its id field (fewer tag bits) on its own when it fills.
 *
 * <p>Memory: {@code 8 * width} bytes per state for the states, 4 bytes per index slot at load
 * 0.53..0.8 (5 to 7.5 bytes per state).
 */
public final class ExactStore implements StateStore {
    static final int CHUNK_BITS = 12;
    static final int CHUNK = 1 << CHUNK_BITS;

    private final int w;
    private final long maxStates;
    private final MemoryBudget budget;
    private final boolean concurrent;
    private final Shard[] shards = new Shard[Shards.SHARDS];
    /** Counted exactly (one shared counter) only when a state limit below the default is set. */
    private final AtomicLong total = new AtomicLong();
    private final boolean limited;
    private volatile String fullReason = "";

    private final class Shard {
        int[] table = new int[Shards.INITIAL_CAPACITY];
        long[][] chunks = new long[16][];
        int count;
        int idBits = 16;

        long[] chunk(int local) {
            int c = local >>> CHUNK_BITS;
            if (c >= chunks.length) {
                chunks = java.util.Arrays.copyOf(chunks, chunks.length * 2);
            }
            return chunks[c];
        }
    }

    public ExactStore(int width, long maxStates, MemoryBudget budget, boolean concurrent) {
        this.w = width;
        this.maxStates = maxStates;
        this.limited = maxStates < kcheck.engine.Options.DEFAULT_MAX_STATES;
        this.budget = budget;
        this.concurrent = concurrent;
        for (int i = 0; i < shards.length; i++) {
            shards[i] = new Shard();
        }
        budget.reserve((long) Shards.SHARDS * Shards.INITIAL_CAPACITY * 4);
    }

    @Override
    public long add(long[] s, long h) {
        int k = Shards.shard(h);
        Shard sh = shards[k];
        if (concurrent) {
            synchronized (sh) {
                return add(k, sh, s, h);
            }
        }
        return add(k, sh, s, h);
    }

    @Override
    public int touch(long h) {
        int[] t = shards[Shards.shard(h)].table;
        return t[Shards.slot(h, t.length)];
    }

    /** Tag: the hash bits above the id bits, taken from bits 26..57 (clear of the shard and slot bits). */
    private static int tag(long h, int bits) {
        return (int) (h >>> 26) >>> bits;
    }

    private long add(int k, Shard sh, long[] s, long h) {
        int bits = sh.idBits;
        int idMask = (int) ((1L << bits) - 1);
        int tag = tag(h, bits);
        int[] t = sh.table;
        int cap = t.length;
        int i = Shards.slot(h, cap);
        while (true) {
            int e = t[i];
            if (e == 0) {
                break;
            }
            if ((e >>> bits) == tag && equalsAt(sh, (e & idMask) - 1, s)) {
                return PRESENT;
            }
            if (++i == cap) {
                i = 0;
            }
        }
        if (limited && total.get() >= maxStates) {
            fullReason = "state limit";
            return FULL;
        }
        int local = sh.count;
        boolean rebuilt = false;
        if (local + 1 >= (1L << bits) - 1) {
            if (bits >= 31) {
                fullReason = "state limit";
                return FULL;
            }
            rebuilt = true;
        }
        if (sh.count + 1 > cap * Shards.MAX_LOAD) {
            rebuilt = true;
        }
        if (rebuilt && !rebuild(sh)) {
            fullReason = "memory budget";
            return FULL;
        }
        if (!store(sh, local, s)) {
            fullReason = "memory budget";
            return FULL;
        }
        bits = sh.idBits;
        int entry = (local + 1) | (tag(h, bits) << bits);
        if (rebuilt) {
            insert(sh.table, h, entry);
        } else {
            t[i] = entry;
        }
        sh.count = local + 1;
        if (limited) {
            total.incrementAndGet();
        }
        return Shards.id(k, local);
    }

    private static void insert(int[] t, long h, int entry) {
        int cap = t.length;
        int i = Shards.slot(h, cap);
        while (t[i] != 0) {
            if (++i == cap) {
                i = 0;
            }
        }
        t[i] = entry;
    }

    /**
     * Rebuilds a shard's index, larger if it is too full and with two more id bits if its ids
     * outgrow them, by one sequential pass over the shard's own states.
     */
    private boolean rebuild(Shard sh) {
        int cap = sh.table.length;
        if (sh.count + 1 > cap * Shards.MAX_LOAD) {
            cap = Shards.grown(cap);
        }
        int bits = sh.idBits;
        while (sh.count + 2 >= (1L << bits) - 1 && bits < 31) {
            bits = Math.min(31, bits + 2);
        }
        long extra = (long) cap * 4;
        if (!budget.reserve(extra)) {
            return false;
        }
        int[] t;
        try {
            t = new int[cap];
        } catch (OutOfMemoryError e) {
            budget.release(extra);
            return false;
        }
        long[] tmp = new long[w];
        for (int local = 0; local < sh.count; local++) {
            long[] chunk = sh.chunks[local >>> CHUNK_BITS];
            System.arraycopy(chunk, (local & (CHUNK - 1)) * w, tmp, 0, w);
            long h = Hashing.hash(tmp, 0, w);
            insert(t, h, (local + 1) | (tag(h, bits) << bits));
        }
        budget.release((long) sh.table.length * 4);
        sh.table = t;
        sh.idBits = bits;
        return true;
    }

    private boolean store(Shard sh, int local, long[] s) {
        long[] chunk = sh.chunk(local);
        if (chunk == null) {
            long bytes = (long) CHUNK * w * 8;
            if (!budget.reserve(bytes)) {
                return false;
            }
            try {
                chunk = new long[CHUNK * w];
            } catch (OutOfMemoryError e) {
                budget.release(bytes);
                return false;
            }
            sh.chunks[local >>> CHUNK_BITS] = chunk;
        }
        System.arraycopy(s, 0, chunk, (local & (CHUNK - 1)) * w, w);
        return true;
    }

    private boolean equalsAt(Shard sh, int local, long[] s) {
        long[] chunk = sh.chunks[local >>> CHUNK_BITS];
        int off = (local & (CHUNK - 1)) * w;
        for (int k = 0; k < w; k++) {
            if (chunk[off + k] != s[k]) {
                return false;
            }
        }
        return true;
    }

    /** Copies state {@code id} into {@code out}. */
    public void load(long id, long[] out) {
        Shard sh = shards[Shards.shardOf(id)];
        int local = (int) Shards.localOf(id);
        System.arraycopy(sh.chunks[local >>> CHUNK_BITS], (local & (CHUNK - 1)) * w, out, 0, w);
    }

    /** The id of {@code s} (hash {@code h}), or -1 if absent. Not for use during concurrent adds. */
    public long find(long[] s, long h) {
        int k = Shards.shard(h);
        Shard sh = shards[k];
        int bits = sh.idBits;
        int idMask = (int) ((1L << bits) - 1);
        int tag = tag(h, bits);
        int[] t = sh.table;
        int i = Shards.slot(h, t.length);
        while (true) {
            int e = t[i];
            if (e == 0) {
                return -1;
            }
            if ((e >>> bits) == tag && equalsAt(sh, (e & idMask) - 1, s)) {
                return Shards.id(k, (e & idMask) - 1);
            }
            if (++i == t.length) {
                i = 0;
            }
        }
    }

    @Override
    public long size() {
        long n = 0;
        for (Shard sh : shards) {
            n += sh.count;
        }
        return n;
    }

    @Override
    public int shards() {
        return Shards.SHARDS;
    }

    @Override
    public long count(int shard) {
        return shards[shard].count;
    }

    @Override
    public long idBound() {
        long max = 0;
        for (Shard sh : shards) {
            max = Math.max(max, sh.count);
        }
        return max << Shards.SHARD_BITS;
    }

    @Override
    public long bytes() {
        long b = 0;
        for (Shard sh : shards) {
            b += (long) sh.table.length * 4;
            for (long[] c : sh.chunks) {
                b += c == null ? 0 : (long) c.length * 8;
            }
        }
        return b;
    }

    /** Bytes per state the format itself needs at the current load: state words plus index slots. */
    public double bytesPerState() {
        long n = Math.max(1, size());
        long b = 0;
        for (Shard sh : shards) {
            b += (long) sh.table.length * 4;
        }
        return (double) b / n + 8.0 * w;
    }

    @Override
    public boolean exact() {
        return true;
    }

    @Override
    public String fullReason() {
        return fullReason;
    }
}
