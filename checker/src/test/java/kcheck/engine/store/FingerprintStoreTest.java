package kcheck.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import kcheck.engine.Hashing;
import kcheck.engine.Options;

/** The fingerprint store's limits and its memory accounting, with states placed in one shard by hash. */
class FingerprintStoreTest {

    /** Hashes of the first {@code n} one-word states whose hash falls in shard 0. */
    private static long[] hashesInShardZero(int n) {
        long[] out = new long[n];
        int k = 0;
        for (long v = 1; k < n; v++) {
            long h = Hashing.hash(new long[] {v}, 0, 1);
            if (Shards.shard(h) == 0) {
                out[k++] = h;
            }
        }
        return out;
    }

    @Test
    void refusesBeyondTheStateLimit() {
        FingerprintStore s = new FingerprintStore(10, new MemoryBudget(1L << 30), false);
        for (long i = 0; i < 10; i++) {
            assertThat(s.add(new long[] {i}, Hashing.hash(new long[] {i}, 0, 1))).isNotNegative();
        }
        assertThat(s.add(new long[] {3}, Hashing.hash(new long[] {3}, 0, 1))).as("present, not new").isEqualTo(StateStore.PRESENT);
        assertThat(s.add(new long[] {99}, Hashing.hash(new long[] {99}, 0, 1))).isEqualTo(StateStore.FULL);
        assertThat(s.fullReason()).isEqualTo("state limit");
        assertThat(s.size()).isEqualTo(10);
    }

    @Test
    void theBudgetHoldsEachTableOnlyWhileItIsInUse() {
        /*
         * One shard: the 64 first tables (256 longs), then tables of 384 and 576 slots, each replacing
         * the one before: exactly that much budget takes 460 states; the 461st needs 864 slots
         */
        long budgetBytes = 64 * 256 * 8 + 384 * 8 + 576 * 8 - 256 * 8;
        MemoryBudget b = new MemoryBudget(budgetBytes);
        FingerprintStore s = new FingerprintStore(Options.DEFAULT_MAX_STATES, b, false);
        long[] h = hashesInShardZero(461);
        for (int i = 0; i < 460; i++) {
            assertThat(s.add(null, h[i])).as("state %d", i).isEqualTo(StateStore.id(0, i));
        }
        assertThat(b.used()).isEqualTo(budgetBytes - 384 * 8);
        assertThat(s.add(null, h[460])).isEqualTo(StateStore.FULL);
        assertThat(s.fullReason()).isEqualTo("memory budget");
        assertThat(b.used()).isEqualTo(budgetBytes - 384 * 8);
        for (int i = 0; i < 460; i++) {
            assertThat(s.add(null, h[i])).isEqualTo(StateStore.PRESENT);
        }
        assertThat(s.bytes()).isEqualTo(63 * 256 * 8 + 576 * 8);
    }

    @Test
    void omissionProbabilityIsStatesTimesExtraTransitionsOver2To64() {
        assertThat(FingerprintStore.omissionProbability(1L << 32, (1L << 32) + 2)).isEqualTo(0x1p-31);
        assertThat(FingerprintStore.omissionProbability(1000, 10)).isZero();
    }
}
