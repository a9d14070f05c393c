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

    /** Reserves {@code bytes}; false (and nothing reserved) if that would pass the limit. */
    public boolean reserve(long bytes) {
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
