package kcheck.model.rwsem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The v6.12 port's functions under wait_lock on a concrete wait list, as conform rwsem-owner sends them to the C. */
class RwsemWaitPathsTest {

    private static List<RwsemWaitPaths.Run> runs(int waiters) {
        List<RwsemWaitPaths.Run> out = new ArrayList<>();
        RwsemWaitPaths.forCalls(waiters, 3, new RwsemWaitPaths.Stats(), out::add);
        return out;
    }

    @Test
    void markWakeGrantsEveryReaderInListOrderAndLeavesTheWriters() {
        /* two readers around a writer, RWSEM_WAKE_ANY, every count read 0 (no writer holds the lock) */
        List<RwsemWaitPaths.Run> all = new ArrayList<>();
        RwsemWaitPaths.forList('M', 0, "rwr", 3, new RwsemWaitPaths.Stats(), all::add);
        RwsemWaitPaths.Run r = all.stream().filter(x -> x.input().startsWith("M 0 4 -1 ") && x.input().contains(" Lrwr ")
                && x.input().endsWith(" c0 c0 o0 c0 -")).findFirst().orElseThrow();
        assertThat(r.text()).isEqualTo("count load ONCE ; count fetch_add 100 RMW_FULL ; owner load ONCE ; owner store t1|R ONCE ; count load ONCE ; "
                + "count add 100 RMW_RELAXED ; waiter.task store RELEASE ; wake_q_add t1 ; waiter.task store RELEASE ; wake_q_add t3 ; "
                + "list t2w ; done");
    }

    @Test
    void markWakeOfAWriterAtTheFrontQueuesItOnlyForWakeAny() {
        List<RwsemWaitPaths.Run> all = runs(1);
        assertThat(all).anySatisfy(r -> {
            assertThat(r.input()).startsWith("M 0 2 -1 1 Lw");
            assertThat(r.text()).isEqualTo("wake_q_add t1 ; list t1w ; done");
        });
        assertThat(all).anySatisfy(r -> {
            assertThat(r.input()).startsWith("M 1 2 -1 1 Lw");
            assertThat(r.text()).isEqualTo("list t1w ; done");
        });
    }

    @Test
    void tryWriteLockOnAnUnlockedSemTakesItAndLeavesTheList() {
        RwsemWaitPaths.Run r = runs(1).stream().filter(x -> x.input().equals("T 1 2 -1 3 Lw c0 c0")).findFirst().orElseThrow();
        assertThat(r.text()).isEqualTo("count load ONCE ; count cmpxchg 0 1 RMW_ACQUIRE ; owner store t1 ONCE ; returns 1 ; list - ; done");
    }

    @Test
    void theReaderSlowPathStealsAnUnownedLockAndQueuesBehindAWriter() {
        List<RwsemWaitPaths.Run> all = new ArrayList<>();
        RwsemWaitPaths.forReaderSlowPath(1, 3, new RwsemWaitPaths.Stats(), r -> {
            if (r.input().startsWith("S ")) {
                all.add(r);
            }
        });
        /* count 0x100 (its own bias), owner NULL: the reader steals the lock and marks itself the owner */
        assertThat(all).anySatisfy(r -> {
            assertThat(r.input()).isEqualTo("S 0 2 -1 3 c100 o0 o0");
            assertThat(r.text()).isEqualTo("owner load ONCE ; owner load ONCE ; owner store t0|R ONCE ; returns 1 ; list - ; done");
        });
        /* count 0x101 (a writer holds it): the reader queues behind the writer t1 it finds, sleeps, and is granted */
        assertThat(all).anySatisfy(r -> {
            assertThat(r.input()).startsWith("S 0 2 -1 ").contains(" c101 o0 - Lw ");
            assertThat(r.text()).startsWith("owner load ONCE ; jiffies ; wait_lock lock ; count add_return ffffffffffffff00 RMW_FULL ; "
                    + "wait_lock unlock ; set_current_state ; waiter.task load ACQUIRE");
        });
    }

    @Test
    void theWriterWithNeedReschedClearAfterItsFirstTestSpinsOnARunningOwnerInItsWaitLoop() {
        List<RwsemWaitPaths.Run> spins = new ArrayList<>();
        RwsemWaitPaths.Stats s = new RwsemWaitPaths.Stats();
        RwsemWaitPaths.forWriterSlowPath(2, 1, 0, s, r -> {
            if (r.text().contains("on_cpu ")) {
                spins.add(r);
            }
        });
        assertThat(s.perKind).containsOnlyKeys("X2");
        /* the first need_resched is set (b1: the optimistic spin gives up); a later one found clear (b0) lets the spin read on_cpu */
        assertThat(spins).isNotEmpty().allSatisfy(r -> {
            assertThat(r.text()).startsWith("need_resched ; ");
            assertThat(r.input()).contains(" b1 ").contains(" b0 ");
        });
        assertThat(spins).anySatisfy(r -> assertThat(r.text()).containsPattern("on_cpu t\\d ; owner load ONCE"));
    }

    @Test
    void everyKindRunsOnEveryList() {
        RwsemWaitPaths.Stats s = new RwsemWaitPaths.Stats();
        RwsemWaitPaths.forEach(2, 0, s, r -> { });
        assertThat(s.perKind.keySet()).containsExactlyInAnyOrder("M0", "M1", "M2", "T", "D", "S", "X", "X2");
        assertThat(s.runs).isEqualTo(s.perKind.values().stream().mapToLong(Long::longValue).sum()).isGreaterThan(10_000);
    }
}
