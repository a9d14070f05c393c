package kcheck.lkmm;

import kcheck.model.MemoryOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import kcheck.model.rqlock.QSpinlock;
import kcheck.model.rqlock.QSpinlockRealBugs;
import kcheck.model.rqlock.RqSpinlock;

/**
 * The v6.12 qspinlock port under LKMM: every property holds at 2 CPUs, and weakening one of its
 * orderings (the unlock's release, the fast path's acquire) breaks mutual exclusion; a step that
 * does not state its ordering is refused.
 */
class LkmmCheckTest {

    private static Map<String, String> verdicts(RqSpinlock lock, int cpus, int rounds) {
        LkmmCheck.Result r = LkmmCheck.check(lock, cpus, rounds, Set.of(), null, 2_000_000);
        return r.verdicts().stream().collect(Collectors.toMap(LkmmCheck.Verdict::property, LkmmCheck.Verdict::verdict));
    }

    @Test
    void v612QspinlockHoldsEveryPropertyAtTwoCpus() {
        LkmmCheck.Result r = LkmmCheck.check(new QSpinlock(), 2, 1, Set.of(), null, 2_000_000);
        assertThat(r.incomplete()).isNull();
        assertThat(r.executions()).isPositive();
        assertThat(verdicts(new QSpinlock(), 2, 1)).containsOnly(Map.entry("mutual-exclusion", "HOLDS"),
                Map.entry("deadlock-free", "HOLDS"));
        assertThat(LkmmCheck.check(new QSpinlock(), 2, 1, Set.of("data-race-free"), null, 2_000_000).verdicts().get(0).verdict())
                .isEqualTo("HOLDS");
    }

    /** About 11 s: in .ci/run's long tests (JUnit tag "long"); the default build checks 2 CPUs above, and 3 for data races below. */
    @Test
    @org.junit.jupiter.api.Tag("long")
    void v612QspinlockHoldsMutualExclusionAndDeadlockFreedomAtThreeCpusWithItsQueue() {
        LkmmCheck.Result r = LkmmCheck.check(new QSpinlock(), 3, 1, Set.of(), null, 5_000_000);
        assertThat(r.incomplete()).isNull();
        assertThat(r.verdicts()).extracting(LkmmCheck.Verdict::verdict).containsOnly("HOLDS");
    }

    @Test
    void lkmmFlagsTheMcsNodesPlainInitialisationAgainstThePredecessorsStoreReleaseAndNamesThePair() {
        LkmmCheck.Verdict v = LkmmCheck.check(new QSpinlock(), 3, 1, Set.of("data-race-free"), null, 5_000_000).verdicts().get(0);
        assertThat(v.verdict()).isEqualTo("VIOLATED");
        assertThat(v.message()).matches(".*: t\\d#\\d+ and t\\d#\\d+");
        assertThat(v.witness()).contains("W[plain] cpu").contains(".mcs.locked = 0").contains("W[release] cpu");
    }

    @Test
    void theNodePublishedByXchgReleaseBefore95bcade33a8aIsHandedOverBeforeItsInitialisationLands() {
        LkmmCheck.Verdict v = LkmmCheck.check(new QSpinlockRealBugs.XchgTailRelease(), 4, 1, Set.of("deadlock-free"), null, 5_000_000)
                .verdicts().get(0);
        assertThat(v.verdict()).isEqualTo("VIOLATED");
        /* the spinner's own node->locked = 0 is later in coherence order than its predecessor's hand-over */
        assertThat(v.message()).matches("thread \\d spins for ever on cpu\\d\\.mcs\\.locked: .*");
        assertThat(v.witness()).containsPattern("cpu(\\d)\\.mcs\\.locked: init=0 t\\d#\\d+=1 t\\1#\\d+=0");
    }

    @Test
    void anUnlockWithoutReleaseLetsTheNextCriticalSectionReadStaleData() {
        QSpinlock weak = new QSpinlock() {
            @Override
            public int queuedSpinUnlock(Memory m) {
                m.order(MemoryOrder.ONCE); /* WRITE_ONCE(lock->locked, 0) instead of smp_store_release */
                m.setWord(LOCKED, 0);
                return DONE;
            }
        };
        LkmmCheck.Result r = LkmmCheck.check(weak, 2, 1, Set.of(LkmmCheck.MUTUAL_EXCLUSION), null, 2_000_000);
        assertThat(r.verdicts().get(0).verdict()).isEqualTo("VIOLATED");
        assertThat(r.verdicts().get(0).witness()).contains("W[once] lock.locked=0").contains("critical section");
        /* the same program is correct under sequential consistency: the acquire/release is what LKMM checks */
    }

    @Test
    void aFastPathCmpxchgWithoutAcquireLetsTheCriticalSectionReadStaleData() {
        QSpinlock weak = new QSpinlock() {
            @Override
            public int queuedSpinLock(Memory m) {
                int r = super.queuedSpinLock(m);
                m.order(MemoryOrder.RMW_RELAXED); /* atomic_try_cmpxchg_relaxed */
                return r;
            }
        };
        assertThat(verdicts(weak, 2, 1)).containsEntry("mutual-exclusion", "VIOLATED");
    }

    @Test
    void aStepThatAccessesMemoryWithoutStatingItsOrderingIsRefused() {
        QSpinlock unstated = new QSpinlock() {
            @Override
            public int queuedSpinUnlock(Memory m) {
                m.setWord(LOCKED, 0);
                return DONE;
            }
        };
        assertThatThrownBy(() -> LkmmCheck.check(unstated, 2, 1, Set.of(), null, 2_000_000))
                .isInstanceOf(kcheck.model.ModelInputException.class).hasMessageContaining("without stating its ordering");
    }

    @Test
    void propertiesOutsideTheLkmmSetAreRefused() {
        Function<String, LkmmCheck.Result> run = p -> LkmmCheck.check(new QSpinlock(), 2, 1, Set.of(p), null, 1000);
        assertThatThrownBy(() -> run.apply("fifo-entry")).hasMessageContaining("not decided under memory-model=lkmm");
    }
}
