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
}
