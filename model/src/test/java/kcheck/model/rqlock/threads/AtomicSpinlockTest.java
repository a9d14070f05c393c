package kcheck.model.rqlock.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kcheck.model.rqlock.RqSpinlock;
import kcheck.model.rqlock.RqSpinlock.Op;
import kcheck.model.rqlock.SpinlockHarness;
import kcheck.model.rqlock.TasSpinlock;
import kcheck.model.rqlock.TicketSpinlock;
import kcheck.model.threads.SpinBudgetExceeded;
import kcheck.model.threads.WaitAbandoned;
import kcheck.model.threads.Workers;

class AtomicSpinlockTest {

    /**
     * Drives the atomic ticket lock and the model's ticket lock through the same 4000 steps:
     * queueing, serving, trylocks on free and busy locks, past two wraps of the atomic lock's 8-bit
     * counters (the model's 4-bit counters wrap 32 times; tickets agree modulo 16). The script is
     * fixed (step i picks its operation from i), so there is no seed to print.
     */
    @Test
    void atomicTicketLockTakesTheSameStepsAsTheModelsTicketLock() {
        AtomicTicketSpinlock atomic = new AtomicTicketSpinlock();
        SpinlockHarness model = new SpinlockHarness(new TicketSpinlock(), 5);
        int mask = TicketSpinlock.mask(TicketSpinlock.BITS);
        Deque<int[]> queue = new ArrayDeque<>();
        boolean held = false;
        int holder = -1;
        int tickets = 0;
        int refused = 0;
        int cpu = 0;
        for (int i = 0; i < 4000; i++) {
            switch ((i * 7 + i / 5) % 4) {
                case 0 -> {
                    if (queue.size() < 3) {
                        int a = atomic.enqueue();
                        int c = cpu++ % 4;
                        while (model.pc[c] >= 0 || c == holder) {
                            c = (c + 1) % 4;
                        }
                        model.start(c, Op.LOCK);
                        model.step(c);
                        assertThat(a & mask).as("step %d: ticket", i).isEqualTo(model.reg[c][0]);
                        queue.add(new int[] {a, c});
                        tickets++;
                    }
                }
                case 1 -> {
                    if (!queue.isEmpty()) {
                        int[] t = queue.peek();
                        boolean a = atomic.poll(t[0]);
                        int r = model.step(t[1]);
                        assertThat(a).as("step %d: served", i).isEqualTo(r == RqSpinlock.DONE);
                        if (a) {
                            assertThat(held).isFalse();
                            queue.remove();
                            held = true;
                            holder = t[1];
                        }
                    }
                }
                case 2 -> {
                    boolean a = atomic.trylock();
                    int r = model.run(4, Op.TRYLOCK);
                    assertThat(a).as("step %d: trylock", i).isEqualTo(r == RqSpinlock.DONE);
                    if (a) {
                        held = true;
                        holder = 4;
                        tickets++;
                    } else {
                        refused++;
                    }
                }
                default -> {
                    if (held) {
                        atomic.unlock();
                        model.run(holder, Op.UNLOCK);
                        held = false;
                        holder = -1;
                    }
                }
            }
        }
        assertThat(tickets).as("tickets handed out: the 8-bit counters wrapped twice").isGreaterThan(2 * 256);
        assertThat(refused).as("trylocks refused").isPositive();
    }

    @Test
    void atomicTicketTrylockFailsWhileAWaiterIsQueuedEvenIfTheLockIsFree() {
        AtomicTicketSpinlock l = new AtomicTicketSpinlock();
        assertThat(l.trylock()).isTrue();
        int waiter = l.enqueue();
        l.unlock();
        assertThat(l.trylock()).isFalse();
        assertThat(l.poll(waiter)).isTrue();
    }

    @Test
    void atomicTasLockTakesTheSameStepsAsTheModelsTasLock() {
        AtomicTasSpinlock atomic = new AtomicTasSpinlock();
        SpinlockHarness model = new SpinlockHarness(new TasSpinlock(), 1);
        for (int i = 0; i < 40; i++) {
            if (i % 3 == 2) {
                atomic.unlock();
                model.run(0, Op.UNLOCK);
            } else {
                boolean a = i % 2 == 0 ? atomic.trylock() : atomic.poll(atomic.enqueue());
                assertThat(a).as("step %d", i).isEqualTo(model.run(0, Op.TRYLOCK) == RqSpinlock.DONE);
            }
        }
    }

    @Test
    void spinLockReportsAHangWhenItsSpinBudgetRunsOut() {
        AtomicRqLocks locks = new AtomicRqLocks(2, "ticket", 1000);
        locks.forCpu(0, LockObserver.NONE).spinLock(1);
        assertThatThrownBy(() -> locks.forCpu(1, LockObserver.NONE).spinLock(1))
                .isInstanceOf(SpinBudgetExceeded.class)
                .hasMessage("CPU 1 spun 1000 times for rq[1] without getting it (spin budget exhausted)");
    }

    @Test
    void spinLockGivesUpWhenTheObserverStopsTheRun() {
        AtomicRqLocks locks = new AtomicRqLocks(2, "tas", Long.MAX_VALUE);
        locks.forCpu(0, LockObserver.NONE).spinLock(0);
        LockObserver stop = new LockObserver() {
            @Override
            public boolean stopWaiting() {
                return true;
            }
        };
        assertThatThrownBy(() -> locks.forCpu(1, stop).spinLock(0)).isInstanceOf(WaitAbandoned.class);
    }

    @Test
    void observerHearsOfAWaitBeforeTheLockIsTakenAndOfAReleaseBeforeTheUnlock() {
        List<String> events = new ArrayList<>();
        LockObserver log = new LockObserver() {
            @Override
            public void waits(int cpu, int rq) {
                events.add("waits " + cpu + " " + rq);
            }

            @Override
            public void acquired(int cpu, int rq) {
                events.add("acquired " + cpu + " " + rq);
            }

            @Override
            public void releasing(int cpu, int rq) {
                events.add("releasing " + cpu + " " + rq);
            }
        };
        AtomicRqLocks locks = new AtomicRqLocks(2, "ticket", 10);
        var k = locks.forCpu(1, log);
        k.spinLock(0);
        assertThat(k.spinTrylock(0)).isFalse();
        k.spinUnlock(0);
        assertThat(k.spinTrylock(1)).isTrue();
        assertThat(events).containsExactly("waits 1 0", "acquired 1 0", "releasing 1 0", "acquired 1 1");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theReferenceCodeRunsOnPlainThreads() throws InterruptedException {
        AtomicRqLocks locks = new AtomicRqLocks(2, "ticket", 1L << 40);
        int[] inside = new int[2];
        Workers.run("CPU ", 2, cpu -> {
            for (int i = 0; i < 500; i++) {
                BalancingPass.run(new kcheck.model.rqlock.DoubleLockBalanceV2628(), locks.forCpu(cpu, LockObserver.NONE),
                        new LockObserver() {
                            @Override
                            public void returned(int cpu, int thisRq, int busiest, int ret) {
                                inside[cpu]++;
                            }
                        }, cpu, 1 - cpu);
            }
        });
        assertThat(inside).containsExactly(500, 500);
        assertThat(locks.forCpu(0, LockObserver.NONE).spinTrylock(0)).as("rq0 released").isTrue();
        assertThat(locks.forCpu(0, LockObserver.NONE).spinTrylock(1)).as("rq1 released").isTrue();
    }
}
