package kcheck.engine.store;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands out state ids. Each worker takes ids from a block of its own ({@link Block}), so workers
 * touch the shared counter once per {@value #BLOCK} new states instead of once per state. Ids
 * stay in discovery order per level; the unused tail of a worker's block at the end of a BFS
 * level becomes a hole, which the search skips (at most {@code workers * BLOCK} per level).
 */
public final class Ids {
    public static final int BLOCK = 256;

    private final AtomicLong next = new AtomicLong();
    private final long limit;
    private final AtomicLong holes = new AtomicLong();
    private volatile Listener listener = upTo -> { };

    /** Told before ids up to {@code upTo} (exclusive) are handed out, outside any store lock. */
    public interface Listener {
        void reserving(long upTo);
    }

    public Ids(long limit) {
        this.limit = limit;
    }

    public void listener(Listener l) {
        this.listener = l;
    }

    /** Ids handed out so far (holes included). */
    public long allocated() {
        return Math.min(next.get(), limit);
    }

    public long holes() {
        return holes.get();
    }

    public Block block() {
        return new Block();
    }

    /** One worker's current range of ids. Not thread-safe: one per worker. */
    public final class Block {
        private long cur;
        private long end;

        /**
         * Makes sure an id is available for the next {@link #take()}; call it before taking a
         * store lock. False if the state limit is reached.
         */
        public boolean ready() {
            if (cur < end) {
                return true;
            }
            long start = next.getAndAdd(BLOCK);
            if (start >= limit) {
                return false;
            }
            long stop = Math.min(limit, start + BLOCK);
            listener.reserving(stop);
            cur = start;
            end = stop;
            return true;
        }

        /** The next id; {@link #ready()} must have returned true. */
        public long take() {
            return cur++;
        }

        /** Gives back the unused rest of the block; returns it as a hole range [from, to). */
        public long[] release() {
            long[] hole = {cur, end};
            holes.addAndGet(end - cur);
            cur = end;
            return hole;
        }
    }
}
