package kcheck.model.rwsem;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The finite value domains of one model instance: how {@code sem->count} and {@code sem->owner}
 * are encoded by the variant's kernel generation ({@link RwsemVariant.Encoding}), which values the
 * model can hold, and the task pointers. Outcome indices of the program graphs number these
 * values.
 */
abstract sealed class RwsemDomain permits RwsemDomain.Xadd, RwsemDomain.Bits {
    final int readers;
    final int writers;

    RwsemDomain(int readers, int writers) {
        this.readers = readers;
        this.writers = writers;
    }

    static RwsemDomain of(RwsemVariant.Encoding e, int readers, int writers) {
        return of(e, readers, writers, false);
    }

    /**
     * As above; with {@code ownerUnknown} (parameter {@code owner-unknown}, v5.3 to v5.10 encoding
     * only) the owner may also be {@link RwsemBits#RWSEM_OWNER_UNKNOWN}, and that value with
     * RWSEM_WR_NONSPINNABLE cleared ({@code clear_wr_nonspinnable()} clears the bit on whatever
     * owner it finds).
     */
    static RwsemDomain of(RwsemVariant.Encoding e, int readers, int writers, boolean ownerUnknown) {
        return e == RwsemVariant.Encoding.XADD ? new Xadd(readers, writers) : new Bits(readers, writers, e, ownerUnknown);
    }

    /** The xadd encoding (v4.x) with these task counts. */
    static RwsemDomain xadd(int readers, int writers) {
        return new Xadd(readers, writers);
    }

    int readers() {
        return readers;
    }

    int writers() {
        return writers;
    }

    int tasks() {
        return readers + writers;
    }

    /** Number of count values. */
    abstract int countSize();

    /** Index of {@code count}, or -1 if it is outside the domain. */
    abstract int countIndex(long count);

    abstract long countValue(int index);

    /** The count domain in words, for a {@link kcheck.model.ModelLimitException}. */
    abstract String countLimit();

    /** Short form for traces. */
    abstract String showCount(long count);

    /** Number of owner values the model holds. */
    abstract int ownerSize();

    /** Index of owner value {@code owner}, -1 if the model cannot hold it. */
    abstract int ownerIndex(long owner);

    /** The owner value of index {@code index}. */
    abstract long ownerValue(int index);

    /** The owner values in words, for a {@link kcheck.model.ModelLimitException}. */
    abstract String ownerLimit();

    /** True if {@code owner} is a value the model can hold. */
    boolean ownerValid(long owner) {
        return ownerIndex(owner) >= 0;
    }

    /** {@code current} of reader {@code r}, as an owner value; throws if readers have none in this encoding. */
    abstract long readerTask(int r);

    /** {@code current} of writer {@code w}, as an owner value. */
    abstract long writerTask(int w);

    /** The task (0..tasks-1) whose pointer {@code owner} holds, -1 for none. */
    abstract int ownerTask(long owner);

    /** {@code owner} names a writer as the write-lock owner (not a reader-owned hint). */
    abstract boolean ownerIsWriter(long owner);

    /** {@code owner} is NULL (no pointer, no flags). */
    boolean ownerIsNull(long owner) {
        return owner == 0;
    }

    /** {@code owner} says "reader-owned" (RWSEM_READER_OWNED, or its flag bit). */
    abstract boolean ownerIsReaderOwned(long owner);

    /** {@code owner} with task pointers renamed: task {@code t} becomes {@code perm[t]}. */
    abstract long renameOwner(long owner, int[] perm);

    abstract String showOwner(long owner);

    /** Readers never store their own pointer: reader programs are all alike. */
    abstract boolean readersAnonymous();

    /** The handoff bit is set in {@code count} (never in the xadd encoding). */
    abstract boolean handoff(long count);

    /** Number of outcomes of {@code op}. */
    int outcomes(Op op) {
        return switch (op.outcome) {
            case COUNT -> countSize();
            case OWNER -> ownerSize();
            case TASK -> tasks();
            case BOOL -> 2;
            case INT -> readers + 1;
            case NONE -> 1;
        };
    }

    /** The largest number of outcomes of any operation. */
    int maxOutcomes() {
        return Math.max(Math.max(countSize(), tasks()), Math.max(ownerSize(), readers + 1));
    }

    /**
     * rwsem-xadd.c (v4.7, v4.8): {@code count = a + k * RWSEM_WAITING_BIAS} with an active part
     * {@code a <= readers + writers} (each task adds at most one active bias, a waker's grant stands
     * in for the bias a queued reader removed) and {@code k <= writers + 1} waiting biases (one per
     * writer attempting or holding the lock, one for a non-empty wait list); owner NULL,
     * RWSEM_READER_OWNED or a writer (an owner value is its own index).
     */
    static final class Xadd extends RwsemDomain {
        Xadd(int readers, int writers) {
            super(readers, writers);
        }

        int maxActive() {
            return readers + writers;
        }

        int maxWaiting() {
            return writers + 1;
        }

        @Override
        int countSize() {
            return (maxActive() + 1) * (maxWaiting() + 1);
        }

