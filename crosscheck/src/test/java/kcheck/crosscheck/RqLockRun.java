package kcheck.crosscheck;

import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import kcheck.model.rqlock.DoubleLockBalance;
import kcheck.model.rqlock.RqLockFactory;
import kcheck.model.rqlock.threads.AtomicRqLocks;
import kcheck.model.rqlock.threads.BalancingPass;
import kcheck.model.rqlock.threads.LockObserver;
import kcheck.model.threads.SpinBudgetExceeded;
import kcheck.model.threads.WaitAbandoned;

/**
 * One execution of the rq-lock scenario on real threads: each CPU runs one balancing pass of
 * the variant's reference code (the catalogue's {@code DoubleLockBalance}) on
 * {@link AtomicRqLocks}, pulling from the busiest runqueue it is given, watched by the monitors of the
 * selected properties. The first broken property is recorded as a {@link Violation}, waiting
 * CPUs then give up ({@link WaitAbandoned}), and {@link #check()} throws it.
 *
 * <p>The monitors state the properties as the explicit-state model does (RqLockModel):
 * <ul>
 * <li>{@code mutual-exclusion}: a shared holder slot per runqueue, claimed right after a lock
 * step takes the lock and cleared right before the unlock step, so the slots never claim more
 * than the locks grant, and two CPUs that hold one lock at once collide on its slot;
 * <li>{@code holds-both-on-return}, {@code return-contract}: per CPU, the locks it holds and
 * whether it released {@code this_rq} inside the call, checked when the call returns;
 * <li>{@code fifo-entry}: a shared wait slot per CPU naming the lock it waits for inside
 * {@code double_lock_balance}, tagged with which wait it is (a per-CPU count); a CPU entering
 * the call copies all slots in one read, and when it returns it must not hold a lock that a CPU it copied
 * still waits for in that same wait;
 * <li>{@code deadlock-free}: not a monitor. Lincheck reports a schedule in which every
 * unfinished thread spins forever ("the execution has hung"); on plain threads the locks' spin
 * budget ends the wait ({@link SpinBudgetExceeded}), recorded as this violation.
 * </ul>
 * A wait starts, as in the model, when the ticket is taken (ticket locks) or when the CPU
 * reaches the spin loop (test-and-set), and ends in the step that takes the lock.
 */
final class RqLockRun {
    static final Set<String> SAFETY = Set.of("mutual-exclusion", "holds-both-on-return", "return-contract");

    private final DoubleLockBalance dlb;
    private final int n;
    private final boolean mutex;
    private final boolean both;
    private final boolean contract;
    private final boolean fifo;
    private final AtomicRqLocks locks;
    private final AtomicIntegerArray holder;
    /** The fifo-entry wait slots, 16 bits per CPU in one word, so that entering the call copies them in one read. */
    private final AtomicLong waitSlots;
    private final AtomicReference<Violation> violation = new AtomicReference<>();

    RqLockRun(String variant, String lock, int cpus, Set<String> properties, long spinBudget) {
        this(RqLockFactory.implementation(variant), new AtomicRqLocks(cpus, lock, spinBudget), properties);
    }

    /** A run of any {@code double_lock_balance} on any locks (e.g. a broken lock, to show a monitor catches it). */
    RqLockRun(DoubleLockBalance dlb, AtomicRqLocks locks, Set<String> properties) {
        this.dlb = dlb;
        this.n = locks.cpus();
        this.mutex = properties.contains("mutual-exclusion");
        this.both = properties.contains("holds-both-on-return");
        this.contract = properties.contains("return-contract");
        this.fifo = properties.contains("fifo-entry");
        this.locks = locks;
        this.holder = mutex ? new AtomicIntegerArray(n) : null;
        this.waitSlots = fifo ? new AtomicLong() : null;
        if (n > 4) {
            throw new IllegalArgumentException("at most 4 CPUs (16-bit wait slots in one long)");
        }
    }

    /** Runs CPU {@code cpu}'s balancing pass, pulling from {@code busiest}, on this run's locks. */
    void cpu(int cpu, int busiest) {
        CpuMonitor m = new CpuMonitor();
        try {
            BalancingPass.run(dlb, locks.forCpu(cpu, m), m, cpu, busiest);
        } catch (SpinBudgetExceeded e) {
            violation.compareAndSet(null, new Violation("deadlock-free", e.getMessage()));
        } catch (WaitAbandoned e) {
            /* another CPU recorded a violation: the run is over */
        }
    }

