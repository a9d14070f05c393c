package kcheck.crosscheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kcheck.model.rqlock.DoubleLockBalanceV2627;
import kcheck.model.rqlock.TasSpinlock;
import kcheck.model.rqlock.threads.AtomicRqLocks;
import kcheck.model.rqlock.threads.AtomicSpinlock;

/**
 * The thread-side monitors catch what they claim to, beyond the model's mutants. Every test runs
 * real threads: each has a time limit, so a deadlock regression fails the build instead of
 * hanging it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RqLockMonitorTest {

    /**
     * A test-and-set lock whose step is split in two: read the flag, then set it (a plain
     * {@code get} and {@code set} instead of one {@code getAndSet}), so two CPUs can both find it
     * free and both take it. The model's locks are atomic steps by construction, so only the
     * real-thread check can catch this; the mutual-exclusion monitor does, under Lincheck, with
     * 2 CPUs.
     */
    static final class TestThenSetLock implements AtomicSpinlock {
        private final AtomicBoolean locked = new AtomicBoolean();

        @Override
        public int enqueue() {
            return 0;
        }

        @Override
        public boolean poll(int token) {
            return trylock();
        }

        @Override
        public boolean trylock() {
            boolean was = locked.get();
            if (was) {
                return false;
            }
            locked.set(true);
            return TasSpinlock.acquired(was);
        }

        @Override
        public void unlock() {
            locked.set(false);
        }
    }

    @Test
    void mutualExclusionMonitorCatchesATestAndSetLockThatTestsThenSets() {
        LincheckRunner.Outcome o = LincheckRunner.check(() -> new RqLockRun(new DoubleLockBalanceV2627(),
                new AtomicRqLocks(new AtomicSpinlock[] {new TestThenSetLock(), new TestThenSetLock()}, LincheckRunner.SPIN_BUDGET),
                Set.of("mutual-exclusion")), LincheckRunner.busiestChoices(2), 1000);
        assertThat(o.violated()).as(o.report()).isEqualTo("mutual-exclusion");
        System.out.println("TestThenSetLock: mutual-exclusion violated at schedule " + o.schedules() + ", " + o.scenario());
        assertThat(o.report()).contains("both hold rq[");
    }

    @Test
    void aHangOnPlainThreadsIsReportedByTheSpinBudget() {
        AtomicRqLocks locks = new AtomicRqLocks(2, "ticket", 10_000);
        locks.forCpu(1, kcheck.model.rqlock.threads.LockObserver.NONE).spinLock(0);
        RqLockRun run = new RqLockRun(new DoubleLockBalanceV2627(), locks, Set.of("mutual-exclusion"));
        assertThatThrownBy(() -> run.runOnPlainThreads(1, 0)).isInstanceOf(Violation.class)
                .hasMessageStartingWith("deadlock-free: CPU ").hasMessageContaining("spin budget exhausted");
    }

    @Test
    void theCatalogueVariantsRunOnPlainThreadsWithEveryMonitorOn() throws InterruptedException {
        Set<String> all = Set.of("mutual-exclusion", "holds-both-on-return", "return-contract", "fifo-entry");
        for (int i = 0; i < 100; i++) {
            new RqLockRun("after", "ticket", 3, all, 1L << 40).runOnPlainThreads(1, 2, 0);
            new RqLockRun("before", "ticket", 3, RqLockRun.SAFETY, 1L << 40).runOnPlainThreads(2, 0, 1);
        }
    }
}