        @Override
        int countIndex(long count) {
            int a = RwsemCount.active(count);
            int k = RwsemCount.waiting(count);
            if (a < 0 || a > maxActive() || k < 0 || k > maxWaiting() || RwsemCount.count(a, k) != count) {
                return -1;
            }
            return a * (maxWaiting() + 1) + k;
        }

        @Override
        long countValue(int index) {
            return RwsemCount.count(index / (maxWaiting() + 1), index % (maxWaiting() + 1));
        }

        @Override
        String countLimit() {
            return "count as a + k * RWSEM_WAITING_BIAS with a <= " + maxActive() + " and k <= " + maxWaiting()
                    + " (readers + writers active, writers + 1 waiting biases)";
        }

        @Override
        String showCount(long count) {
            return RwsemCount.show(count);
        }

        @Override
        int ownerSize() {
            return writers + 2;
        }

        @Override
        int ownerIndex(long owner) {
            return owner >= 0 && owner < ownerSize() ? (int) owner : -1;
        }

        @Override
        long ownerValue(int index) {
            return index;
        }

        @Override
        String ownerLimit() {
            return "NULL, RWSEM_READER_OWNED or a writer";
        }

        @Override
        long readerTask(int r) {
            throw new IllegalStateException("a reader's task pointer is not an owner value in the xadd encoding");
        }

        @Override
        long writerTask(int w) {
            return RwsemCount.writerTask(w);
        }

        @Override
        int ownerTask(long owner) {
            return owner >= 2 ? readers + RwsemCount.writerIndex(owner) : -1;
        }

        @Override
        boolean ownerIsWriter(long owner) {
            return owner >= 2 && owner < ownerSize();
        }

        @Override
        boolean ownerIsReaderOwned(long owner) {
            return owner == RwsemCount.RWSEM_READER_OWNED;
        }

        @Override
        long renameOwner(long owner, int[] perm) {
            return owner < 2 ? owner : RwsemCount.writerTask(perm[readers + RwsemCount.writerIndex(owner)] - readers);
        }

        @Override
        String showOwner(long owner) {
            return RwsemCount.showOwner(owner);
        }

        @Override
        boolean readersAnonymous() {
            return true;
        }

        @Override
        boolean handoff(long count) {
            return false;
        }
    }

    /**
     * rwsem.c since v5.3: count bits WRITER_LOCKED, FLAG_WAITERS, FLAG_HANDOFF and a reader count
     * {@code r <= readers} (each reader adds at most one RWSEM_READER_BIAS of its own or a waker's
     * on its behalf; the read-fail bit 63 needs 2^55 readers and is left out); owner = a task
     * pointer or NULL with flag bits.
     */
    static final class Bits extends RwsemDomain {
        private final RwsemVariant.Encoding encoding;
        /** RWSEM_OWNER_UNKNOWN (and it without RWSEM_WR_NONSPINNABLE) is an owner value. */
        private final boolean ownerUnknown;
        /** The owner values, in index order. */
        private final long[] owners;
        private final Map<Long, Integer> ownerIndex = new HashMap<>();

        /**
         * The owner values: NULL; a writer's pointer, with RWSEM_RD_NONSPINNABLE (v5.3 to v5.10:
         * rwsem_disable_reader_optspin() sets it on a writer owner) or without; a reader's pointer with
         * RWSEM_READER_OWNED and any NONSPINNABLE bits. A flag on NULL, or NONSPINNABLE on a writer in
         * v5.11+, is never stored by the kernel code: a variant that stores one gets a ModelLimitException.
         */
        Bits(int readers, int writers, RwsemVariant.Encoding encoding, boolean ownerUnknown) {
            super(readers, writers);
            this.encoding = encoding;
            this.ownerUnknown = ownerUnknown && encoding == RwsemVariant.Encoding.BITS_RD_WR;
            List<Long> vals = new ArrayList<>();
            vals.add(0L);
            boolean v5 = encoding == RwsemVariant.Encoding.BITS_RD_WR;
            if (this.ownerUnknown) {
                vals.add(RwsemBits.RWSEM_OWNER_UNKNOWN);
                vals.add(RwsemBits.RWSEM_OWNER_UNKNOWN & ~RwsemBits.RWSEM_WR_NONSPINNABLE);
            }
            for (int w = 0; w < writers; w++) {
                vals.add(RwsemBits.task(readers + w));
                if (v5) {
                    vals.add(RwsemBits.task(readers + w) | RwsemBits.RWSEM_RD_NONSPINNABLE);
                }
            }
            long[] readerFlags = v5 ? new long[] {0, RwsemBits.RWSEM_RD_NONSPINNABLE, RwsemBits.RWSEM_WR_NONSPINNABLE,
                RwsemBits.RWSEM_NONSPINNABLE_V5} : new long[] {0, RwsemBits.RWSEM_NONSPINNABLE};
            for (int r = 0; r < readers; r++) {
                for (long f : readerFlags) {
                    vals.add(RwsemBits.task(r) | RwsemBits.RWSEM_READER_OWNED | f);
                }
            }
            owners = new long[vals.size()];
            for (int i = 0; i < owners.length; i++) {
                owners[i] = vals.get(i);
                ownerIndex.put(owners[i], i);
            }
        }