    /** Throws the first violation any CPU recorded. */
    void check() {
        Violation v = violation.get();
        if (v != null) {
            throw v;
        }
    }

    /** Runs all CPUs to completion on plain threads, CPU {@code c} pulling from {@code busiest[c]}, then {@link #check()}s. */
    void runOnPlainThreads(int... busiest) throws InterruptedException {
        java.util.concurrent.ConcurrentLinkedQueue<Throwable> crashed = new java.util.concurrent.ConcurrentLinkedQueue<>();
        Thread[] cpus = new Thread[n];
        for (int c = 0; c < n; c++) {
            final int cpu = c;
            cpus[c] = new Thread(() -> cpu(cpu, busiest[cpu]), "CPU " + c);
            cpus[c].setDaemon(true);
            cpus[c].setUncaughtExceptionHandler((th, e) -> crashed.add(e));
        }
        for (Thread t : cpus) {
            t.start();
        }
        for (Thread t : cpus) {
            t.join();
        }
        Throwable e = crashed.poll();
        if (e != null) {
            AssertionError a = new AssertionError("a thread of the run failed: " + e, e);
            crashed.forEach(a::addSuppressed);
            throw a;
        }
        check();
    }

    /** One CPU's monitor; created on, and used only by, that CPU's thread. */
    final class CpuMonitor implements LockObserver {
        private long atEntry;
        private int held;
        private boolean inside;
        private boolean dropped;
        private int episode;
        private int waiting;

        private void violated(String property, String explanation) {
            violation.compareAndSet(null, new Violation(property, explanation));
        }

        @Override
        public boolean stopWaiting() {
            return violation.get() != null;
        }

        @Override
        public void waits(int cpu, int rq) {
            if (fifo && inside) {
                int w = (++episode << 4) | (rq + 1);
                setSlot(cpu, w);
            }
        }

        @Override
        public void acquired(int cpu, int rq) {
            if (mutex) {
                int other = holder.getAndSet(rq, cpu + 1);
                if (other != 0) {
                    violated("mutual-exclusion", "CPU " + (other - 1) + " and CPU " + cpu + " both hold rq[" + rq + "]");
                }
            }
            held |= 1 << rq;
            if (waiting != 0) {
                setSlot(cpu, 0);
            }
        }

        @Override
        public void releasing(int cpu, int rq) {
            held &= ~(1 << rq);
            if (inside && rq == cpu) {
                dropped = true;
            }
            if (mutex) {
                holder.compareAndSet(rq, cpu + 1, 0);
            }
        }

        @Override
        public void entering(int cpu, int thisRq, int busiestRq) {
            inside = true;
            dropped = false;
            if (fifo) {
                atEntry = waitSlots.get();
            }
        }

        @Override
        public void returned(int cpu, int thisRq, int busiestRq, int ret) {
            inside = false;
            int need = (1 << thisRq) | (1 << busiestRq);
            if (both && (held & need) != need) {
                violated("holds-both-on-return", "CPU " + cpu + " returns from double_lock_balance holding "
                        + rqSet(held) + ", not both rq" + thisRq + " and rq" + busiestRq);
            }
            if (contract && ret == 0 && dropped) {
                violated("return-contract", "CPU " + cpu + " returns 0 from double_lock_balance although it released rq"
                        + thisRq + " during the call");
            }
            if (fifo) {
                long now = waitSlots.get();
                for (int a = 0; a < n; a++) {
                    int w = slot(atEntry, a);
                    int l = (w & 15) - 1;
                    if (a != cpu && w != 0 && (held & (1 << l)) != 0 && slot(now, a) == w) {
                        violated("fifo-entry", "CPU " + cpu + " returns from double_lock_balance holding rq" + l
                                + " while CPU " + a + ", which was already waiting for rq" + l
                                + " inside double_lock_balance when CPU " + cpu + " entered, still waits");
                    }
                }
            }
        }

        /** Sets this CPU's slot (only its own CPU writes a slot, so one add does it). */
        private void setSlot(int cpu, int w) {
            waitSlots.getAndAdd((long) (w - waiting) << (16 * cpu));
            waiting = w;
        }

        private int slot(long slots, int cpu) {
            return (int) (slots >>> (16 * cpu)) & 0xffff;
        }

        private String rqSet(int mask) {
            StringJoiner j = new StringJoiner(", ", "{", "}");
            for (int l = 0; l < n; l++) {
                if ((mask & (1 << l)) != 0) {
                    j.add("rq" + l);
                }
            }
            return j.toString();
        }
    }
}
