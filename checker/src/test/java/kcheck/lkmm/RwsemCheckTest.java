package kcheck.lkmm;

import static kcheck.model.rwsem.RwsemBits.RWSEM_READER_BIAS;
import static kcheck.model.rwsem.RwsemBits.RWSEM_READ_FAILED_MASK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.litmus.GraphSearch;
import kcheck.model.MemoryOrder;
import kcheck.model.ModelInputException;
import kcheck.model.rwsem.RwSem;
import kcheck.model.rwsem.RwsemOwnerFactory;
import kcheck.model.rwsem.RwsemV612;
import kcheck.model.rwsem.RwsemVariant;

class RwsemCheckTest {
    private static final Set<String> ALL = Set.copyOf(LkmmCheck.PROPERTIES);

    private static Map<String, String> verdicts(LkmmCheck.Result r) {
        Map<String, String> m = new LinkedHashMap<>();
        r.verdicts().forEach(v -> m.put(v.property(), v.verdict()));
        return m;
    }

    private static LkmmCheck.Result check(RwsemVariant v, int readers, int writers) {
        return RwsemCheck.check(v, readers, writers, 1, ALL, null, 2_000_000);
    }

    @Test
    void v612HoldsEveryPropertyWithAReaderAndAWriter() {
        LkmmCheck.Result r = check(new RwsemV612(), 1, 1);
        assertThat(verdicts(r)).containsEntry(LkmmCheck.MUTUAL_EXCLUSION, "HOLDS").containsEntry(GraphSearch.HANG, "HOLDS")
                .containsEntry(GraphSearch.RACE, "HOLDS");
        assertThat(r.executions()).isPositive();
    }

    @Test
    void withoutTheQueueEmptyAcquireTheReaderReadsInsideTheWritersSection() {
        LkmmCheck.Result r = check(RwsemOwnerFactory.implementation("bug-e1b98fa31664"), 1, 1);
        assertThat(verdicts(r)).containsEntry(LkmmCheck.MUTUAL_EXCLUSION, "VIOLATED").containsEntry(GraphSearch.HANG, "HOLDS");
        LkmmCheck.Verdict v = r.verdicts().stream().filter(x -> x.property().equals(LkmmCheck.MUTUAL_EXCLUSION)).findFirst().orElseThrow();
        /* after its count load saw the writer gone, the reader's critical section reads cs from before the writer's end */
        assertThat(v.witness()).containsPattern("R\\[once\\] count = 256 <- t1#").containsPattern("R\\[once\\] cs = [01] <- ")
                .contains("rwsem_down_read_slowpath");
    }

    @Test
    void aPlainLoadOfWaiterTaskLetsTheWokenReaderReadInsideTheWritersSection() {
        LkmmCheck.Result r = check(RwsemOwnerFactory.implementation("bug-99143f82a255"), 1, 1);
        assertThat(verdicts(r)).containsEntry(LkmmCheck.MUTUAL_EXCLUSION, "VIOLATED").containsEntry(GraphSearch.RACE, "VIOLATED");
        LkmmCheck.Verdict v = r.verdicts().stream().filter(x -> x.property().equals(LkmmCheck.MUTUAL_EXCLUSION)).findFirst().orElseThrow();
        assertThat(v.witness()).contains("R[plain] t0.waiter.task = 0 <- t1#").containsPattern("R\\[once\\] cs = [01] <- ");
    }

    /** Is this barrier needed? The read fast path's _acquire: yes. */
    @Test
    void aRelaxedReadFastPathIsViolated() {
        RwsemV612 relaxed = new RwsemV612() {
            @Override
            protected boolean rwsemReadTrylock(RwSem sem) {
                sem.order(MemoryOrder.RMW_RELAXED);
                downCount = sem.atomicLongAddReturn(RWSEM_READER_BIAS);
                if ((downCount & RWSEM_READ_FAILED_MASK) == 0) {
                    rwsemSetReaderOwned(sem);
                    return true;
                }
                return false;
            }
        };
        assertThat(verdicts(check(relaxed, 1, 1))).containsEntry(LkmmCheck.MUTUAL_EXCLUSION, "VIOLATED");
    }

    /**
     * Is this barrier needed? up_read's _release: yes. The reader's section stores its section number, and a writer that
     * takes the lock after the relaxed release may miss that store while the reader read cs from before the writer.
     */
    @Test
    void aRelaxedUpReadIsViolated() {
        RwsemV612 relaxed = new RwsemV612() {
            @Override
            protected void __upRead(RwSem sem) {
                sem.preemptDisable();
                sem.order(MemoryOrder.RMW_RELAXED);
                long tmp = sem.atomicLongAddReturn(-RWSEM_READER_BIAS);
                if ((tmp & (kcheck.model.rwsem.RwsemBits.RWSEM_LOCK_MASK | kcheck.model.rwsem.RwsemBits.RWSEM_FLAG_WAITERS))
                        == kcheck.model.rwsem.RwsemBits.RWSEM_FLAG_WAITERS) {
                    clearNonspinnable(sem);
                    rwsemWake(sem);
                }
                sem.preemptEnable();
            }
        };
        LkmmCheck.Result r = check(relaxed, 1, 1);
        assertThat(verdicts(r)).containsEntry(LkmmCheck.MUTUAL_EXCLUSION, "VIOLATED");
        assertThat(r.verdicts().stream().filter(v -> v.property().equals(LkmmCheck.MUTUAL_EXCLUSION)).findFirst().orElseThrow().message())
                .contains("neither section was ordered before the other");
    }