        @Override
        int countSize() {
            return (readers + 1) * 8;
        }

        @Override
        int countIndex(long count) {
            if (count < 0 || (count & 0xf8L) != 0 || RwsemBits.readers(count) > readers) {
                return -1;
            }
            return RwsemBits.readers(count) * 8 + (int) (count & 7);
        }

        @Override
        long countValue(int index) {
            return ((long) (index / 8) << RwsemBits.RWSEM_READER_SHIFT) | (index % 8);
        }

        @Override
        String countLimit() {
            return "count as WRITER_LOCKED, WAITERS and HANDOFF bits and a reader count <= " + readers
                    + " (one RWSEM_READER_BIAS per reader; no other count bits)";
        }

        @Override
        String showCount(long count) {
            if (count == 0) {
                return "0";
            }
            if (count < 0) {
                return "0x" + Long.toHexString(count) + " (reader count " + (count >> RwsemBits.RWSEM_READER_SHIFT) + ")";
            }
            List<String> parts = new ArrayList<>();
            int r = RwsemBits.readers(count);
            if (r > 0) {
                parts.add(r + "R");
            }
            if ((count & RwsemBits.RWSEM_WRITER_LOCKED) != 0) {
                parts.add("WRITER_LOCKED");
            }
            if ((count & RwsemBits.RWSEM_FLAG_WAITERS) != 0) {
                parts.add("WAITERS");
            }
            if ((count & RwsemBits.RWSEM_FLAG_HANDOFF) != 0) {
                parts.add("HANDOFF");
            }
            return String.join("|", parts);
        }

        @Override
        int ownerSize() {
            return owners.length;
        }

        @Override
        int ownerIndex(long owner) {
            Integer i = ownerIndex.get(owner);
            return i == null ? -1 : i;
        }

        @Override
        long ownerValue(int index) {
            return owners[index];
        }

        @Override
        String ownerLimit() {
            return "NULL, " + (ownerUnknown ? "RWSEM_OWNER_UNKNOWN (with or without RWSEM_WR_NONSPINNABLE), " : "")
                    + "a writer's pointer" + (encoding == RwsemVariant.Encoding.BITS_RD_WR ? " (with or without"
                    + " RWSEM_RD_NONSPINNABLE)" : "") + ", or a reader's pointer with RWSEM_READER_OWNED and any NONSPINNABLE bits";
        }

        @Override
        long readerTask(int r) {
            return RwsemBits.task(r);
        }

        @Override
        long writerTask(int w) {
            return RwsemBits.task(readers + w);
        }

        @Override
        int ownerTask(long owner) {
            return RwsemBits.taskIndex(owner);
        }

        @Override
        boolean ownerIsWriter(long owner) {
            int t = RwsemBits.taskIndex(owner);
            return t >= readers && t < tasks() && (owner & RwsemBits.RWSEM_READER_OWNED) == 0;
        }

        @Override
        boolean ownerIsReaderOwned(long owner) {
            return (owner & RwsemBits.RWSEM_READER_OWNED) != 0;
        }

        @Override
        long renameOwner(long owner, int[] perm) {
            int t = RwsemBits.taskIndex(owner);
            return t < 0 ? owner : RwsemBits.task(perm[t]) | (owner & RwsemBits.RWSEM_OWNER_FLAGS_MASK);
        }

        @Override
        String showOwner(long owner) {
            int t = RwsemBits.taskIndex(owner);
            List<String> parts = new ArrayList<>();
            boolean unknown = (owner & ~RwsemBits.RWSEM_OWNER_FLAGS_MASK) == (RwsemBits.RWSEM_OWNER_UNKNOWN & ~RwsemBits.RWSEM_OWNER_FLAGS_MASK);
            parts.add(unknown ? "OWNER_UNKNOWN" : t < 0 ? "NULL" : t < readers ? "reader " + t : "writer " + (t - readers));
            if ((owner & RwsemBits.RWSEM_READER_OWNED) != 0) {
                parts.add("READER_OWNED");
            }
            if (encoding == RwsemVariant.Encoding.BITS_RD_WR) {
                if ((owner & RwsemBits.RWSEM_RD_NONSPINNABLE) != 0) {
                    parts.add("RD_NONSPINNABLE");
                }
                if ((owner & RwsemBits.RWSEM_WR_NONSPINNABLE) != 0) {
                    parts.add("WR_NONSPINNABLE");
                }
            } else {
                if ((owner & RwsemBits.RWSEM_NONSPINNABLE) != 0) {
                    parts.add("NONSPINNABLE");
                }
                if ((owner & 4) != 0) {
                    parts.add("bit 2");
                }
            }
            return String.join("|", parts);
        }

        @Override
        boolean readersAnonymous() {
            return false;
        }

        @Override
        boolean handoff(long count) {
            return (count & RwsemBits.RWSEM_FLAG_HANDOFF) != 0;
        }
    }
}
