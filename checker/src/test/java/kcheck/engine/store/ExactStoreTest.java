package kcheck.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kcheck.engine.Hashing;
import kcheck.engine.Options;

class ExactStoreTest {

    private static long add(StateStore s, long... state) {
        return s.add(state, Hashing.hash(state, 0, state.length));
    }

    @Test
    void addsEachStateOnceAndFindsItById() {
        ExactStore s = new ExactStore(2, Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), false);
        long[] ids = new long[100_000];
        Set<Long> distinct = new HashSet<>();
        for (int i = 0; i < ids.length; i++) {
            ids[i] = add(s, i, i * 31L);
            assertThat(ids[i]).isNotNegative();
            distinct.add(ids[i]);
        }
        assertThat(distinct).hasSize(ids.length);
        for (int i = 0; i < ids.length; i += 997) {
            assertThat(add(s, i, i * 31L)).isEqualTo(StateStore.PRESENT);
            long[] st = {i, i * 31L};
            assertThat(s.find(st, Hashing.hash(st, 0, 2))).isEqualTo(ids[i]);
            long[] out = new long[2];
            s.load(ids[i], out);
            assertThat(out).containsExactly(i, i * 31L);
        }
        assertThat(s.size()).isEqualTo(100_000);
        assertThat(s.bytesPerState()).as("8 + state width").isLessThanOrEqualTo(8 + 16);
    }

    @Test
    void idsAreDensePerShardSoALevelIsOneRangePerShard() {
        ExactStore s = new ExactStore(1, Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), false);
        for (long i = 0; i < 10_000; i++) {
            add(s, i);
        }
        long total = 0;
        for (int k = 0; k < s.shards(); k++) {
            total += s.count(k);
            for (long local = 0; local < s.count(k); local++) {
                long[] out = new long[1];
                s.load(StateStore.id(k, local), out);
                assertThat(s.find(out, Hashing.hash(out, 0, 1))).isEqualTo(StateStore.id(k, local));
            }
        }
        assertThat(total).isEqualTo(10_000);
    }

    @Test
    void refusesBeyondTheStateLimit() {
        ExactStore s = new ExactStore(1, 10, new MemoryBudget(1L << 30), false);
        for (long i = 0; i < 10; i++) {
            assertThat(add(s, i)).isNotNegative();
        }
        assertThat(add(s, 99)).isEqualTo(StateStore.FULL);
        assertThat(s.fullReason()).isEqualTo("state limit");
    }

    @Test
    void shardsWidenTheirIdsPastTheFirstTagWidth() {
        ExactStore s = new ExactStore(1, Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 31), false);
        int n = 64 * (1 << 16) + 5000;
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = add(s, i);
        }
        for (int i = 0; i < n; i += 4099) {
            long[] st = {i};
            assertThat(s.find(st, Hashing.hash(st, 0, 1))).isEqualTo(ids[i]);
        }
        assertThat(s.size()).isEqualTo(n);
    }

    @Test
    void memoryBudgetRefusesInsteadOfRunningOut() {
        ExactStore s = new ExactStore(4, Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 20), false);
        long last = 0;
        for (long i = 0; i < 1_000_000 && last >= 0; i++) {
            last = add(s, i, i, i, i);
        }
        assertThat(last).isEqualTo(StateStore.FULL);
        assertThat(s.fullReason()).isEqualTo("memory budget");
    }

    /**
     * Four threads insert overlapping sets. Nothing is asserted on the workers (an assertion failing
     * there would only kill that thread): they record what they saw, and the test thread checks it
     * after joining them; an exception on a worker fails the test.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void concurrentInsertsOfOverlappingSetsStoreEachStateExactlyOnce() throws Exception {
        for (boolean exact : new boolean[] {true, false}) {
            StateStore s = exact ? new ExactStore(2, Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 31), true)
                    : new FingerprintStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 31), true);
            int n = 300_000;
            int threads = 4;
            ConcurrentHashMap<Long, Long> idOf = new ConcurrentHashMap<>();
            ConcurrentLinkedQueue<String> storedTwice = new ConcurrentLinkedQueue<>();
            AtomicLong news = new AtomicLong();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final int seed = t;
                Thread th = new Thread(() -> {
                    Random r = new Random(seed);
                    for (int k = 0; k < 2 * n; k++) {
                        /* every state in this thread's order (ascending or descending), interleaved with random repeats */
                        long v = k % 2 == 1 ? r.nextInt(n) : seed % 2 == 0 ? k / 2 : n - 1 - k / 2;
                        long[] st = {v, ~v};
                        long id = s.add(st, Hashing.hash(st, 0, 2));
                        if (id >= 0) {
                            news.incrementAndGet();
                            Long before = idOf.putIfAbsent(v, id);
                            if (before != null) {
                                storedTwice.add("state " + v + " stored twice: ids " + before + " and " + id);
                            }
                        }
                    }
                }, "inserter " + t);
                th.setDaemon(true);
                th.setUncaughtExceptionHandler((x, e) -> failures.add(e));
                ts.add(th);
            }
            ts.forEach(Thread::start);
            for (Thread t : ts) {
                t.join();
            }
            assertThat(failures).as("exceptions on the inserting threads").isEmpty();
            assertThat(storedTwice).as(exact ? "exact store" : "fingerprint store").isEmpty();
            assertThat(news.get()).isEqualTo(n);
            assertThat(s.size()).isEqualTo(n);
            assertThat(new HashSet<>(idOf.values())).hasSize(n);
            if (s instanceof ExactStore e) {
                long[] out = new long[2];
                for (long v = 0; v < n; v += 101) {
                    e.load(idOf.get(v), out);
                    assertThat(out).containsExactly(v, ~v);
                }
            }
        }
    }

    /** The first {@code n} states {v} (or {v, v} for width 2) whose hash falls in shard 0. */
    private static long[][] inShardZero(int n, int width) {
        long[][] out = new long[n][];
        int k = 0;
        for (long v = 1; k < n; v++) {
            long[] s = width == 1 ? new long[] {v} : new long[] {v, v};
            if (Shards.shard(Hashing.hash(s, 0, width)) == 0) {
                out[k++] = s;
            }
        }
        return out;
    }

    @Test
    void aShardWidensItsIdsBeforeAnIdOverflowsIntoTheTag() {
        /* 65 600 states in one shard pass 2^16 - 1 local ids; every state is found again right after it is added */
        ExactStore s = new ExactStore(1, Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), false);
        long[][] states = inShardZero(65_600, 1);
        for (int i = 0; i < states.length; i++) {
            long[] st = states[i];
            long h = Hashing.hash(st, 0, 1);
            assertThat(s.add(st, h)).isEqualTo(StateStore.id(0, i));
            assertThat(s.add(st, h)).as("state %d added again", i).isEqualTo(StateStore.PRESENT);
            assertThat(s.find(st, h)).isEqualTo(StateStore.id(0, i));
        }
        assertThat(s.count(0)).isEqualTo(65_600);
    }

    @Test
    void oneShardMayHoldMoreThanItsEvenShareOfTheStateLimit() {
        /* limit 2 000 000: an even share is 31 250 a shard; one shard holding 20 000 of 20 000 states is fine */
        ExactStore s = new ExactStore(1, 2_000_000, new MemoryBudget(1L << 30), false);
        for (long[] st : inShardZero(20_000, 1)) {
            assertThat(s.add(st, Hashing.hash(st, 0, 1))).isNotNegative();
        }
    }

    @Test
    void aShardPastItsChunkSlotsRefusesForMemoryInsteadOfFailing() {
        /* limit 100 000: each shard has room for 3 chunks of 4096 states */
        ExactStore s = new ExactStore(1, 100_000, new MemoryBudget(1L << 30), false);
        long[][] states = inShardZero(3 * 4096 + 1, 1);
        for (int i = 0; i < 3 * 4096; i++) {
            assertThat(s.add(states[i], Hashing.hash(states[i], 0, 1))).isNotNegative();
        }
        long[] last = states[3 * 4096];
        assertThat(s.add(last, Hashing.hash(last, 0, 1))).isEqualTo(StateStore.FULL);
        assertThat(s.fullReason()).isEqualTo("memory budget");
    }

    @Test
    void theBudgetHoldsEachTableOnlyWhileItIsInUse() {
        /*
         * One shard, width 2: the 64 first tables (256 slots, 4 bytes each), one chunk of 4096 states
         * (64 KiB), then the tables of 384 and 576 slots, each replacing the one before: exactly
         * that much budget takes 460 states; the 461st needs a table of 864 slots and is refused
         */
        long budgetBytes = 64 * 256 * 4 + 4096 * 2 * 8 + 384 * 4 + 576 * 4 - 256 * 4;
        MemoryBudget b = new MemoryBudget(budgetBytes);
        ExactStore s = new ExactStore(2, Options.DEFAULT_MAX_STATES, b, false);
        long[][] states = inShardZero(461, 2);
        for (int i = 0; i < 460; i++) {
            assertThat(s.add(states[i], Hashing.hash(states[i], 0, 2))).as("state %d", i).isEqualTo(StateStore.id(0, i));
        }
        assertThat(b.used()).isEqualTo(budgetBytes - 384 * 4);
        assertThat(s.add(states[460], Hashing.hash(states[460], 0, 2))).isEqualTo(StateStore.FULL);
        assertThat(s.fullReason()).isEqualTo("memory budget");
        assertThat(b.used()).isEqualTo(budgetBytes - 384 * 4);
    }

    @Test
    void wideStatesTakeTheBudgetInSmallChunksNotFourThousandAtATime() {
        /* 32,000-byte states: 4,096 of them would be 131 MB, more than the whole budget, for a shard's first state */
        int width = 4000;
        MemoryBudget b = new MemoryBudget(32L << 20);
        ExactStore s = new ExactStore(width, Options.DEFAULT_MAX_STATES, b, false);
        Random rnd = new Random(5);
        for (int i = 0; i < 500; i++) {
            long[] st = new long[width];
            st[0] = i;
            st[width - 1] = rnd.nextLong();
            assertThat(s.add(st, Hashing.hash(st, 0, width))).as("state %d", i).isNotNegative();
        }
        assertThat(b.used()).as("64 shards' chunks of 8 states, 256 KiB each, and their tables").isLessThan(24L << 20);
    }

    @Test
    void findOfAnAbsentStateIsMinusOne() {
        ExactStore s = new ExactStore(1, Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), false);
        for (long i = 0; i < 1000; i++) {
            add(s, i);
        }
        long[] absent = {5000};
        assertThat(s.find(absent, Hashing.hash(absent, 0, 1))).isEqualTo(-1);
    }

    @Test
    void bytesCountTheTablesAndTheChunksInUse() {
        /* 10 states of width 3, before any table grows: 64 tables of 256 ints, one chunk of 4096 * 3 longs per shard used */
        ExactStore s = new ExactStore(3, Options.DEFAULT_MAX_STATES, new MemoryBudget(1L << 30), false);
        java.util.Set<Integer> shards = new HashSet<>();
        for (long i = 0; i < 10; i++) {
            long[] st = {i, 2 * i, 3 * i};
            shards.add(Shards.shard(Hashing.hash(st, 0, 3)));
            s.add(st, Hashing.hash(st, 0, 3));
        }
        assertThat(s.bytes()).isEqualTo(64L * 256 * 4 + shards.size() * 4096L * 3 * 8);
        assertThat(s.bytesPerState()).isEqualTo(64.0 * 256 * 4 / 10 + 8.0 * 3);
    }
}
