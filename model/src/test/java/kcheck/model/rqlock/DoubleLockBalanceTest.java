package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * double_lock_balance() and double_unlock_balance() (kernel/sched.c) before (v2.6.27) and after
 * (v2.6.28, 8f45e2b51620) the fairness patch: the primitives each calls, in order, and the
 * return value that tells the caller whether this_rq was released on the way.
 */
class DoubleLockBalanceTest {
    private final DoubleLockBalance before = new DoubleLockBalanceV2627();
    private final DoubleLockBalance after = new DoubleLockBalanceV2628();

    @Test
    void beforeReturnsZeroWhenTheTrylockOfBusiestSucceeds() {
        // v2.6.27: if (unlikely(!spin_trylock(&busiest->lock))) { ... } return ret; (ret = 0)
        LoggingRqLocks k = new LoggingRqLocks(true);
        assertThat(before.doubleLockBalance(k, 2, 1)).isZero();
        assertThat(k.log).containsExactly("trylock 1");
    }

    @Test
    void beforeKeepsThisRqAndWaitsForAHigherBusiest() {
        // v2.6.27: busiest >= this_rq: spin_lock_nested(&busiest->lock, ...), this_rq never released
        LoggingRqLocks k = new LoggingRqLocks(false);
        assertThat(before.doubleLockBalance(k, 1, 2)).isZero();
        assertThat(k.log).containsExactly("trylock 2", "lock 2");
    }

    @Test
    void beforeDropsThisRqForALowerBusiestAndReportsIt() {
        // v2.6.27: busiest < this_rq: unlock this_rq, lock busiest, lock this_rq, ret = 1
        LoggingRqLocks k = new LoggingRqLocks(false);
        assertThat(before.doubleLockBalance(k, 2, 1)).isEqualTo(1);
        assertThat(k.log).containsExactly("trylock 1", "unlock 2", "lock 1", "lock 2");
    }

    @Test
    void afterAlwaysDropsThisRqAndRelocksBothInOrder() {
        // v2.6.28 (CONFIG_PREEMPT): spin_unlock(&this_rq->lock); double_rq_lock(this_rq, busiest); return 1;
        LoggingRqLocks higher = new LoggingRqLocks(true);
        assertThat(after.doubleLockBalance(higher, 1, 2)).isEqualTo(1);
        assertThat(higher.log).containsExactly("unlock 1", "lock 1", "lock 2");
        LoggingRqLocks lower = new LoggingRqLocks(true);
        assertThat(after.doubleLockBalance(lower, 2, 1)).isEqualTo(1);
        assertThat(lower.log).containsExactly("unlock 2", "lock 1", "lock 2");
    }

    @Test
    void doubleUnlockBalanceReleasesBusiestOnly() {
        // double_unlock_balance: spin_unlock(&busiest->lock); this_rq stays locked
        for (DoubleLockBalance v : new DoubleLockBalance[] {before, after}) {
            LoggingRqLocks k = new LoggingRqLocks(true);
            v.doubleUnlockBalance(k, 2, 1);
            assertThat(k.log).containsExactly("unlock 1");
        }
    }
}
