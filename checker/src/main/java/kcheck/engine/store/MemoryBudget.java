package kcheck.engine.store;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes the search may allocate for stores, links and queues. Allocation sites reserve before
 * they allocate; a refused reservation ends the search with INCOMPLETE instead of an
 * {@link OutOfMemoryError}.
 */
public final class MemoryBudget {
    private final long limit;
    private final AtomicLong used = new AtomicLong();

    public MemoryBudget(long limit) {
        this.limit = limit;
    }

    /**
     * Something that holds reservations it can give back at once (the search's edge log: an
     * optimisation the search can do without), or null.
     */
    private volatile Runnable reclaimer;

    /** Sets what {@link #reserve} calls once before refusing: it should release what it can. */
    public void reclaimWith(Runnable r) {
        this.reclaimer = r;
    }

    /**
     * Reserves {@code bytes}; false (and nothing reserved) if that would pass the limit even after
     * the reclaimer (if any) gave back what it holds.
     */
    public boolean reserve(long bytes) {
        if (tryReserve(bytes, limit)) {
            return true;
        }
        Runnable r = reclaimer;
        if (r != null) {
            reclaimer = null;
            r.run();
        }
        return tryReserve(bytes, limit); /* again: this thread's reclaimer, or another's just now, may have given memory back */
    }

    /**
     * Reserves {@code bytes} only if the total stays within {@code share} of the limit (0..1), for
     * a holder that must leave the rest to the stores; never calls the reclaimer.
     */
    public boolean reserveWithin(long bytes, double share) {
        return tryReserve(bytes, (long) (limit * share));
    }

    private boolean tryReserve(long bytes, long limit) {
        while (true) {
            long u = used.get();
            if (u + bytes > limit) {
                return false;
            }
            if (used.compareAndSet(u, u + bytes)) {
                return true;
            }
        }
    }

    public void release(long bytes) {
        used.addAndGet(-bytes);
    }

    public long used() {
        return used.get();
    }

    public long limit() {
        return limit;
    }
}
