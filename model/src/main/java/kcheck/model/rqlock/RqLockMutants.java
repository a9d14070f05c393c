package kcheck.model.rqlock;

import kcheck.model.Kernel;

/**
 * Seeded mutants: one deliberate, realistic bug each, to show that a property catches what it
 * claims to catch. They are variants like any other ({@code --variant mutant-...}) but are not
 * part of the verdict catalogue.
 */
public final class RqLockMutants {
    private RqLockMutants() {
    }

    /** 2.6.28 but reports "held throughout" although it dropped {@code this_rq}: breaks {@code return-contract}. */
    public static final class ReturnsZero extends DoubleLockBalanceV2628 {
        @Override
        @Kernel(function = "double_lock_balance", file = "kernel/sched.c", version = "v2.6.28 (mutant: return 0)")
        public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
            k.spinUnlock(thisRq);
            DoubleRqLock.doubleRqLock(k, thisRq, busiest);
            return 0;
        }
    }

    /** 2.6.27 without re-taking {@code this_rq} after dropping it: breaks {@code holds-both-on-return}. */
    public static final class SkipsRelock extends DoubleLockBalanceV2627 {
        @Override
        @Kernel(function = "double_lock_balance", file = "kernel/sched.c", version = "v2.6.27 (mutant: no relock)")
        public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
            int ret = 0;
            if (!k.spinTrylock(busiest)) {
                if (busiest < thisRq) {
                    k.spinUnlock(thisRq);
                    k.spinLock(busiest);
                    ret = 1;
                } else {
                    k.spinLock(busiest);
                }
            }
            return ret;
        }
    }

    /** 2.6.28 taking {@code this_rq} then busiest, ignoring the lock order: breaks {@code deadlock-free}. */
    public static final class Unordered extends DoubleLockBalanceV2628 {
        @Override
        @Kernel(function = "double_lock_balance", file = "kernel/sched.c", version = "v2.6.28 (mutant: unordered)")
        public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
            k.spinUnlock(thisRq);
            k.spinLock(thisRq);
            k.spinLock(busiest);
            return 1;
        }
    }

    /** {@code double_unlock_balance} releasing {@code this_rq} instead of busiest: breaks {@code mutual-exclusion}. */
    public static final class UnlocksThis extends DoubleLockBalanceV2628 {
        @Override
        @Kernel(function = "double_unlock_balance", file = "kernel/sched.c", version = "v2.6.28 (mutant: wrong lock)")
        public void doubleUnlockBalance(RqLocks k, int thisRq, int busiest) {
            k.spinUnlock(thisRq);
        }
    }
}
