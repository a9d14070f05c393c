package kcheck.model.rwsem;

/**
 * The constants of kernel/locking/rwsem.c since v5.3 on a 64-bit kernel: {@code sem->count} as
 * bit fields and a reader count, {@code sem->owner} as a task pointer with flag bits, and the
 * owner states of {@code rwsem_spin_on_owner()} (v5.4.286 and v6.12 agree on these values; the
 * owner flag bits 1 and 2 are RWSEM_RD_NONSPINNABLE and RWSEM_WR_NONSPINNABLE up to v5.10, one
 * RWSEM_NONSPINNABLE bit since v5.11).
 *
 * <p>Task pointers in the model are {@code (task + 1) << 3} (readers first, then writers), so the
 * three low bits are free for the flags, as with real task_struct pointers.
 */
public final class RwsemBits {
    private RwsemBits() {
    }

    /* sem->count */
    public static final long RWSEM_WRITER_LOCKED = 1L << 0;
    public static final long RWSEM_FLAG_WAITERS = 1L << 1;
    public static final long RWSEM_FLAG_HANDOFF = 1L << 2;
    public static final long RWSEM_FLAG_READFAIL = 1L << 63;
    public static final int RWSEM_READER_SHIFT = 8;
    public static final long RWSEM_READER_BIAS = 1L << RWSEM_READER_SHIFT;
    public static final long RWSEM_READER_MASK = ~(RWSEM_READER_BIAS - 1);
    public static final long RWSEM_WRITER_MASK = RWSEM_WRITER_LOCKED;
    public static final long RWSEM_LOCK_MASK = RWSEM_WRITER_MASK | RWSEM_READER_MASK;
    public static final long RWSEM_READ_FAILED_MASK = RWSEM_WRITER_MASK | RWSEM_FLAG_WAITERS | RWSEM_FLAG_HANDOFF
            | RWSEM_FLAG_READFAIL;
    public static final long RWSEM_UNLOCKED_VALUE = 0L;

    /* sem->owner */
    public static final long RWSEM_READER_OWNED = 1L << 0;
    /** v5.11 and later. */
    public static final long RWSEM_NONSPINNABLE = 1L << 1;
    /** v5.3 to v5.10: readers cannot spin on this lock. */
    public static final long RWSEM_RD_NONSPINNABLE = 1L << 1;
    /** v5.3 to v5.10: writers cannot spin on this lock. */
    public static final long RWSEM_WR_NONSPINNABLE = 1L << 2;
    /** v5.3 to v5.10: both bits. */
    public static final long RWSEM_NONSPINNABLE_V5 = RWSEM_RD_NONSPINNABLE | RWSEM_WR_NONSPINNABLE;
    /**
     * v5.3 to v5.7 ({@code include/linux/rwsem.h}): a writer-owned lock whose owner is not a task,
     * stored by {@code percpu_rwsem_release()} when a percpu-rwsem's write lock changes hands between
     * tasks (removed with that use by the percpu-rwsem rewrite, v5.8). Every bit but bit 0: the
     * pointer part is no task's, and both NONSPINNABLE bits are set.
     */
    public static final long RWSEM_OWNER_UNKNOWN = -2L;
    /** The three low bits of the owner word. */
    public static final long RWSEM_OWNER_FLAGS_MASK = 7L;

    /* enum owner_state of rwsem_spin_on_owner() */
    public static final int OWNER_NULL = 1 << 0;
    public static final int OWNER_WRITER = 1 << 1;
    public static final int OWNER_READER = 1 << 2;
    public static final int OWNER_NONSPINNABLE = 1 << 3;
    public static final int OWNER_SPINNABLE = OWNER_NULL | OWNER_WRITER | OWNER_READER;

    /** {@code enum writer_wait_state} (v5.3 to v5.17). */
    public static final int WRITER_NOT_FIRST = 0;
    public static final int WRITER_FIRST = 1;
    public static final int WRITER_HANDOFF = 2;

    /** {@code MAX_READERS_WAKEUP} (v5.4 and later). */
    public static final int MAX_READERS_WAKEUP = 0x100;

    /** The task pointer of task {@code t} (readers 0..readers-1, then writers). */
    public static long task(int t) {
        return (long) (t + 1) << 3;
    }

    /** The task index a pointer names, -1 for NULL. */
    public static int taskIndex(long owner) {
        return (int) ((owner & ~RWSEM_OWNER_FLAGS_MASK) >>> 3) - 1;
    }

    /** The reader count of {@code count}. */
    public static int readers(long count) {
        return (int) (count >>> RWSEM_READER_SHIFT);
    }
}
