package kcheck.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import kcheck.engine.Hashing;

class ExactStoreTest {

    private static long add(ExactStore s, Ids.Block b, long... state) {
        assertThat(b.ready()).isTrue();
        return s.add(state, Hashing.hash(state, 0, state.length), b);
    }

    @Test
    void addsEachStateOnceAndFindsItById() {
        Ids ids = new Ids(1_000_000);
        ExactStore s = new ExactStore(2, 1_000_000, new MemoryBudget(1L << 30), false, ids);
        Ids.Block b = ids.block();
        for (long i = 0; i < 100_000; i++) {
            assertThat(add(s, b, i, i * 31)).isEqualTo(i);
        }
        for (long i = 0; i < 100_000; i += 997) {
            assertThat(add(s, b, i, i * 31)).isEqualTo(StateStore.PRESENT);
            long[] st = {i, i * 31};
            assertThat(s.find(st, Hashing.hash(st, 0, 2))).isEqualTo(i);
            long[] out = new long[2];
            s.load(i, out);
            assertThat(out).containsExactly(i, i * 31);
        }
        assertThat(s.size()).isEqualTo(100_000);
        assertThat(s.bytesPerState()).as("8 + state width").isLessThanOrEqualTo(8 + 16);
    }

    @Test
    void idBlocksRunOutAtTheStateLimit() {
        Ids ids = new Ids(10);
        ExactStore s = new ExactStore(1, 10, new MemoryBudget(1L << 30), false, ids);
        Ids.Block b = ids.block();
        for (long i = 0; i < 10; i++) {
            assertThat(add(s, b, i)).isEqualTo(i);
        }
        assertThat(b.ready()).isFalse();
    }

    @Test
    void twoWorkersGetDisjointBlocksAndReleasedTailsAreHoles() {
        Ids ids = new Ids(1_000_000);
        ExactStore s = new ExactStore(1, 1_000_000, new MemoryBudget(1L << 30), true, ids);
        Ids.Block a = ids.block();
        Ids.Block c = ids.block();
        long x = add(s, a, 1);
        long y = add(s, c, 2);
        assertThat(y - x).isEqualTo(Ids.BLOCK);
        long[] hole = a.release();
        assertThat(hole).containsExactly(x + 1, x + Ids.BLOCK);
        assertThat(ids.holes()).isEqualTo(Ids.BLOCK - 1);
    }

    @Test
    void widensIdsPastTheFirstTagWidth() {
        Ids ids = new Ids(3_000_000);
        ExactStore s = new ExactStore(1, 3_000_000, new MemoryBudget(1L << 31), false, ids);
        Ids.Block b = ids.block();
        int n = (1 << 20) + 5000;
        for (long i = 0; i < n; i++) {
            assertThat(add(s, b, i)).isEqualTo(i);
        }
        for (long i = 0; i < n; i += 4099) {
            long[] st = {i};
            assertThat(s.find(st, Hashing.hash(st, 0, 1))).isEqualTo(i);
        }
    }
}
