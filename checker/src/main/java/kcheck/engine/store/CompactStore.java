package kcheck.engine.store;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Compressed fingerprints: each state is remembered by its 64-bit hash, in at most 8 bytes of RAM.
 * The hash's top {@value #TABLE_BITS} bits choose one of {@value #TABLES} small open-addressing
 * tables (quotienting: those bits are not stored), and a slot keeps the other 48 bits in 6 bytes.
 * A table's slot index is computed from the stored bits, so a table can be rebuilt larger without
 * the states. Tables grow by 1.2x at load 0.9, so the load stays in [0.75, 0.9]: 6.7 to 8 bytes
 * per state, plus 32 bytes per table (2 MiB in all) for the tables' own objects. Two states with the same 64-bit hash are
 * taken for one (hash compaction, as in TLC): the probability that a state was omitted is reported
 * ({@link FingerprintStore#omissionProbability}).
 *
 * <p>Two behaviours when the {@link MemoryBudget} refuses a table's growth: {@code FULL} (the
 * search ends INCOMPLETE, as the other stores do), or, with {@code spill}, the state is answered
 * as new without being stored and {@link #saturated()} turns true: the disk search
 * ({@code --store disk}) then checks such states against its disk runs at the end of the level
 * and moves the table's contents to disk ({@link #forEachSorted}, {@link #clear}).
 *
 * <p>Keys: {@link #key} is the 64-bit value this store can tell apart (the hash, with a zero low
 * part replaced by 1, since an all-zero slot is empty). Sorted streams and disk runs hold keys.
 *
 * <p>Concurrency: lookups of present states take no lock (a table is replaced whole, through a
 * volatile field, when it grows; a lookup that finds nothing takes the table's lock and looks
 * again); inserts lock their table only.
 */
public final class CompactStore implements StateStore {
    static final int TABLE_BITS = 16;
    static final int TABLES = 1 << TABLE_BITS;
    static final int SLOT = 6;
    static final long LOW48 = (1L << 48) - 1;
    static final double MAX_LOAD = 0.9;
    private static final int MIN_CAPACITY = 8;

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final MemoryBudget budget;
    private final boolean concurrent;
    private final boolean spill;
    private final long maxStates;
    private final boolean limited;
    private final Table[] tables = new Table[TABLES];
    /** Per-shard counters (ids as the other stores hand them out), 8 longs apart: no false sharing. */
    private final AtomicLongArray counts = new AtomicLongArray(Shards.SHARDS * 8);
    private final java.util.concurrent.atomic.AtomicLong total = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean saturated;
    private volatile String fullReason = "";

    private static final class Table {
        /** capacity * 6 bytes + 2 bytes of padding, so an 8-byte read at the last slot stays inside. */
        volatile byte[] slots;
        int used;
    }

    /**
     * @param spill when the budget refuses a table's growth, answer new states as new without
     *              storing them (and set {@link #saturated()}) instead of {@link #FULL}
     */
    public CompactStore(long maxStates, MemoryBudget budget, boolean concurrent, boolean spill) {
        this.maxStates = maxStates;
        this.limited = maxStates < kcheck.engine.Options.DEFAULT_MAX_STATES;
        this.budget = budget;
        this.concurrent = concurrent;
        this.spill = spill;
        for (int i = 0; i < TABLES; i++) {
            tables[i] = new Table();
        }
        budget.reserve((long) TABLES * 32);
    }

    /** The key of hash {@code h}: what this store keeps of it (the hash, its low 48 bits never all zero). */
    public static long key(long h) {
        return (h & LOW48) == 0 ? h | 1 : h;
    }

    private static int tableOf(long h) {
        return (int) (h >>> (64 - TABLE_BITS));
    }

    /** Slot from the stored bits (bits 16..47), so that a table can be rebuilt from its slots alone. */
    private static int home(long stored, int capacity) {
        return (int) ((((stored >>> 16) & 0xFFFF_FFFFL) * capacity) >>> 32);
    }

    private static long read(byte[] t, int slot) {
        return (long) LONG.get(t, slot * SLOT) & LOW48;
    }

    private static void write(byte[] t, int slot, long stored) {
        int off = slot * SLOT;
        long old = (long) LONG.get(t, off);
        LONG.set(t, off, (old & ~LOW48) | stored);
    }

    private static int capacity(byte[] t) {
        return (t.length - 2) / SLOT;
    }

    /** True if adds from several threads are safe (a lock per table; see {@code concurrentInsertsStoreEachStateExactlyOnce}). */
    public boolean concurrent() {
        return concurrent;
    }

    @Override
    public long add(long[] s, long h) {
        long k = key(h);
        Table t = tables[tableOf(k)];
        long stored = k & LOW48;
        int r;
        if (concurrent) {
            if (present(t, stored)) {
                return PRESENT;
            }
            synchronized (t) {
                r = insert(t, stored, true);
            }
        } else {
            r = insert(t, stored, true);
        }
        switch (r) {
            case IN:
                return PRESENT;
            case ADDED:
                return newId(k);
            case NO_ROOM:
                if (spill) {
                    saturated = true;
                    return newId(k);
                }
                fullReason = "memory budget";
                return FULL;
            default:
                fullReason = "state limit";
                return FULL;
        }
    }

    /** Lock-free lookup: true if certainly present. */
    private static boolean present(Table t, long stored) {
        byte[] a = t.slots;
        if (a == null) {
            return false;
        }
        int cap = capacity(a);
        int i = home(stored, cap);
        while (true) {
            long e = read(a, i);
            if (e == 0) {
                return false;
            }
            if (e == stored) {
                return true;
            }
            if (++i == cap) {
                i = 0;
            }
        }
    }

    /** True if the state with hash {@code h} is stored (not for use during concurrent adds). */
    public boolean contains(long h) {
        long k = key(h);
        return present(tables[tableOf(k)], k & LOW48);
    }

    private static final int IN = 0;
    private static final int ADDED = 1;
    private static final int NO_ROOM = 2;
    private static final int LIMIT = 3;

    /** Inserts under the table's lock (or single-threaded): IN, ADDED, NO_ROOM or LIMIT. */
    private int insert(Table t, long stored, boolean count) {
        byte[] a = t.slots;
        int i = -1;
        if (a != null) {
            int cap = capacity(a);
            i = home(stored, cap);
            while (true) {
                long e = read(a, i);
                if (e == 0) {
                    break;
                }
                if (e == stored) {
                    return IN;
                }
                if (++i == cap) {
                    i = 0;
                }
            }
        }
        if (count && limited && total.get() >= maxStates) {
            return LIMIT;
        }
        if (a == null || t.used + 1 > capacity(a) * MAX_LOAD) {
            if (!grow(t)) {
                return NO_ROOM;
            }
            place(t.slots, stored);
        } else {
            write(a, i, stored);
        }
        t.used++;
        return ADDED;
    }

    private long newId(long k) {
        if (limited) {
            total.incrementAndGet();
        }
        int shard = Shards.shard(k);
        return Shards.id(shard, counts.getAndIncrement(shard * 8));
    }

    private static void place(byte[] a, long stored) {
        int cap = capacity(a);
        int i = home(stored, cap);
        while (read(a, i) != 0) {
            if (++i == cap) {
                i = 0;
            }
        }
        write(a, i, stored);
    }

    private boolean grow(Table t) {
        byte[] old = t.slots;
        int cap = old == null ? MIN_CAPACITY : capacity(old);
        int next = old == null ? MIN_CAPACITY : (int) Math.min(Integer.MAX_VALUE / SLOT - 2, Math.max(cap + 1, cap * 6L / 5));
        return resize(t, next);
    }

    /** Gives table {@code t} {@code cap} slots, its keys rehashed into them; false if the budget or the heap refuses. */
    private boolean resize(Table t, int cap) {
        long bytes = (long) cap * SLOT + 2;
        if (!budget.reserve(bytes)) {
            return false;
        }
        byte[] a;
        try {
            a = new byte[(int) bytes];
        } catch (OutOfMemoryError e) {
            budget.release(bytes);
            return false;
        }
        byte[] old = t.slots;
        if (old != null) {
            rehash(old, a);
            budget.release(old.length);
        }
        t.slots = a;
        return true;
    }

    /** Places every key of table {@code from} into the larger empty table {@code to}. */
    private static void rehash(byte[] from, byte[] to) {
        for (int i = 0, cap = capacity(from); i < cap; i++) {
            long e = read(from, i);
            if (e != 0) {
                place(to, e);
            }
        }
    }

    /** True once a state was answered as new without being stored (spill mode, budget reached). */
    public boolean saturated() {
        return saturated;
    }

    /** States stored in RAM now. */
    public long stored() {
        long n = 0;
        for (Table t : tables) {
            n += t.used;
        }
        return n;
    }

    /**
     * Calls {@code out} with every stored key in ascending (signed) order: the tables in the order
     * of their top bits as signed values, each table's keys sorted. Not during concurrent adds.
     */
    public void forEachSorted(KeySink out) throws IOException {
        forEachSorted(0, 1, out);
    }

    /**
     * Streams part {@code part} of {@code parts} of the stored keys, ascending: the parts split the
     * key range in order, so that several threads may each stream one at the same time (nothing
     * may be stored meanwhile).
     */
    public void forEachSorted(int part, int parts, KeySink out) throws IOException {
        long[] buf = new long[64];
        int from = (int) ((long) TABLES * part / parts);
        int to = (int) ((long) TABLES * (part + 1) / parts);
        for (int j = from; j < to; j++) {
            int ti = j ^ (TABLES >>> 1);
            byte[] a = tables[ti].slots;
            if (a == null) {
                continue;
            }
            int cap = capacity(a);
            int n = 0;
            if (buf.length < tables[ti].used) {
                buf = new long[Math.max(tables[ti].used, buf.length * 2)];
            }
            long top = (long) ti << 48;
            for (int i = 0; i < cap; i++) {
                long e = read(a, i);
                if (e != 0) {
                    buf[n++] = top | e;
                }
            }
            Arrays.sort(buf, 0, n);
            for (int i = 0; i < n; i++) {
                out.key(buf[i]);
            }
        }
    }

    /** Receives keys. */
    @FunctionalInterface
    public interface KeySink {
        void key(long k) throws IOException;
    }

    /** Forgets every stored key (the tables keep their memory) and clears {@link #saturated()}. */
    public void clear() {
        for (Table t : tables) {
            if (t.slots != null) {
                Arrays.fill(t.slots, (byte) 0);
                t.used = 0;
            }
        }
        saturated = false;
    }

    /** Stores key {@code k} if there is room (re-seeding after {@link #clear}); false if the budget refuses. */
    public boolean put(long k) {
        return insert(tables[tableOf(k)], k & LOW48, false) != NO_ROOM;
    }

    /** Writes the stored keys (a checkpoint). */
    public void write(DataOutputStream out) throws IOException {
        out.writeLong(stored());
        forEachSorted(out::writeLong);
        for (int s = 0; s < Shards.SHARDS; s++) {
            out.writeLong(counts.get(s * 8));
        }
        out.writeBoolean(saturated);
    }

    /**
     * Reads what {@link #write} wrote into this (empty) store. The keys come table by table
     * ({@link #forEachSorted}), so each table is built once at its final size (load 0.8) instead
     * of growing 1.2x at a time from empty: on a 6.5 GB table the growing took over an hour.
     */
    public void read(DataInputStream in) throws IOException {
        long n = in.readLong();
        long[] buf = new long[1024];
        int m = 0;
        int table = -1;
        for (long i = 0; i < n; i++) {
            long k = in.readLong();
            int ti = tableOf(k);
            if (ti != table && m > 0) {
                fill(tables[table], buf, m);
                m = 0;
            }
            table = ti;
            if (m == buf.length) {
                buf = Arrays.copyOf(buf, m * 2);
            }
            buf[m++] = k & LOW48;
        }
        if (m > 0) {
            fill(tables[table], buf, m);
        }
        for (int s = 0; s < Shards.SHARDS; s++) {
            counts.set(s * 8, in.readLong());
        }
        saturated = in.readBoolean();
    }

    /** Builds table {@code t} (empty, or merged into when the keys of one table come twice) from {@code n} stored keys. */
    private void fill(Table t, long[] keys, int n) throws IOException {
        int used = t.used + n;
        int cap = Math.max(MIN_CAPACITY, (int) Math.min(Integer.MAX_VALUE / SLOT - 2, (long) Math.ceil(used / 0.8)));
        if (!resize(t, cap)) {
            throw new IOException("the memory budget is smaller than the checkpoint's state table");
        }
        for (int i = 0; i < n; i++) {
            place(t.slots, keys[i]);
        }
        t.used = used;
    }

    @Override
    public int touch(long h) {
        byte[] a = tables[tableOf(h)].slots;
        return a == null ? 0 : a[home(h & LOW48, capacity(a)) * SLOT];
    }

    @Override
    public int shards() {
        return Shards.SHARDS;
    }

    @Override
    public long count(int shard) {
        return counts.get(shard * 8);
    }

    @Override
    public long bytes() {
        long b = (long) TABLES * 32;
        for (Table t : tables) {
            byte[] a = t.slots;
            b += a == null ? 0 : a.length;
        }
        return b;
    }

    @Override
    public boolean exact() {
        return false;
    }

    @Override
    public String fullReason() {
        return fullReason;
    }
}
