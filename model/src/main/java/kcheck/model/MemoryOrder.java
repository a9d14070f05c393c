package kcheck.model;

/**
 * How the kernel orders one access (tools/memory-model/Documentation/ordering.txt). An RMW's
 * ordering applies when it writes; a conditional RMW that fails (a failed {@code cmpxchg}) is a
 * read that orders nothing.
 */
public enum MemoryOrder {
    /** An unmarked C access ({@code node->locked = 0}). */
    PLAIN,
    /** {@code READ_ONCE}, {@code WRITE_ONCE}, {@code atomic_read}, {@code smp_cond_load_relaxed}. */
    ONCE,
    /** {@code smp_load_acquire}, {@code smp_cond_load_acquire}, {@code atomic_cond_read_acquire}. */
    ACQUIRE,
    /** {@code smp_store_release}. */
    RELEASE,
    /** {@code xchg_relaxed}, {@code atomic_try_cmpxchg_relaxed}. */
    RMW_RELAXED,
    /** {@code atomic_try_cmpxchg_acquire}: acquire on success. */
    RMW_ACQUIRE,
    /** {@code xchg_release}. */
    RMW_RELEASE,
    /** A fully ordered RMW ({@code xchg}, {@code atomic_try_cmpxchg}, x86's {@code lock}-prefixed instructions). */
    RMW_FULL
}
