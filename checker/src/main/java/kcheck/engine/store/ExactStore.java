package kcheck.engine.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 *
 * <p>Concurrency: inserts take the shard's lock; lookups of states already present (most of a
 * search's lookups) do not. A writer stores the state words, then publishes the index entry
 * with a release store; a reader loads entries with acquire, so an entry it sees always points
 * at complete state words. A rebuilt index is published whole, with its id width, as an
 * immutable {@link View}. A lookup that finds nothing falls back to the locked path.
 */
public final class ExactStore implements StateStore {
    /** States per chunk: at most 2^12, fewer for wide states, so that a chunk stays within 256 KiB. */
    private static final int MAX_CHUNK_BITS = 12;
    private static final int CHUNK_BYTES_BITS = 18;

    private final int w;
    /** A shard allocates its state words a chunk of {@code 2^chunkBits} states at a time. */
    private final int chunkBits;
    private final int chunkStates;
    private final long maxStates;
    private final MemoryBudget budget;
    private final boolean concurrent;
    private final Shard[] shards = new Shard[Shards.SHARDS];
    /** Counted exactly (one shared counter) only when a state limit below the default is set. */
    private final AtomicLong total = new AtomicLong();
    private final boolean limited;
    private volatile String fullReason = "";

    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

    /** A shard's index and the id width its entries use, published together. */
    private record View(int[] table, int idBits) {
    }

    private final class Shard {
        volatile View view = new View(new int[Shards.INITIAL_CAPACITY], 16);
        /** Sized once for the state limit: never replaced, so readers can index it without the lock. */
        final long[][] chunks;
        int count;

        Shard(int chunkSlots) {
            chunks = new long[chunkSlots][];
        }
    }

    public ExactStore(int width, long maxStates, MemoryBudget budget, boolean concurrent) {
        this.w = width;
        this.maxStates = maxStates;
        this.limited = maxStates < kcheck.engine.Options.DEFAULT_MAX_STATES;
        this.budget = budget;
        this.concurrent = concurrent;
        this.chunkBits = chunkBits(width);
        this.chunkStates = 1 << chunkBits;
        /* no more states than the state limit, nor than the budget could hold */
        long fit = budget.limit() / (8L * width);
        long perShard = Math.min(Math.min(maxStates, fit), 1L << 37) / Shards.SHARDS * 5 / 4 + chunkStates;
        int chunkSlots = (int) Math.min(1 << 20, (perShard >>> chunkBits) + 2);
        for (int i = 0; i < shards.length; i++) {
            shards[i] = new Shard(chunkSlots);
        }
        budget.reserve((long) Shards.SHARDS * Shards.INITIAL_CAPACITY * 4);
    }

    /**
     * 2^12 states a chunk, or fewer if a chunk of them would pass 256 KiB (64 shards: 16 MiB): every
     * shard allocates a whole chunk for its first state, so chunks of 4,096 states of 17 KB would
     * take 4.6 GB of the budget before the 64th state was stored.
     */
    private static int chunkBits(int width) {
        int stateBits = 64 - Long.numberOfLeadingZeros(8L * width - 1);
        return Math.max(0, Math.min(MAX_CHUNK_BITS, CHUNK_BYTES_BITS - stateBits));
    }

    @Override
    public long add(long[] s, long h) {
        long r = addOrFind(s, h);
        return r <= PRESENT_ID_BASE ? PRESENT : r;
    }

    /** What {@link #addOrFind} returns for a state present with id 0; id i is this less i. */
    public static final long PRESENT_ID_BASE = -3;

    /** The id of the state {@link #addOrFind} found present: {@code r <= }{@link #PRESENT_ID_BASE}. */
    public static long presentId(long r) {
        return PRESENT_ID_BASE - r;
    }

    /**
     * As {@link #add}, but a state already present is answered with its id: {@code PRESENT_ID_BASE - id}
     * (see {@link #presentId}); a new state's id, or {@link #FULL}, as {@link #add}.
     */
    public long addOrFind(long[] s, long h) {
        int k = Shards.shard(h);
        Shard sh = shards[k];
        if (concurrent) {
            int local = present(sh, s, h);
            if (local >= 0) {
                return PRESENT_ID_BASE - Shards.id(k, local);
            }
            synchronized (sh) {
                return add(k, sh, s, h);
            }
        }
        return add(k, sh, s, h);
    }

