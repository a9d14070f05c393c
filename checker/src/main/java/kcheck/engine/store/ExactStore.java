package kcheck.engine.store;

/**
 * Full packed states. States live in chunked {@code long} arrays indexed by id (so the BFS
 * frontier is an id range, no separate queue); a sharded open-addressing index of {@code int}
 * entries maps hashes to ids. An entry holds {@code id + 1} in its low {@code idBits} bits and
 * the rest is a tag of hash bits, so most probes compare no state. When ids outgrow
 * {@code idBits} the index is rebuilt with fewer tag bits.
 *
 * <p>Memory: {@code 8 * width} bytes per state for the states, 4 bytes per index slot at load
 * 0.53..0.8 (5 to 7.5 bytes per state).
 */
public final class ExactStore implements StateStore {
    static final int CHUNK_BITS = 14;
    static final int CHUNK = 1 << CHUNK_BITS;

    private final int w;
    private final long maxStates;
    private final MemoryBudget budget;
    private final boolean concurrent;
    private final long[][] chunks;
    private final Shard[] shards = new Shard[Shards.SHARDS];
    private volatile int idBits = 20;

    private static final class Shard {
        int[] table = new int[Shards.INITIAL_CAPACITY];
        int used;
    }

    /** {@code ids} must be the allocator whose blocks are passed to {@link #add}. */
    public ExactStore(int width, long maxStates, MemoryBudget budget, boolean concurrent, Ids ids) {
        this.w = width;
        this.maxStates = Math.min(maxStates, (1L << 31) - 2);
        ids.listener(this::reserving);
        this.budget = budget;
        this.concurrent = concurrent;
        this.chunks = new long[(int) ((this.maxStates + CHUNK) >>> CHUNK_BITS) + 1][];
        for (int i = 0; i < shards.length; i++) {
            shards[i] = new Shard();
        }
        budget.reserve((long) Shards.SHARDS * Shards.INITIAL_CAPACITY * 4);
    }

    @Override
    public long add(long[] s, long h, Ids.Block ids) {
        Shard sh = shards[Shards.shard(h)];
        if (concurrent) {
            synchronized (sh) {
                return add(sh, s, h, ids);
            }
        }
        return add(sh, s, h, ids);
    }

    @Override
    public int touch(long h) {
        int[] t = shards[Shards.shard(h)].table;
        return t[Shards.slot(h, t.length)];
    }

