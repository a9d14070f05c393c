package kcheck.engine;

import java.util.ArrayList;
import java.util.List;

import kcheck.engine.store.MemoryBudget;

/**
 * The BFS queue of fingerprint mode, where the store does not keep states: records of
 * (id, packed state) in chunks. Each worker appends to its own frontier; the next level is the
 * list of all their chunks.
 */
final class Frontier {
    static final int RECORDS_PER_CHUNK = 4096;

    private final int rec;
    private final MemoryBudget budget;
    final List<long[]> chunks = new ArrayList<>();
    /** Records in the last chunk. */
    private int fill = RECORDS_PER_CHUNK;
    private long size;

    Frontier(int width, MemoryBudget budget) {
        this.rec = width + 1;
        this.budget = budget;
    }

    /** Appends a record; false if the memory budget refuses a new chunk. */
    boolean add(long id, long[] s) {
        if (fill == RECORDS_PER_CHUNK) {
            long bytes = (long) RECORDS_PER_CHUNK * rec * 8;
            if (!budget.reserve(bytes)) {
                return false;
            }
            chunks.add(new long[RECORDS_PER_CHUNK * rec]);
            fill = 0;
        }
        long[] c = chunks.get(chunks.size() - 1);
        int off = fill * rec;
        c[off] = id;
        System.arraycopy(s, 0, c, off + 1, rec - 1);
        fill++;
        size++;
        return true;
    }

    long size() {
        return size;
    }

    /** Records in chunk {@code k} of this frontier. */
    int records(int k) {
        return k == chunks.size() - 1 ? fill : RECORDS_PER_CHUNK;
    }

    /** Returns the memory of all chunks to the budget (after the level is expanded). */
    void release() {
        budget.release((long) chunks.size() * RECORDS_PER_CHUNK * rec * 8);
        chunks.clear();
        size = 0;
        fill = RECORDS_PER_CHUNK;
    }
}
