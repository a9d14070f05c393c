package kcheck.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import kcheck.engine.Hashing;

class ExactStoreTest {

    @Test
    void addsEachStateOnceAndFindsItById() {
        ExactStore s = new ExactStore(2, 1_000_000, new MemoryBudget(1L << 30), false);
        for (long i = 0; i < 100_000; i++) {
            long[] st = {i, i * 31};
            assertThat(s.add(st, Hashing.hash(st, 0, 2))).isEqualTo(i);
        }
        for (long i = 0; i < 100_000; i += 997) {
            long[] st = {i, i * 31};
            assertThat(s.add(st, Hashing.hash(st, 0, 2))).isEqualTo(StateStore.PRESENT);
            assertThat(s.find(st, Hashing.hash(st, 0, 2))).isEqualTo(i);
            long[] out = new long[2];
            s.load(i, out);
            assertThat(out).containsExactly(i, i * 31);
        }
        assertThat(s.size()).isEqualTo(100_000);
        assertThat(s.bytesPerState()).isLessThanOrEqualTo(8 + 16);
    }

    @Test
    void refusesBeyondTheStateLimit() {
        ExactStore s = new ExactStore(1, 10, new MemoryBudget(1L << 30), false);
        for (long i = 0; i < 10; i++) {
            assertThat(s.add(new long[] {i}, Hashing.hash(new long[] {i}, 0, 1))).isEqualTo(i);
        }
        assertThat(s.add(new long[] {99}, Hashing.hash(new long[] {99}, 0, 1))).isEqualTo(StateStore.FULL);
        assertThat(s.fullReason()).isEqualTo("state limit");
    }

    @Test
    void widensIdsPastTheFirstTagWidth() {
        ExactStore s = new ExactStore(1, 3_000_000, new MemoryBudget(1L << 31), false);
        int n = (1 << 20) + 5000;
        for (long i = 0; i < n; i++) {
            long[] st = {i};
            assertThat(s.add(st, Hashing.hash(st, 0, 1))).isEqualTo(i);
        }
        for (long i = 0; i < n; i += 4099) {
            long[] st = {i};
            assertThat(s.find(st, Hashing.hash(st, 0, 1))).isEqualTo(i);
        }
    }
}
