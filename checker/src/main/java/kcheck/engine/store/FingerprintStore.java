package kcheck.engine.store;

/**
 * Hash compaction: only a 64-bit fingerprint of each state is kept, in a sharded open-addressing
 * table of {@code long}s (8 bytes a slot, load 0.53..0.8: 10 to 15 bytes per state). Two states
 * with the same fingerprint are taken for one, so a state may be omitted; the probability is
 * reported as TLC does ({@link #omissionProbability}).
 */
public final class FingerprintStore implements StateStore {
    private final MemoryBudget budget;
    private final boolean concurrent;
    private final Shard[] shards = new Shard[Shards.SHARDS];
    private final java.util.concurrent.atomic.AtomicLong total = new java.util.concurrent.atomic.AtomicLong();
    private final long maxStates;
    private final boolean limited;
    private volatile String fullReason = "";

    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.arrayElementVarHandle(long[].class);

    private static final class Shard {
        /** Replaced whole (volatile) when the shard grows; slots are written with release stores. */
        volatile long[] table = new long[Shards.INITIAL_CAPACITY];
        int used;
    }

    public FingerprintStore(long maxStates, MemoryBudget budget, boolean concurrent) {
        this.maxStates = maxStates;
        this.limited = maxStates < kcheck.engine.Options.DEFAULT_MAX_STATES;
        this.budget = budget;
        this.concurrent = concurrent;
        for (int i = 0; i < shards.length; i++) {
            shards[i] = new Shard();
        }
        budget.reserve((long) Shards.SHARDS * Shards.INITIAL_CAPACITY * 8);
    }

    @Override
    public long add(long[] s, long h) {
        int k = Shards.shard(h);
        Shard sh = shards[k];
        if (concurrent) {
            if (present(sh, h)) {
                return PRESENT;
            }
            synchronized (sh) {
                return add(k, sh, h);
            }
        }
        return add(k, sh, h);
    }

    /** Lock-free lookup: true if {@code h} is certainly present (false: take the lock and look again). */
    private static boolean present(Shard sh, long h) {
        long[] t = sh.table;
        int cap = t.length;
        int i = Shards.slot(h, cap);
        while (true) {
            long e = (long) LONGS.getAcquire(t, i);
            if (e == 0) {
                return false;
            }
            if (e == h) {
                return true;
            }
            if (++i == cap) {
                i = 0;
            }
        }
    }

    @Override
    public int touch(long h) {
        long[] t = shards[Shards.shard(h)].table;
        return (int) t[Shards.slot(h, t.length)];
    }

    private long add(int k, Shard sh, long h) {
        long[] t = sh.table;
        int cap = t.length;
        int i = Shards.slot(h, cap);
        while (true) {
            long e = t[i];
            if (e == 0) {
                break;
            }
            if (e == h) {
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
        if (sh.used + 1 > cap * Shards.MAX_LOAD) {
            if (!grow(sh)) {
                fullReason = "memory budget";
                return FULL;
            }
            insert(sh.table, h);
        } else {
            LONGS.setRelease(t, i, h);
        }
        if (limited) {
            total.incrementAndGet();
        }
        return Shards.id(k, sh.used++);
    }

    private static void insert(long[] t, long h) {
        int cap = t.length;
        int i = Shards.slot(h, cap);
        while (t[i] != 0) {
            if (++i == cap) {
                i = 0;
            }
        }
        t[i] = h;
    }

    private boolean grow(Shard sh) {
        int cap = Shards.grown(sh.table.length);
        if (!budget.reserve((long) cap * 8)) {
            return false;
        }
        long[] t;
        try {
            t = new long[cap];
        } catch (OutOfMemoryError e) {
            budget.release((long) cap * 8);
            return false;
        }
        for (long e : sh.table) {
            if (e != 0) {
                insert(t, e);
            }
        }
        budget.release((long) sh.table.length * 8);
        sh.table = t;
        return true;
    }

    /**
     * TLC's optimistic estimate of the probability that some state was omitted: with n distinct
     * states and m states generated (transitions), about {@code n * (m - n) / 2^64}.
     */
    public static double omissionProbability(long states, long transitions) {
        return (double) states * Math.max(0, transitions - states) / 0x1p64;
    }

    @Override
    public int shards() {
        return Shards.SHARDS;
    }

    @Override
    public long count(int shard) {
        return shards[shard].used;
    }

    @Override
    public String fullReason() {
        return fullReason;
    }

    @Override
    public long bytes() {
        long b = 0;
        for (Shard sh : shards) {
            b += (long) sh.table.length * 8;
        }
        return b;
    }

    @Override
    public boolean exact() {
        return false;
    }


}
