package kcheck.model.rqlock;

import kcheck.model.Kernel;

/**
 * The x86 ticket spinlock introduced in 2.6.25: two counters, {@code next} (the tail: the next
 * ticket to hand out) and {@code owner} (the head: the ticket being served). Counters wrap; the
 * kernel keeps them in 8 bits ({@code NR_CPUS < 256}), the model in {@code bits} bits, which is
 * the same behaviour as long as fewer than 2^bits CPUs queue on one lock.
 *
 * <p>Each method is one atomic step. {@code spin_lock} is two steps: {@link #takeTicket()} (the
 * {@code xaddw}) and then waiting until {@link #isServed(int)} (the spin loop's compare, in the
 * step where it succeeds).
 */
public final class TicketSpinlock {
    private final int mask;
    private int next;
    private int owner;

    public TicketSpinlock(int bits) {
        this.mask = (1 << bits) - 1;
    }

    /** The {@code lock xaddw} of {@code __ticket_spin_lock}: take ticket {@code t = next++}. */
    @Kernel(function = "__ticket_spin_lock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public int takeTicket() {
        int t = next;
        next = (next + 1) & mask;
        return t;
    }

    /** The spin loop's exit test of {@code __ticket_spin_lock}: is ticket {@code t} being served? */
    @Kernel(function = "__ticket_spin_lock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public boolean isServed(int t) {
        return owner == t;
    }

    /**
     * {@code __ticket_spin_trylock}: if the lock is free and nobody is queued ({@code next == owner})
     * take ticket {@code next++} with one {@code cmpxchg}; otherwise fail without queueing.
     */
    @Kernel(function = "__ticket_spin_trylock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public boolean trylock() {
        if (next != owner) {
            return false;
        }
        next = (next + 1) & mask;
        return true;
    }

    /** {@code __ticket_spin_unlock}: {@code incb owner}, serving the next ticket. */
    @Kernel(function = "__ticket_spin_unlock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public void unlock() {
        owner = (owner + 1) & mask;
    }

    /** True if nobody holds or waits for the lock. */
    public boolean isFree() {
        return next == owner;
    }

    public int next() {
        return next;
    }

    public int owner() {
        return owner;
    }

    /** Loads both counters (the model keeps them packed in its state). */
    public void load(int next, int owner) {
        this.next = next & mask;
        this.owner = owner & mask;
    }
}
