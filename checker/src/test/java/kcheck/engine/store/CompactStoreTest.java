package kcheck.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import kcheck.engine.Hashing;
import kcheck.engine.Options;

class CompactStoreTest {

    private static long add(StateStore s, long... state) {
        return s.add(state, Hashing.hash(state, 0, state.length));
    }

    @Test
    void addsEachStateOnceInAtMostEightBytesAState() {
        CompactStore s = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), false, false);
        int n = 1_000_000;
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < n; i++) {
            long id = add(s, i, i * 31L);
            assertThat(id).isNotNegative();
            ids.add(id);
        }
        assertThat(ids).hasSize(n);
        for (int i = 0; i < n; i += 101) {
            assertThat(add(s, i, i * 31L)).isEqualTo(StateStore.PRESENT);
        }
        assertThat(s.size()).isEqualTo(n);
        assertThat(s.stored()).isEqualTo(n);
        double slotBytes = (double) (s.bytes() - (long) CompactStore.TABLES * 32) / n;
        assertThat(slotBytes).as("6-byte slots at load 0.75..0.9").isBetween(6.0 / 0.9, 8.0);
    }

    @Test
    void aCheckpointedTableIsReadBackWithEveryKeyAndTheSameIds() throws Exception {
        CompactStore s = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), false, false);
        int n = 2_000_000;
        for (int i = 0; i < n; i++) {
            add(s, i, 7);
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        s.write(new java.io.DataOutputStream(bytes));
        CompactStore r = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), false, false);
        r.read(new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())));
        assertThat(r.stored()).isEqualTo(n);
        assertThat(r.size()).isEqualTo(n);
        for (int i = 0; i < n; i += 7) {
            assertThat(add(r, i, 7)).as("state %d", i).isEqualTo(StateStore.PRESENT);
        }
        double slotBytes = (double) (r.bytes() - (long) CompactStore.TABLES * 32) / n;
        assertThat(slotBytes).as("each table built at load 0.8 (6-byte slots)").isBetween(6.0 / 0.9, 8.0);
        long next = add(r, -1, -1);
        assertThat(next).as("a new state after the read gets a new id").isNotNegative();
        assertThat(s.add(new long[] {-1, -1}, Hashing.hash(new long[] {-1, -1}, 0, 2))).isEqualTo(next);
    }

    @Test
    void aCheckpointLargerThanTheBudgetIsRefusedWithAMessage() throws Exception {
        CompactStore s = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), false, false);
        for (int i = 0; i < 300_000; i++) {
            add(s, i);
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        s.write(new java.io.DataOutputStream(bytes));
        CompactStore small = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 21), false, false);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> small.read(
                new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))))
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("memory budget");
    }

    @Test
    void idsAreDensePerShardAsTheOtherStoresHandThemOut() {
        CompactStore s = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), false, false);
        Set<Long> ids = new HashSet<>();
        for (long i = 0; i < 10_000; i++) {
            ids.add(add(s, i));
        }
        Set<Long> expected = new HashSet<>();
        for (int k = 0; k < s.shards(); k++) {
            for (long local = 0; local < s.count(k); local++) {
                expected.add(StateStore.id(k, local));
            }
        }
        assertThat(ids).isEqualTo(expected);
    }

    @Test
    void aFullBudgetIsFullOrWithSpillAnswersNewAndSaysSaturated() {
        CompactStore full = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(3L << 20), false, false);
        long r = 0;
        int i = 0;
        while (r != StateStore.FULL && i < 10_000_000) {
            r = add(full, i++);
        }
        assertThat(r).isEqualTo(StateStore.FULL);
        assertThat(full.fullReason()).isEqualTo("memory budget");

        CompactStore spill = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(3L << 20), false, true);
        for (int k = 0; k < i + 100_000; k++) {
            assertThat(add(spill, k)).isNotNegative();
        }
        assertThat(spill.saturated()).isTrue();
        assertThat(spill.stored()).isLessThan(i + 100_000L);
        spill.clear();
        assertThat(spill.saturated()).isFalse();
        assertThat(spill.stored()).isZero();
        assertThat(add(spill, 0)).isNotNegative();
        assertThat(add(spill, 0)).isEqualTo(StateStore.PRESENT);
    }

    @Test
    void sortedStreamGivesEveryKeyOnceInAscendingOrder() throws Exception {
        CompactStore s = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), false, false);
        SplittableRandom r = new SplittableRandom(3);
        Set<Long> keys = new HashSet<>();
        for (int i = 0; i < 200_000; i++) {
            long[] st = {r.nextLong()};
            long h = Hashing.hash(st, 0, 1);
            s.add(st, h);
            keys.add(CompactStore.key(h));
        }
        List<Long> out = new ArrayList<>();
        s.forEachSorted(out::add);
        assertThat(out).hasSize(keys.size()).isSorted();
        assertThat(new HashSet<>(out)).isEqualTo(keys);
    }

    @Test
    void keysWithZeroLowBitsStayDistinctFromEmptySlots() {
        long h = 0x1234_0000_0000_0000L;
        assertThat(CompactStore.key(h)).isNotEqualTo(h).isEqualTo(h | 1);
        assertThat(CompactStore.key(h | 5)).isEqualTo(h | 5);
    }

    @Test
    void concurrentInsertsStoreEachStateExactlyOnce() throws Exception {
        CompactStore s = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), true, false);
        int n = 400_000;
        long[] added = new long[2];
        Thread[] ts = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int me = t;
            ts[t] = new Thread(() -> {
                for (int i = 0; i < n; i++) {
                    if (add(s, i) >= 0) {
                        added[me]++;
                    }
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        assertThat(added[0] + added[1]).isEqualTo(n);
        assertThat(s.size()).isEqualTo(n);
    }

    @Test
    void refusesBeyondTheStateLimit() {
        CompactStore s = new CompactStore(10, new MemoryBudget(1L << 30), false, false);
        for (long i = 0; i < 10; i++) {
            assertThat(add(s, i)).isNotNegative();
        }
        assertThat(add(s, 3)).isEqualTo(StateStore.PRESENT);
        assertThat(add(s, 99)).isEqualTo(StateStore.FULL);
        assertThat(s.fullReason()).isEqualTo("state limit");
        assertThat(s.size()).isEqualTo(10);
    }

    @Test
    void containsAnswersForAddedAndAbsentHashes() {
        CompactStore s = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), false, false);
        for (long i = 0; i < 1000; i++) {
            add(s, i);
        }
        for (long i = 0; i < 2000; i++) {
            assertThat(s.contains(Hashing.hash(new long[] {i}, 0, 1))).as("state %d", i).isEqualTo(i < 1000);
        }
    }

    @Test
    void statesSpilledWithoutRoomStillGetFreshIds() {
        /* a budget that holds the tables' objects only: every state is spilled, each with its own next id */
        CompactStore s = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget((long) CompactStore.TABLES * 32), false, true);
        Set<Long> ids = new HashSet<>();
        for (long i = 0; i < 500; i++) {
            long id = add(s, i);
            assertThat(id).isNotNegative();
            ids.add(id);
        }
        assertThat(s.saturated()).isTrue();
        assertThat(s.stored()).isZero();
        assertThat(ids).hasSize(500);
        assertThat(s.size()).isEqualTo(500);
    }

    @Test
    void theBudgetHoldsEachTableOnlyWhileItIsInUse() {
        /*
         * keys of one table: it starts at 8 slots (50 bytes), grows to 9 (56) at the 8th key and to
         * 10 (62) at the 9th, each replacing the one before; the 10th needs 12 slots (74 bytes)
         */
        long objects = (long) CompactStore.TABLES * 32;
        MemoryBudget b = new MemoryBudget(objects + 56 + 62);
        CompactStore s = new CompactStore(Options.DEFAULT_MAX_STATES, b, false, false);
        long top = 0x1234L << 48;
        for (long i = 1; i <= 9; i++) {
            assertThat(s.add(null, top | (i * 0x10001L << 16))).as("key %d", i).isNotNegative();
        }
        assertThat(b.used()).isEqualTo(objects + 62);
        assertThat(s.add(null, top | (10 * 0x10001L << 16))).isEqualTo(StateStore.FULL);
        assertThat(s.fullReason()).isEqualTo("memory budget");
        assertThat(b.used()).isEqualTo(objects + 62);
        assertThat(s.bytes()).isEqualTo(objects + 62);
    }

    @Test
    void aCheckpointKeepsEveryShardsNextId() throws Exception {
        CompactStore s = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), false, false);
        for (long i = 0; i < 5000; i++) {
            add(s, i);
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        s.write(new java.io.DataOutputStream(bytes));
        CompactStore r = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), false, false);
        r.read(new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())));
        for (int k = 0; k < s.shards(); k++) {
            assertThat(r.count(k)).as("shard %d", k).isEqualTo(s.count(k)).isPositive();
        }
    }

    @Test
    void keysPutBackAfterClearAreFoundAndAFullBudgetRefusesThem() {
        CompactStore s = new CompactStore(Options.DEFAULT_MAX_STATES, new MemoryBudget((long) CompactStore.TABLES * 32 + 50), false, true);
        long a = CompactStore.key(Hashing.hash(new long[] {1}, 0, 1));
        long other = a ^ (1L << 63);
        assertThat(s.put(a)).isTrue();
        assertThat(s.contains(Hashing.hash(new long[] {1}, 0, 1))).isTrue();
        assertThat(s.contains(Hashing.hash(new long[] {2}, 0, 1))).isFalse();
        assertThat(s.put(other)).as("another table: no budget left for it").isFalse();
    }
}
