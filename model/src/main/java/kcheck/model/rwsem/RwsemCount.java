package kcheck.model.rwsem;

/**
 * The constants of the xadd rwsem on a 64-bit kernel (include/asm-generic/rwsem.h with
 * {@code CONFIG_64BIT}, the same values as arch/x86/include/asm/rwsem.h on x86-64), the owner
 * values of kernel/locking/rwsem.h and the wake and waiter types of rwsem-xadd.c, v4.7 and v4.8.
 *
 * <p>{@code count} is {@code a + k * RWSEM_WAITING_BIAS}: {@code a} (the low 32 bits, the
 * "active part") counts active lockers, {@code k} counts waiting biases (one per writer that
 * holds or attempts the lock, one while the wait list is not empty).
 */
public final class RwsemCount {
    private RwsemCount() {
    }

    public static final long RWSEM_ACTIVE_MASK = 0xffffffffL;
    public static final long RWSEM_UNLOCKED_VALUE = 0x00000000L;
    public static final long RWSEM_ACTIVE_BIAS = 0x00000001L;
    public static final long RWSEM_WAITING_BIAS = -RWSEM_ACTIVE_MASK - 1;
    public static final long RWSEM_ACTIVE_READ_BIAS = RWSEM_ACTIVE_BIAS;
    public static final long RWSEM_ACTIVE_WRITE_BIAS = RWSEM_WAITING_BIAS + RWSEM_ACTIVE_BIAS;

    /** {@code NULL} owner. */
    public static final long NULL = 0L;
    /** {@code RWSEM_READER_OWNED ((struct task_struct *)1UL)} (v4.8). */
    public static final long RWSEM_READER_OWNED = 1L;

    /** {@code enum rwsem_waiter_type}. */
    public static final int RWSEM_WAITING_FOR_WRITE = 0;
    public static final int RWSEM_WAITING_FOR_READ = 1;

    /** {@code enum rwsem_wake_type}. */
    public static final int RWSEM_WAKE_ANY = 0;
    public static final int RWSEM_WAKE_READERS = 1;
    public static final int RWSEM_WAKE_READ_OWNED = 2;

    /** The owner value ({@code current}) of writer {@code w}. */
    public static long writerTask(int w) {
        return 2L + w;
    }

    /** The writer index of owner value {@code owner} (which names a writer). */
    public static int writerIndex(long owner) {
        return (int) (owner - 2);
    }

    /** The active part {@code a} of {@code count}. */
    public static int active(long count) {
        return (int) (count & RWSEM_ACTIVE_MASK);
    }

    /** The number {@code k} of waiting biases in {@code count}. */
    public static int waiting(long count) {
        return (int) -((count - (count & RWSEM_ACTIVE_MASK)) / (RWSEM_ACTIVE_MASK + 1));
    }

    /** {@code a + k * RWSEM_WAITING_BIAS}. */
    public static long count(int a, int k) {
        return a + k * RWSEM_WAITING_BIAS;
    }

    /** Short form for traces: {@code 0}, {@code 2}, {@code WB}, {@code WB+1}, {@code 2WB+1} (WB = RWSEM_WAITING_BIAS). */
    public static String show(long count) {
        int a = active(count);
        int k = waiting(count);
        if (k == 0) {
            return Integer.toString(a);
        }
        String wb = k == 1 ? "WB" : k + "WB";
        return a == 0 ? wb : wb + "+" + a;
    }

    /** {@code NULL}, {@code READER_OWNED} or {@code writer N}. */
    public static String showOwner(long owner) {
        if (owner == NULL) {
            return "NULL";
        }
        if (owner == RWSEM_READER_OWNED) {
            return "READER_OWNED";
        }
        return "writer " + writerIndex(owner);
    }
}