    @Test
    void missingEachOtherIsFoundInTheRunsAndOrderedSectionsAreNot() {
        java.util.function.BiFunction<long[], long[], List<GraphSearch.Run>> runs = (reader, writer) -> List.of(
                new GraphSearch.Run(List.of(new GraphSearch.Access(GraphSearch.Kind.READ, "cs", reader[0], GraphSearch.ONCE, null, 0, 0, -1,
                        RwsemProgram.READER_READ)), GraphSearch.Next.END, null, 0),
                new GraphSearch.Run(List.of(
                        new GraphSearch.Access(GraphSearch.Kind.READ, "cs", writer[0], GraphSearch.ONCE, null, 0, 0, -1, RwsemProgram.WRITER_READ),
                        new GraphSearch.Access(GraphSearch.Kind.READ, "t0.section", writer[1], GraphSearch.ONCE, null, 0, 0, -1, "")),
                        GraphSearch.Next.END, null, 0));
        /* reader first: the writer sees its section; writer first: the reader sees cs = 2 */
        assertThat(RwsemCheck.missedEachOther(runs.apply(new long[] {0}, new long[] {0, 1}), 1)).isNull();
        assertThat(RwsemCheck.missedEachOther(runs.apply(new long[] {2}, new long[] {0, 0}), 1)).isNull();
        assertThat(RwsemCheck.missedEachOther(runs.apply(new long[] {0}, new long[] {0, 0}), 1)).contains("neither section");
    }

    @Test
    void anOperationWithoutItsOrderingIsRefused() {
        RwsemV612 unstated = new RwsemV612() {
            @Override
            protected void rwsemClearOwner(RwSem sem) {
                sem.writeOwner(0);
            }
        };
        assertThatThrownBy(() -> check(unstated, 1, 1)).isInstanceOf(ModelInputException.class)
                .hasMessageContaining("states no ordering");
    }

    @Test
    void aPortBeforeV511IsRefused() {
        assertThatThrownBy(() -> check(RwsemOwnerFactory.implementation("v5.4"), 1, 1)).isInstanceOf(ModelInputException.class);
    }

    @Test
    void theWaitListRoundTrips() {
        long[] l = {2, 0, 1};
        assertThat(RwsemMemory.WaitList.decode(RwsemMemory.WaitList.encode(l, 3), 3)).containsExactly(2, 0, 1);
        assertThat(RwsemMemory.WaitList.decode(0, 3)).isEmpty();
    }

    /** rwsem_mark_wake with WRITE_ONCE(waiter->task, NULL) instead of smp_store_release (the only release it states). */
    private static RwsemV612 grantOnce() {
        return new RwsemV612() {
            @Override
            protected void rwsemMarkWake(RwSem sem, int wakeType) {
                RwSem weaker = (RwSem) java.lang.reflect.Proxy.newProxyInstance(RwSem.class.getClassLoader(), new Class<?>[] {RwSem.class},
                        (p, m, a) -> {
                            Object[] args = m.getName().equals("order") && a[0] == MemoryOrder.RELEASE ? new Object[] {MemoryOrder.ONCE} : a;
                            try {
                                return m.invoke(sem, args);
                            } catch (java.lang.reflect.InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
                super.rwsemMarkWake(weaker, wakeType);
            }
        };
    }

    /**
     * Is this barrier needed? rwsem_mark_wake's smp_store_release(&waiter->task, NULL), made WRITE_ONCE: not at 1 reader
     * + 1 writer, where the writer grants after mark_wake's fully ordered atomic_long_fetch_add (rwsem.c:456).
     */
    @Test
    void aGrantWithoutReleaseHoldsWhenTheWriterItselfGrants() {
        assertThat(verdicts(check(grantOnce(), 1, 1))).containsEntry(LkmmCheck.MUTUAL_EXCLUSION, "HOLDS");
    }

    /**
     * ... but needed at 2 readers + 1 writer: a reader that steals the lock after the writer's release wakes the sleeping
     * reader with RWSEM_WAKE_READ_OWNED (no fetch_add), and without the release the chain writer -> stealer -> sleeper
     * is not cumulative under LKMM: the woken reader reads the writer's first store. About 2 minutes.
     */
    @Test
    @org.junit.jupiter.api.Tag("long")
    void aGrantWithoutReleaseIsViolatedWhenAReaderThatStoleTheLockGrants() {
        LkmmCheck.Result r = RwsemCheck.check(grantOnce(), 2, 1, 1, Set.of(LkmmCheck.MUTUAL_EXCLUSION), null, 2_000_000);
        assertThat(verdicts(r)).containsEntry(LkmmCheck.MUTUAL_EXCLUSION, "VIOLATED");
        assertThat(r.verdicts().get(0).witness()).contains("W[once] t0.waiter.task = 0").containsPattern("R\\[once\\] cs = [01] <- ");
    }

    /** v6.12 at 2 readers + 1 writer: every default property holds (about 2 minutes). */
    @Test
    @org.junit.jupiter.api.Tag("long")
    void v612HoldsWithTwoReadersAndAWriter() {
        LkmmCheck.Result r = RwsemCheck.check(new RwsemV612(), 2, 1, 1, Set.of(), null, 2_000_000);
        assertThat(verdicts(r)).containsEntry(LkmmCheck.MUTUAL_EXCLUSION, "HOLDS").containsEntry(GraphSearch.HANG, "HOLDS");
        assertThat(r.graphs()).isGreaterThan(100_000);
    }
}
