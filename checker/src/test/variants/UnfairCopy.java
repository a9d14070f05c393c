/*
 * kcheck variant "unfair-copy" of model rq-lock: fair double_lock_balance (kernel/sched.c, 2.6.27
 * -> 2.6.28, 8f45e2b51620).
 * A copy of variant "before" (kcheck.model.rqlock.DoubleLockBalanceV2627): 2.6.27: keeps this_rq
 * locked when busiest is the higher rq (favours low CPUs).
 *
 * WHAT TO EDIT: apply your patch to the methods below. They follow the kernel functions one for
 * one (see each @Kernel annotation; set version = "..." to name your patch, and traces will cite
 * it).
 * Keep: the class name UnfairCopy (it must match the file name), 'public', a public no-argument
 * constructor, and the class implementing kcheck.model.rqlock.DoubleLockBalance (the variant
 * contract of rq-lock). VARIANT is the name results and traces show. The model's package is
 * imported; only its public classes and methods can be used here.
 *
 * HOW TO RUN IT (kcheck compiles this file in memory; nothing is rebuilt or written):
 *   kcheck check rq-lock --variant-file src/test/variants/UnfairCopy.java
 *   kcheck check rq-lock --variant-file src/test/variants/UnfairCopy.java --property mutual-exclusion
 *   kcheck verify --variant-file src/test/variants/UnfairCopy.java          (the baseline entries of "after", with this variant)
 *   kcheck replay TRACE.json --variant-file src/test/variants/UnfairCopy.java   (does a counterexample still reproduce?)
 *   kcheck bench --variant-file src/test/variants/UnfairCopy.java
 * Exit codes: 0 every checked property holds, 1 a property is violated (the trace is printed),
 * 2 the file does not compile or is not a rq-lock variant, 3 a search limit was hit.
 *
 * Properties of rq-lock:
 *   mutual-exclusion (invariant)
 *   deadlock-free (deadlock)
 *   holds-both-on-return (step)
 *   return-contract (step)
 *   fifo-entry (step)
 *   bypass (metric)
 *   overtake (metric)
 */

import kcheck.model.Kernel;
import kcheck.model.rqlock.*;

/**
 * {@code double_lock_balance()} before the fairness patch (2.6.27): keep {@code this_rq} locked
 * when the trylock fails and busiest is the higher runqueue, so low CPUs never queue behind
 * anyone for their own lock.
 */
public class UnfairCopy implements DoubleLockBalance {

    /** The variant name kcheck shows in results and traces (not a built-in variant's name). */
    public static final String VARIANT = "unfair-copy";

    @Override
    @Kernel(function = "double_lock_balance", file = "kernel/sched.c", version = "v2.6.27")
    public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
        int ret = 0;

        if (!k.spinTrylock(busiest)) {
            if (busiest < thisRq) {
                k.spinUnlock(thisRq);
                k.spinLock(busiest);
                k.spinLock(thisRq);     /* spin_lock_nested(&this_rq->lock, SINGLE_DEPTH_NESTING) */
                ret = 1;
            } else {
                k.spinLock(busiest);    /* spin_lock_nested(&busiest->lock, SINGLE_DEPTH_NESTING) */
            }
        }
        return ret;
    }

    @Override
    @Kernel(function = "double_unlock_balance", file = "kernel/sched.c", version = "v2.6.27", commit = "1b12bbc74756")
    public void doubleUnlockBalance(RqLocks k, int thisRq, int busiest) {
        k.spinUnlock(busiest);
    }
}
