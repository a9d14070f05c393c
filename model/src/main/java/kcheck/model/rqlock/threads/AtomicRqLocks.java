package kcheck.model.rqlock.threads;

import kcheck.model.rqlock.RqLocks;
import kcheck.model.threads.SpinBudgetExceeded;
import kcheck.model.threads.WaitAbandoned;

/**
 * The runqueue locks of {@code cpus} CPUs for real threads: one {@link AtomicSpinlock} per
 * runqueue, ticket or test-and-set. {@link #forCpu} gives the {@link RqLocks} the reference
 * code of one CPU calls; every spin loop gives up after {@code spinBudget} iterations with
 * {@link SpinBudgetExceeded}, or earlier with {@link WaitAbandoned} when the observer asks.
 */
public final class AtomicRqLocks {
    private final AtomicSpinlock[] locks;
    private final long spinBudget;

    /** {@code lock} is the model's parameter value: {@code ticket} or {@code tas}. */
    public AtomicRqLocks(int cpus, String lock, long spinBudget) {
        this(create(cpus, lock), spinBudget);
    }

    /** Runqueue {@code i} locked by {@code locks[i]}. */
    public AtomicRqLocks(AtomicSpinlock[] locks, long spinBudget) {
        if (spinBudget < 1) {
            throw new IllegalArgumentException("spin budget must be positive");
        }
        this.locks = locks.clone();
        this.spinBudget = spinBudget;
    }

    private static AtomicSpinlock[] create(int cpus, String lock) {
        if (!lock.equals("ticket") && !lock.equals("tas")) {
            throw new IllegalArgumentException("lock must be ticket or tas, not " + lock);
        }
        AtomicSpinlock[] out = new AtomicSpinlock[cpus];
        for (int i = 0; i < cpus; i++) {
            out[i] = lock.equals("ticket") ? new AtomicTicketSpinlock() : new AtomicTasSpinlock();
        }
        return out;
    }

    public int cpus() {
        return locks.length;
    }

    /** The lock primitives as CPU {@code cpu} calls them, reported to {@code observer}. */
    public RqLocks forCpu(int cpu, LockObserver observer) {
        return new CpuView(cpu, observer);
    }

    private final class CpuView implements RqLocks {
        private final int cpu;
        private final LockObserver observer;

        CpuView(int cpu, LockObserver observer) {
            this.cpu = cpu;
            this.observer = observer;
        }

        @Override
        public void spinLock(int rq) {
            AtomicSpinlock l = locks[rq];
            int token = l.enqueue();
            observer.waits(cpu, rq);
            long spins = 0;
            while (!l.poll(token)) {
                if (observer.stopWaiting()) {
                    throw new WaitAbandoned("CPU " + cpu + " (waiting for rq[" + rq + "])");
                }
                if (++spins >= spinBudget) {
                    throw new SpinBudgetExceeded("CPU " + cpu, "for rq[" + rq + "]", spins);
                }
                Thread.onSpinWait();
            }
            observer.acquired(cpu, rq);
        }

        @Override
        public boolean spinTrylock(int rq) {
            boolean taken = locks[rq].trylock();
            if (taken) {
                observer.acquired(cpu, rq);
            }
            return taken;
        }

        @Override
        public void spinUnlock(int rq) {
            observer.releasing(cpu, rq);
            locks[rq].unlock();
        }
    }
}
