package kcheck.crosscheck;

import java.util.Set;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import kcheck.model.Kernel;
import kcheck.model.KernelCitations;
import kcheck.model.rwsem.RwsemBits;
import kcheck.model.rwsem.RwsemCount;
import kcheck.model.rwsem.RwsemOwnerFactory;
import kcheck.model.rwsem.RwsemVariant;
import kcheck.model.rwsem.threads.RwsemObserver;
import kcheck.model.rwsem.threads.RwsemTask;
import kcheck.model.rwsem.threads.ThreadRwSem;
import kcheck.model.threads.SpinBudgetExceeded;
import kcheck.model.threads.WaitAbandoned;

/**
 * One execution of the rwsem-owner scenario on real threads: {@code readers} reader tasks and
 * {@code writers} writer tasks, each running {@code rounds} rounds of its workload through its
 * own instance of the variant's reference code on one {@link ThreadRwSem}, watched by one
 * {@link Monitor} for the selected properties. The first broken property is recorded as a
 * {@link Violation}, waiting tasks then give up, and {@link #check()} throws it.
 *
 * <p>The monitor states the properties as the explicit-state model does (RwsemOwnerModel), with
 * the same notion of holding: a task holds the lock from the count step that takes it
 * ({@code lockAcquired}) or from a waker's grant, to the count step that releases it
 * ({@code lockReleased}). Its hooks belong to the step they are called from (Lincheck runs them
 * without scheduling points).
 * <ul>
 * <li>{@code exclusion}: never a writer with readers, never two writers;
 * <li>{@code owner-sound}: {@code owner == T} implies T holds the write lock (checked where owner
 * or T's holding changes: an owner store, a writer's release);
 * <li>{@code no-spin-on-readers} (the specification's count (docs/spec.md), the model's {@code no-spin-on-readers-k2}):
 * the spinner (the osq holder) loads count in {@code rwsem_try_write_lock_unqueued} while
 * &ge; 1 reader and no writer hold the lock and every holding reader is settled; reset when
 * reader holders go 0 &rarr; 1 and when the spinner takes the osq; more than K = 2 is a
 * violation. A reader is settled once it has returned from {@code down_read}, or, inside
 * {@code down_read} after it holds, once it has stored owner or loaded
 * {@code RWSEM_READER_OWNED} (then no owner store of its own is left: the model's "no owner store
 * pending"). A reader granted the lock while asleep in v4.7 counts as settled only once it
 * returns (the model: at once): the thread side counts a little less there, never more;
 * <li>{@code no-spin-on-readers-strict}: the same count without the settled clause;
 * <li>{@code handoff} (v5.3+ code): while the handoff bit is set for a waiter (the first waiter
 * when a count step set it), no other task takes the lock unless the grant that gives it to that
 * waiter gives it to them too;
 * <li>{@code deadlock-free}: Lincheck's hang report, or the spin budget on plain threads.
 * </ul>
 * For v5.3+ code (owner words are task pointers with flag bits) every waiter's RWSEM_WAIT_TIMEOUT
 * and every reader-spin deadline count as passed at once: the threads have no clock to wait on.
 */
final class RwsemRun {
    static final int K = 2;

    private final ThreadRwSem sem;
    private final RwsemVariant[] code;
    private final int readers;
    private final int rounds;
    private final Monitor monitor;
    /** Per task: 1 from the return of its down_read/down_write to its up_read/up_write (kept by the monitor, for {@link #unlockWhenHeld}). */
    private final AtomicIntegerArray inCriticalSection;
    private final AtomicReference<Violation> violation = new AtomicReference<>();

    /** v5.3+ owner encoding: task pointers with flag bits. */
    private final boolean bits;

    RwsemRun(String variant, int readers, int writers, int rounds, Set<String> properties, long spinBudget) {
        this(variant, readers, writers, new boolean[writers], rounds, properties, spinBudget);
    }

    /** {@code rt[w]}: writer w is an RT task. */
    RwsemRun(String variant, int readers, int writers, boolean[] rt, int rounds, Set<String> properties, long spinBudget) {
        this.code = new RwsemVariant[readers + writers];
        for (int t = 0; t < code.length; t++) {
            code[t] = RwsemOwnerFactory.implementation(variant);
        }
        this.bits = code[0].encoding() != RwsemVariant.Encoding.XADD;
        this.sem = new ThreadRwSem(readers, writers, rt, spinBudget, bits, bits);
        this.readers = readers;
        this.rounds = rounds;
        this.inCriticalSection = new AtomicIntegerArray(readers + writers);
        this.monitor = new Monitor(properties);
    }

    /*
     * One instance of the reference code per task, built before the tasks start (its @FrameLocal
     * fields are that task's locals). It must be shared with the task threads as it is: Lincheck
     * does not follow the spin loops of code running on objects it considers thread-local, and
     * would then not see a spinning task spin.
     */

