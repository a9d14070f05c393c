package kcheck.model.rqlock.threads;

import java.util.concurrent.atomic.AtomicInteger;

import kcheck.model.Kernel;
import kcheck.model.rqlock.TicketSpinlock;

/**
 * The x86 ticket spinlock of {@link TicketSpinlock} on two {@link AtomicInteger}s, {@code next}
 * and {@code owner}, with the kernel's 8-bit counters. Each step is one atomic operation and
 * decides with {@link TicketSpinlock}'s step functions:
 * <ul>
 * <li>take a ticket: {@code next.getAndIncrement()} (the {@code xaddw}; the counter is left
 * unwrapped, the step functions compare modulo 2^8);
 * <li>served: {@link TicketSpinlock#served} on {@code owner.get()};
 * <li>trylock: read {@code owner}, read {@code next}, {@link TicketSpinlock#free}, then
 * {@code compareAndSet(next, next + 1)}. The kernel does this with one {@code cmpxchg} on the
 * 16-bit word; here the two counters are separate, and the result is the same: a trylock that
 * succeeds does so at its CAS, when {@code next} is unchanged and so {@code owner == next} still
 * (owner never passes next); one that fails saw, at some instant between its two reads, a
 * taken lock or a queue;
 * <li>unlock: {@code owner.getAndIncrement()} (the {@code incb}).
 * </ul>
 */
public final class AtomicTicketSpinlock implements AtomicSpinlock {
    /** The kernel's ticket counters are bytes ({@code NR_CPUS < 256}). */
    public static final int BITS = 8;
    private static final int MASK = TicketSpinlock.mask(BITS);

    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger owner = new AtomicInteger();

    @Override
    @Kernel(function = "__ticket_spin_lock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public int enqueue() {
        return next.getAndIncrement();
    }

    @Override
    @Kernel(function = "__ticket_spin_lock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public boolean poll(int ticket) {
        return TicketSpinlock.served(owner.get(), ticket, MASK);
    }

    @Override
    @Kernel(function = "__ticket_spin_trylock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public boolean trylock() {
        int o = owner.get();
        int n = next.get();
        if (!TicketSpinlock.free(n, o, MASK)) {
            return false;
        }
        return next.compareAndSet(n, n + 1);
    }

    @Override
    @Kernel(function = "__ticket_spin_unlock", file = "include/asm-x86/spinlock.h", version = "v2.6.25")
    public void unlock() {
        owner.getAndIncrement();
    }

    @Override
    public String toString() {
        return "ticket(next=" + (next.get() & MASK) + ", owner=" + (owner.get() & MASK) + ")";
    }
}
