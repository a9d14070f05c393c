package kcheck.model.rwsem;

/**
 * The finite value domains of one model instance: with {@code readers} readers and
 * {@code writers} writers, {@code count = a + k * RWSEM_WAITING_BIAS} has an active part
 * {@code a <= readers + writers} (each task adds at most one active bias, a waker's grant stands
 * in for the bias a queued reader removed) and {@code k <= writers + 1} waiting biases (one per
 * writer attempting or holding the lock, one for a non-empty wait list). Outcome indices of the
 * program graphs number these values.
 */
record RwsemDomain(int readers, int writers) {

    int maxActive() {
        return readers + writers;
    }

    int maxWaiting() {
        return writers + 1;
    }

    /** Number of count values. */
    int countSize() {
        return (maxActive() + 1) * (maxWaiting() + 1);
    }

    /** Index of {@code count}, or -1 if it is outside the domain. */
    int countIndex(long count) {
        int a = RwsemCount.active(count);
        int k = RwsemCount.waiting(count);
        if (a < 0 || a > maxActive() || k < 0 || k > maxWaiting() || RwsemCount.count(a, k) != count) {
            return -1;
        }
        return a * (maxWaiting() + 1) + k;
    }

    long countValue(int index) {
        return RwsemCount.count(index / (maxWaiting() + 1), index % (maxWaiting() + 1));
    }

    /** Number of owner values: NULL, READER_OWNED, each writer. */
    int ownerSize() {
        return writers + 2;
    }

    /** Number of outcomes of {@code op}. */
    int outcomes(Op op) {
        return switch (op.outcome) {
            case COUNT -> countSize();
            case OWNER -> ownerSize();
            case BOOL -> 2;
            case INT -> readers + 1;
            case NONE -> 1;
        };
    }

    /** The largest number of outcomes of any operation. */
    int maxOutcomes() {
        return Math.max(countSize(), Math.max(ownerSize(), readers + 1));
    }
}