    /** Runs task {@code t}'s workload. */
    void task(int t) {
        guarded(() -> RwsemTask.run(code[t], sem.forTask(t, monitor), monitor, t, sem.isWriter(t), rounds));
    }

    /** Task {@code t}'s {@code down_read}/{@code down_write} alone (a scenario may start with it done). */
    void lock(int t) {
        guarded(() -> RwsemTask.lock(code[t], sem.forTask(t, monitor), monitor, t, sem.isWriter(t)));
    }

    /** Task {@code t}'s {@code up_read}/{@code up_write} alone. */
    void unlock(int t) {
        guarded(() -> RwsemTask.unlock(code[t], sem.forTask(t, monitor), monitor, t, sem.isWriter(t)));
    }

    /**
     * Task {@code t}'s {@code up_read}/{@code up_write} once its {@code down_read}/{@code down_write}
     * has returned: its critical section ends at some time after that, on whichever thread calls
     * this. The wait is a bounded spin on {@link #inCriticalSection} (which only the monitor writes).
     */
    void unlockWhenHeld(int t) {
        long spins = 0;
        while (inCriticalSection.get(t) == 0) {
            if (violation.get() != null) {
                return;
            }
            if (++spins >= LincheckRunner.SPIN_BUDGET) {
                violation.compareAndSet(null, new Violation("deadlock-free", sem.taskName(t) + " never took the lock"));
                return;
            }
            Thread.onSpinWait();
        }
        unlock(t);
    }

    private void guarded(Runnable r) {
        try {
            r.run();
        } catch (SpinBudgetExceeded e) {
            violation.compareAndSet(null, new Violation("deadlock-free", e.getMessage()));
        } catch (WaitAbandoned e) {
            /* another task recorded a violation: the run is over */
        }
    }

    /** Throws the first violation any task recorded. */
    void check() {
        Violation v = violation.get();
        if (v != null) {
            throw v;
        }
    }

