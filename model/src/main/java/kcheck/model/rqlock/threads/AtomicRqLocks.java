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
    private final SteppedSpinlocks stepped;
    private final long spinBudget;

    /**
     * {@code lock} is the model's parameter value: {@code ticket} or {@code tas} (atomics), or
     * {@code qspinlock} / {@code qspinlock-virt} (the model's step machine, see {@link SteppedSpinlocks}).
     */
    public AtomicRqLocks(int cpus, String lock, long spinBudget) {
        this(lock.startsWith("qspinlock") ? null : create(cpus, lock),
                lock.startsWith("qspinlock") ? new SteppedSpinlocks(kcheck.model.rqlock.RqSpinlocks.builtIn(lock), cpus) : null,
                cpus, spinBudget);
    }

    /** Runqueue {@code i} locked by {@code locks[i]}. */
    public AtomicRqLocks(AtomicSpinlock[] locks, long spinBudget) {
        this(locks, null, locks.length, spinBudget);
    }

    /** Every runqueue locked by the step machine {@code stepped}. */
    public AtomicRqLocks(SteppedSpinlocks stepped, int cpus, long spinBudget) {
        this(null, stepped, cpus, spinBudget);
    }

    private AtomicRqLocks(AtomicSpinlock[] locks, SteppedSpinlocks stepped, int cpus, long spinBudget) {
        if (spinBudget < 1) {
            throw new IllegalArgumentException("spin budget must be positive");
        }
        this.locks = locks == null ? null : locks.clone();
        this.stepped = stepped;
        this.cpus = cpus;
        this.spinBudget = spinBudget;
    }

    private final int cpus;

    private static AtomicSpinlock[] create(int cpus, String lock) {
        if (!lock.equals("ticket") && !lock.equals("tas")) {
            throw new IllegalArgumentException("lock must be ticket, tas, qspinlock or qspinlock-virt, not " + lock);
        }
        AtomicSpinlock[] out = new AtomicSpinlock[cpus];
        for (int i = 0; i < cpus; i++) {
            out[i] = lock.equals("ticket") ? new AtomicTicketSpinlock() : new AtomicTasSpinlock();
        }
        return out;
    }

    public int cpus() {
        return cpus;
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

        /** Runs one operation of the step machine to its end; the spin loops are the BLOCKED results. */
        private int stepped(kcheck.model.rqlock.RqSpinlock.Op op, int rq) {
            kcheck.model.rqlock.RqSpinlock m = stepped.machine();
            int pc = m.entry(op);
            boolean lock = op == kcheck.model.rqlock.RqSpinlock.Op.LOCK;
            boolean waiting = lock && m.waiting(pc);
            if (waiting) {
                observer.waits(cpu, rq);
            }
            long spins = 0;
            while (true) {
                int r = stepped.step(cpu, rq, pc);
                if (r == kcheck.model.rqlock.RqSpinlock.BLOCKED) {
                    if (observer.stopWaiting()) {
                        throw new WaitAbandoned("CPU " + cpu + " (waiting for rq[" + rq + "])");
                    }
                    if (++spins >= spinBudget) {
                        throw new SpinBudgetExceeded("CPU " + cpu, "for rq[" + rq + "]", spins);
                    }
                    Thread.onSpinWait();
                } else if (r >= 0) {
                    pc = r;
                    if (lock && !waiting && m.waiting(pc)) {
                        /* right after the step that starts the wait, as for a ticket taken */
                        waiting = true;
                        observer.waits(cpu, rq);
                    }
                } else {
                    return r;
                }
            }
        }

        @Override
        public void spinLock(int rq) {
            if (stepped != null) {
                stepped(kcheck.model.rqlock.RqSpinlock.Op.LOCK, rq);
                observer.acquired(cpu, rq);
                return;
            }
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
            boolean taken = stepped != null ? stepped(kcheck.model.rqlock.RqSpinlock.Op.TRYLOCK, rq) == kcheck.model.rqlock.RqSpinlock.DONE
                    : locks[rq].trylock();
            if (taken) {
                observer.acquired(cpu, rq);
            }
            return taken;
        }

        @Override
        public void spinUnlock(int rq) {
            observer.releasing(cpu, rq);
            if (stepped != null) {
                stepped(kcheck.model.rqlock.RqSpinlock.Op.UNLOCK, rq);
                return;
            }
            locks[rq].unlock();
        }
    }
}