    private long add(Shard sh, long[] s, long h, Ids.Block ids) {
        int bits = idBits;
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
            if ((e >>> bits) == tag && equalsAt((e & idMask) - 1, s)) {
                return PRESENT;
            }
            if (++i == cap) {
                i = 0;
            }
        }
        if (sh.used + 1 > cap * Shards.MAX_LOAD && !grow(sh)) {
            return FULL;
        }
        long id = ids.take();
        if (!store(id, s)) {
            return FULL;
        }
        int entry = (int) (id + 1) | (tag << bits);
        if (sh.table != t) {
            insert(sh.table, h, entry, bits);
        } else {
            t[i] = entry;
        }
        sh.used++;
        return id;
    }

    /** Called before ids below {@code upTo} are handed out: widens the id field when needed. */
    private void reserving(long upTo) {
        if (upTo >= (1L << idBits) - (1L << (idBits - 4))) {
            widenIds(upTo);
        }
    }

    /** Tag: the hash bits above the id bits, taken from bits 26..57 (clear of the shard and slot bits). */
    private static int tag(long h, int bits) {
        return (int) (h >>> 26) >>> bits;
    }

    private static void insert(int[] t, long h, int entry, int bits) {
        int cap = t.length;
        int i = Shards.slot(h, cap);
        while (t[i] != 0) {
            if (++i == cap) {
                i = 0;
            }
        }
        t[i] = entry;
    }

    private boolean grow(Shard sh) {
        int cap = Shards.grown(sh.table.length);
        if (!budget.reserve((long) cap * 4)) {
            return false;
        }
        int[] old = sh.table;
        int[] t;
        try {
            t = new int[cap];
        } catch (OutOfMemoryError e) {
            budget.release((long) cap * 4);
            return false;
        }
        rehash(old, t, idBits, idBits);
        sh.table = t;
        budget.release((long) old.length * 4);
        return true;
    }

    /** Moves every entry of {@code from} (ids of {@code oldBits}) into {@code to} (ids of {@code newBits}). */
    private void rehash(int[] from, int[] to, int oldBits, int newBits) {
        int oldMask = (int) ((1L << oldBits) - 1);
        long[] tmp = new long[w];
        for (int e : from) {
            if (e == 0) {
                continue;
            }
            long id = (e & oldMask) - 1;
            load(id, tmp);
            long h = kcheck.engine.Hashing.hash(tmp, 0, w);
            int tag = tag(h, newBits);
            insert(to, h, (int) (id + 1) | (tag << newBits), newBits);
        }
    }

    /** Rebuilds every shard with enough id bits for {@code upTo} (fewer tag bits), under all shard locks. */
    private void widenIds(long upTo) {
        lockAll(0, upTo);
    }

    private void lockAll(int k, long upTo) {
        if (k < shards.length && concurrent) {
            synchronized (shards[k]) {
                lockAll(k + 1, upTo);
            }
            return;
        }
        int bits = idBits;
        int nb = bits;
        while (nb < 31 && upTo >= (1L << nb) - (1L << (nb - 4))) {
            nb += 2;
        }
        nb = Math.min(31, nb);
        if (nb == bits) {
            return;
        }
        for (Shard sh : shards) {
            int[] t = new int[sh.table.length];
            rehash(sh.table, t, bits, nb);
            sh.table = t;
        }
        idBits = nb;
    }

    private boolean store(long id, long[] s) {
        int c = (int) (id >>> CHUNK_BITS);
        long[] chunk = chunks[c];
        if (chunk == null) {
            chunk = allocateChunk(c);
            if (chunk == null) {
                return false;
            }
        }
        System.arraycopy(s, 0, chunk, (int) (id & (CHUNK - 1)) * w, w);
        return true;
    }

    private synchronized long[] allocateChunk(int c) {
        if (chunks[c] != null) {
            return chunks[c];
        }
        long bytes = (long) CHUNK * w * 8;
        if (!budget.reserve(bytes)) {
            return null;
        }
        try {
            chunks[c] = new long[CHUNK * w];
        } catch (OutOfMemoryError e) {
            budget.release(bytes);
            return null;
        }
        return chunks[c];
    }

    private boolean equalsAt(long id, long[] s) {
        long[] chunk = chunks[(int) (id >>> CHUNK_BITS)];
        int off = (int) (id & (CHUNK - 1)) * w;
        for (int k = 0; k < w; k++) {
            if (chunk[off + k] != s[k]) {
                return false;
            }
        }
        return true;
    }

    /** Copies state {@code id} into {@code out}. */
    public void load(long id, long[] out) {
        System.arraycopy(chunks[(int) (id >>> CHUNK_BITS)], (int) (id & (CHUNK - 1)) * w, out, 0, w);
    }

    /** The id of {@code s} (hash {@code h}), or -1 if absent. Not for use during concurrent adds. */
    public long find(long[] s, long h) {
        int bits = idBits;
        int idMask = (int) ((1L << bits) - 1);
        int tag = tag(h, bits);
        int[] t = shards[Shards.shard(h)].table;
        int i = Shards.slot(h, t.length);
        while (true) {
            int e = t[i];
            if (e == 0) {
                return -1;
            }
            if ((e >>> bits) == tag && equalsAt((e & idMask) - 1, s)) {
                return (e & idMask) - 1;
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
            n += sh.used;
        }
        return n;
    }

    @Override
    public long bytes() {
        long b = 0;
        for (Shard sh : shards) {
            b += (long) sh.table.length * 4;
        }
        long c = 0;
        for (long[] chunk : chunks) {
            c += chunk == null ? 0 : 1;
        }
        return b + c * CHUNK * w * 8L;
    }

    /** Bytes per state the format itself needs at the current load (state words plus index slots), slack of the last chunk excluded. */
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

}