    /** Runs all tasks to completion on plain threads, then {@link #check()}s. */
    void runOnPlainThreads() throws InterruptedException {
        java.util.concurrent.ConcurrentLinkedQueue<Throwable> crashed = new java.util.concurrent.ConcurrentLinkedQueue<>();
        Thread[] ts = new Thread[code.length];
        for (int t = 0; t < ts.length; t++) {
            final int task = t;
            ts[t] = new Thread(() -> task(task), sem.taskName(t));
            ts[t].setDaemon(true);
            ts[t].setUncaughtExceptionHandler((th, e) -> crashed.add(e));
        }
        for (Thread t : ts) {
            t.start();
        }
        for (Thread t : ts) {
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

    /** The writer task (readers first) whose pointer names the write-lock owner in {@code owner}, -1 for none. */
    private int ownerWriter(long owner) {
        if (!bits) {
            return owner >= RwsemCount.writerTask(0) ? readers + RwsemCount.writerIndex(owner) : -1;
        }
        int t = RwsemBits.taskIndex(owner);
        return t >= readers && (owner & RwsemBits.RWSEM_READER_OWNED) == 0 ? t : -1;
    }

    /** The monitor of all tasks; its hooks are short and synchronized (atomic on plain threads too). */
    final class Monitor implements RwsemObserver {
        private final boolean exclusion;
        private final boolean ownerSound;
        private final boolean handoff;
        /** The task the handoff bit is set for, -1 while it is clear. */
        private int handoffFor = -1;
        private final boolean k2;
        private final boolean strict;
        private final boolean[] holds;
        private final boolean[] inDownRead;
        private final boolean[] ownerDone;
        private int spinner = -1;
        /** sem->owner as last stored (every store goes through {@link #ownerStored}). */
        private long owner = RwsemCount.NULL;
        private int settledLoads;
        private int allLoads;

        Monitor(Set<String> properties) {
            this.exclusion = properties.contains("exclusion");
            this.ownerSound = properties.contains("owner-sound");
            this.handoff = properties.contains("handoff");
            this.k2 = properties.contains("no-spin-on-readers-k2");
            this.strict = properties.contains("no-spin-on-readers-strict");
            int n = sem.tasks();
            this.holds = new boolean[n];
            this.inDownRead = new boolean[n];
            this.ownerDone = new boolean[n];
        }

        private void violated(String property, String explanation) {
            violation.compareAndSet(null, new Violation(property, explanation));
        }

        private int readersHolding() {
            int c = 0;
            for (int t = 0; t < readers; t++) {
                c += holds[t] ? 1 : 0;
            }
            return c;
        }

        private int writersHolding() {
            int c = 0;
            for (int t = readers; t < holds.length; t++) {
                c += holds[t] ? 1 : 0;
            }
            return c;
        }

        private boolean settled(int r) {
            return !inDownRead[r] || ownerDone[r];
        }

        private void take(int t, int[] together) {
            if (handoff && handoffFor >= 0 && t != handoffFor && !holds[t] && !contains(together, handoffFor)) {
                violated("handoff", sem.taskName(t) + " takes the lock while the handoff bit is set for "
                        + sem.taskName(handoffFor));
            }
            if (!sem.isWriter(t) && !holds[t] && readersHolding() == 0) {
                settledLoads = 0;
                allLoads = 0;
            }
            holds[t] = true;
            if (exclusion) {
                int w = writersHolding();
                int r = readersHolding();
                if (w > 1 || (w == 1 && r > 0)) {
                    violated("exclusion", sem.taskName(t) + " takes the lock while " + w + " writer(s) and " + r
                            + " reader(s) hold it (counting itself)");
                }
            }
        }

        private static boolean contains(int[] a, int x) {
            for (int v : a) {
                if (v == x) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public synchronized void lockAcquired(int task) {
            take(task, new int[0]);
        }

        @Override
        public synchronized void readersGranted(int waker, int[] granted) {
            for (int r : granted) {
                take(r, granted);
            }
        }

        /** The v5.3+ handoff bit changes only under wait_lock: the first waiter read here is the one it is set for. */
        @Override
        public synchronized void countChanged(int task, long before, long after) {
            if (bits && ((before ^ after) & RwsemBits.RWSEM_FLAG_HANDOFF) != 0) {
                handoffFor = (after & RwsemBits.RWSEM_FLAG_HANDOFF) != 0 ? sem.firstWaiter() : -1;
            }
        }

        @Override
        public synchronized void lockReleased(int task) {
            holds[task] = false;
            if (ownerSound && sem.isWriter(task) && ownerWriter(owner) == task) {
                violated("owner-sound", "owner is still " + sem.taskName(task) + " after it released the lock");
            }
        }

        @Override
        public synchronized void ownerStored(int task, long stored) {
            owner = stored;
            if (ownerSound && ownerWriter(stored) >= 0 && !holds[ownerWriter(stored)]) {
                violated("owner-sound", sem.taskName(task) + " stores owner = " + RwsemCount.showOwner(stored)
                        + ", which does not hold the write lock");
            }
            if (!sem.isWriter(task) && holds[task] && inDownRead[task]) {
                ownerDone[task] = true;
            }
        }

        @Override
        public synchronized void ownerLoaded(int task, long owner) {
            if (!sem.isWriter(task) && holds[task] && inDownRead[task] && owner == RwsemCount.RWSEM_READER_OWNED && !bits) {
                ownerDone[task] = true;
            }
        }

        @Override
        public synchronized void osqTaken(int task) {
            spinner = task;
            settledLoads = 0;
            allLoads = 0;
        }

        @Override
        public synchronized void osqReleased(int task) {
            spinner = -1;
        }

        @Override
        public synchronized void countLoaded(int task, long count) {
            if (task != spinner || !(k2 || strict) || readersHolding() == 0 || writersHolding() > 0 || !inTrylockUnqueued()) {
                return;
            }
            allLoads++;
            if (strict && allLoads > K) {
                violated("no-spin-on-readers-strict", sem.taskName(task) + " (the spinner) has loaded count " + allLoads
                        + " times in rwsem_try_write_lock_unqueued while only readers hold the lock (count "
                        + RwsemCount.show(count) + "): more than K = " + K);
            }
            for (int r = 0; r < readers; r++) {
                if (holds[r] && !settled(r)) {
                    return;
                }
            }
            settledLoads++;
            if (k2 && settledLoads > K) {
                violated("no-spin-on-readers-k2", sem.taskName(task) + " (the spinner) has loaded count " + settledLoads
                        + " times in rwsem_try_write_lock_unqueued while only settled readers hold the lock (count "
                        + RwsemCount.show(count) + "): more than K = " + K);
            }
        }

        private boolean inTrylockUnqueued() {
            for (Kernel k : KernelCitations.onStack()) {
                if (k.function().equals("rwsem_try_write_lock_unqueued")) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public synchronized void entering(int task, String function) {
            if (function.startsWith("up_")) {
                inCriticalSection.set(task, 0);
            }
            if (function.equals("down_read")) {
                inDownRead[task] = true;
                ownerDone[task] = false;
            }
        }

        @Override
        public synchronized void returned(int task, String function) {
            if (function.startsWith("down_")) {
                inCriticalSection.set(task, 1);
            }
            if (function.equals("down_read")) {
                inDownRead[task] = false;
            }
        }

        @Override
        public boolean stopWaiting() {
            return violation.get() != null;
        }
    }
}
