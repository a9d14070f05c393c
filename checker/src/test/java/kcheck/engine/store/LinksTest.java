package kcheck.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Trace links: room per shard for the state limit, refusal instead of failure beyond it or beyond the budget. */
class LinksTest {

    @Test
    void aShardKeepsLinksForThreeChunksUnderALimitOf100000AndRefusesTheFourth() {
        /* 100 000 / 64 * 5 / 4 + 4096 states a shard: 1 full chunk + 2 spare = 3 chunks of 4096 */
        Links l = new Links(100_000, new MemoryBudget(1L << 30));
        for (long local : new long[] {0, 4096, 3 * 4096 - 1}) {
            long id = StateStore.id(5, local);
            assertThat(l.set(id, local - 1, 7)).as("local %d", local).isTrue();
            assertThat(l.parent(id)).isEqualTo(local - 1);
            assertThat(l.ordinal(id)).isEqualTo(7);
        }
        assertThat(l.set(StateStore.id(5, 3 * 4096), 0, 0)).isFalse();
    }

    @Test
    void aChunkTheBudgetCannotHoldIsRefused() {
        MemoryBudget b = new MemoryBudget(4096 * 6 + 10);
        Links l = new Links(1_000_000, b);
        assertThat(l.set(StateStore.id(0, 0), -1, 0)).isTrue();
        assertThat(b.used()).isEqualTo(4096 * 6);
        assertThat(l.set(StateStore.id(1, 0), -1, 0)).as("a second chunk").isFalse();
        assertThat(l.set(StateStore.id(0, 1), 0, 3)).as("the first chunk has room").isTrue();
        assertThat(l.parent(StateStore.id(0, 1))).isZero();
    }
}
