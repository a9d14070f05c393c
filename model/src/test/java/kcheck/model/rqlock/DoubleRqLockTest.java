package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** double_rq_lock() (kernel/sched.c, v2.6.28): two runqueues locked in address order, one lock if they are the same. */
class DoubleRqLockTest {

    @Test
    void theSameRunqueueTwiceIsLockedOnce() {
        // double_rq_lock: if (rq1 == rq2) { spin_lock(&rq1->lock); __acquire(rq2->lock); }
        LoggingRqLocks k = new LoggingRqLocks(true);
        DoubleRqLock.doubleRqLock(k, 2, 2);
        assertThat(k.log).containsExactly("lock 2");
    }

    @Test
    void theLowerRunqueueIsLockedFirstWhicheverArgumentItIs() {
        // double_rq_lock: if (rq1 < rq2) lock rq1 then rq2, else rq2 then rq1
        LoggingRqLocks ascending = new LoggingRqLocks(true);
        DoubleRqLock.doubleRqLock(ascending, 1, 3);
        assertThat(ascending.log).containsExactly("lock 1", "lock 3");
        LoggingRqLocks descending = new LoggingRqLocks(true);
        DoubleRqLock.doubleRqLock(descending, 3, 1);
        assertThat(descending.log).containsExactly("lock 1", "lock 3");
    }
}
