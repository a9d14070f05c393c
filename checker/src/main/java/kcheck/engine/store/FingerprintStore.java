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

    private static final class Shard {
        long[] table = new long[Shards.INITIAL_CAPACITY];
        int used;
    }

    public FingerprintStore(MemoryBudget budget, boolean concurrent) {
        this.budget = budget;
        this.concurrent = concurrent;
        for (int i = 0; i < shards.length; i++) {
            shards[i] = new Shard();
        }
        budget.reserve((long) Shards.SHARDS * Shards.INITIAL_CAPACITY * 8);
    }

    @Override
    public long add(long[] s, long h, Ids.Block ids) {
        Shard sh = shards[Shards.shard(h)];
        if (concurrent) {
            synchronized (sh) {
                return add(sh, h, ids);
            }
        }
        return add(sh, h, ids);
    }

    @Override
    public int touch(long h) {
        long[] t = shards[Shards.shard(h)].table;
        return (int) t[Shards.slot(h, t.length)];
    }

    private long add(Shard sh, long h, Ids.Block ids) {
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
        if (sh.used + 1 > cap * Shards.MAX_LOAD) {
            if (!grow(sh)) {
                return FULL;
            }
            insert(sh.table, h);
        } else {
            t[i] = h;
        }
        sh.used++;
        return ids.take();
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
            b += (long) sh.table.length * 8;
        }
        return b;
    }

    @Override
    public boolean exact() {
        return false;
    }


}