    /** The lock-free lookup: the local index of {@code s} if it is certainly present (-1: take the lock and look again). */
    private int present(Shard sh, long[] s, long h) {
        View v = sh.view;
        int bits = v.idBits();
        int idMask = (int) ((1L << bits) - 1);
        int tag = tag(h, bits);
        int[] t = v.table();
        int cap = t.length;
        int i = Shards.slot(h, cap);
        while (true) {
            int e = (int) INTS.getAcquire(t, i);
            if (e == 0) {
                return -1;
            }
            if ((e >>> bits) == tag && equalsAt(sh, (e & idMask) - 1, s)) {
                return (e & idMask) - 1;
            }
            if (++i == cap) {
                i = 0;
            }
        }
    }

    @Override
    public int touch(long h) {
        int[] t = shards[Shards.shard(h)].view.table();
        return t[Shards.slot(h, t.length)];
    }

    /** Tag: the hash bits above the id bits, taken from bits 26..57 (clear of the shard and slot bits). */
    private static int tag(long h, int bits) {
        return (int) (h >>> 26) >>> bits;
    }

    /** Adds under the shard's lock (or on one thread): the new id, {@code PRESENT_ID_BASE - id} if present, or {@link #FULL}. */
    private long add(int k, Shard sh, long[] s, long h) {
        View v = sh.view;
        int bits = v.idBits();
        int idMask = (int) ((1L << bits) - 1);
        int tag = tag(h, bits);
        int[] t = v.table();
        int cap = t.length;
        int i = Shards.slot(h, cap);
        while (true) {
            int e = t[i];
            if (e == 0) {
                break;
            }
            if ((e >>> bits) == tag && equalsAt(sh, (e & idMask) - 1, s)) {
                return PRESENT_ID_BASE - Shards.id(k, (e & idMask) - 1);
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
        v = sh.view;
        bits = v.idBits();
        int entry = (local + 1) | (tag(h, bits) << bits);
        if (rebuilt) {
            insertRelease(v.table(), h, entry);
        } else {
            INTS.setRelease(t, i, entry);
        }
        sh.count = local + 1;
        if (limited) {
            total.incrementAndGet();
        }
        return Shards.id(k, local);
    }

    private static void insertRelease(int[] t, long h, int entry) {
        int cap = t.length;
        int i = Shards.slot(h, cap);
        while (t[i] != 0) {
            if (++i == cap) {
                i = 0;
            }
        }
        INTS.setRelease(t, i, entry);
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
        View old = sh.view;
        int cap = old.table().length;
        if (sh.count + 1 > cap * Shards.MAX_LOAD) {
            cap = Shards.grown(cap);
        }
        int bits = old.idBits();
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
            long[] chunk = sh.chunks[local >>> chunkBits];
            System.arraycopy(chunk, (local & (chunkStates - 1)) * w, tmp, 0, w);
            long h = Hashing.hash(tmp, 0, w);
            insert(t, h, (local + 1) | (tag(h, bits) << bits));
        }
        budget.release((long) old.table().length * 4);
        sh.view = new View(t, bits);
        return true;
    }

    private boolean store(Shard sh, int local, long[] s) {
        if ((local >>> chunkBits) >= sh.chunks.length) {
            return false;
        }
        long[] chunk = sh.chunks[local >>> chunkBits];
        if (chunk == null) {
            long bytes = (long) chunkStates * w * 8;
            if (!budget.reserve(bytes)) {
                return false;
            }
            try {
                chunk = new long[chunkStates * w];
            } catch (OutOfMemoryError e) {
                budget.release(bytes);
                return false;
            }
            sh.chunks[local >>> chunkBits] = chunk;
        }
        System.arraycopy(s, 0, chunk, (local & (chunkStates - 1)) * w, w);
        return true;
    }

    private boolean equalsAt(Shard sh, int local, long[] s) {
        long[] chunk = sh.chunks[local >>> chunkBits];
        int off = (local & (chunkStates - 1)) * w;
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
        System.arraycopy(sh.chunks[local >>> chunkBits], (local & (chunkStates - 1)) * w, out, 0, w);
    }

    /** The id of {@code s} (hash {@code h}), or -1 if absent. Not for use during concurrent adds. */
    public long find(long[] s, long h) {
        int k = Shards.shard(h);
        Shard sh = shards[k];
        View v = sh.view;
        int bits = v.idBits();
        int idMask = (int) ((1L << bits) - 1);
        int tag = tag(h, bits);
        int[] t = v.table();
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
    public int shards() {
        return Shards.SHARDS;
    }

    @Override
    public long count(int shard) {
        return shards[shard].count;
    }

    @Override
    public long bytes() {
        long b = 0;
        for (Shard sh : shards) {
            b += (long) sh.view.table().length * 4;
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
            b += (long) sh.view.table().length * 4;
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
