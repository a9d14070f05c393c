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
 *
 * <p>The steps are written once, as pure functions of the counters ({@link #advance},
 * {@link #served}, {@link #free}): this class applies them to the model's packed state, and
 * {@code kcheck.model.rqlock.threads.AtomicTicketSpinlock} applies the same functions to two
 * {@code AtomicInteger}s shared by real threads. The functions accept unwrapped counter values
 * (they compare modulo 2^bits), so the atomic version may let the hardware add without masking,
 * as {@code xaddw} does.
 */
public final class TicketSpinlock {
    private final int mask;
    private int next;
    private int owner;

    public TicketSpinlock(int bits) {
        this.mask = mask(bits);
    }

    /** The counter mask of a lock with {@code bits}-bit counters. */
    public static int mask(int bits) {
        return (1 << bits) - 1;
    }

    /** A counter after one increment ({@code xaddw} on {@code next}, {@code incb} on {@code owner}), wrapped. */
    public static int advance(int counter, int mask) {
        return (counter + 1) & mask;
    }

    /** The spin loop's exit test: is ticket {@code ticket} served when the head reads {@code owner}? */
    public static boolean served(int owner, int ticket, int mask) {
        return ((owner - ticket) & mask) == 0;
    }

    /** {@code trylock}'s test: the lock is free and nobody is queued ({@code next == owner}). */
    public static boolean free(int next, int owner, int mask) {
        return ((next - owner) & mask) == 0;
    }

    /** The {@code lock xaddw} of {@code __ticket_spin_lock}: take ticket {@code t = next++}. */
    @Kernel(function = "__ticket_spin_lock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public int takeTicket() {
        int t = next;
        next = advance(next, mask);
        return t;
    }

    /** The spin loop's exit test of {@code __ticket_spin_lock}: is ticket {@code t} being served? */
    @Kernel(function = "__ticket_spin_lock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public boolean isServed(int t) {
        return served(owner, t, mask);
    }

    /**
     * {@code __ticket_spin_trylock}: if the lock is free and nobody is queued ({@code next == owner})
     * take ticket {@code next++} with one {@code cmpxchg}; otherwise fail without queueing.
     */
    @Kernel(function = "__ticket_spin_trylock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public boolean trylock() {
        if (!free(next, owner, mask)) {
            return false;
        }
        next = advance(next, mask);
        return true;
    }

    /** {@code __ticket_spin_unlock}: {@code incb owner}, serving the next ticket. */
    @Kernel(function = "__ticket_spin_unlock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public void unlock() {
        owner = advance(owner, mask);
    }

    /** True if nobody holds or waits for the lock. */
    public boolean isFree() {
        return free(next, owner, mask);
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
