package kcheck.model.rwsem.threads;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import kcheck.model.rwsem.RwSem;
import kcheck.model.rwsem.RwsemBits;
import kcheck.model.rwsem.RwsemCount;
import kcheck.model.threads.SpinBudgetExceeded;
import kcheck.model.threads.WaitAbandoned;

/**
 * One {@code struct rw_semaphore} shared by real threads, with the scheduler services the
 * reference code calls, given the semantics the explicit-state model gives them
 * (RwsemOwnerModel):
 * <ul>
 * <li>{@code sem->count} and {@code sem->owner}: {@link AtomicLong}s, one atomic operation per
 * {@link RwSem} call;</li>
 * <li>the osq: a CAS lock naming its holder; {@code osq_lock} takes it when free and otherwise
 * waits (it would give up on need_resched, which is never raised here);</li>
 * <li>{@code wait_lock}: a ticket spinlock (FIFO, as the kernel's queued raw spinlock); the wait
 * list: task ids in an array, read and written
 * only by the {@code wait_lock} holder; each task's {@code waiter.task != NULL} is a flag of its
 * own ({@code waiterTaskIsNull} reads it without {@code wait_lock}, as the kernel does);</li>
 * <li>{@code schedule()}: waits until woken: a queued reader until it has been granted the lock,
 * a writer until {@code wake_up_process} left it a pending wake-up (consumed by that
 * {@code schedule()}; forgotten when the writer leaves the wait list);</li>
 * <li>{@code owner->on_cpu} is always 1 and {@code need_resched()} always 0: real threads are
 * not preempted by this harness (the model also explores preemption and need_resched; the
 * thread side explores the schedules without them, a subset).</li>
 * </ul>
 * Tasks {@code 0..readers-1} are readers, the others writers. Every wait (osq, wait_lock,
 * schedule) and every {@code cpu_relax()} of the spinning code counts against
 * {@code spinBudget}; running out throws {@link SpinBudgetExceeded}.
 */
public final class ThreadRwSem {
    private final int readers;
    private final int writers;
    private final boolean[] rt;
    private final long spinBudget;

    /** Waiters' RWSEM_WAIT_TIMEOUT and spinners' reader-spin deadlines count as passed (no clock on this side). */
    private final boolean deadlinesPassed;
    /** Owner values are v5.3+ task pointers ({@link RwsemBits#task}), readers' included. */
    private final boolean bits;

    private final AtomicLong count = new AtomicLong(RwsemCount.RWSEM_UNLOCKED_VALUE);
    private final AtomicLong owner = new AtomicLong(RwsemCount.NULL);
    private final AtomicInteger osq = new AtomicInteger(-1);
    /** wait_lock: a ticket spinlock (FIFO, as the kernel's queued raw spinlock), and who holds it. */
    private final AtomicInteger waitLockNext = new AtomicInteger();
    private final AtomicInteger waitLockServing = new AtomicInteger();
    private final AtomicInteger waitLock = new AtomicInteger(-1);
    /** The wait list, front first; only the wait_lock holder touches it. */
    private final int[] waitList;
    private int waitListLength;
    /** Per task: 1 while its waiter is queued ({@code waiter.task != NULL}). */
    private final AtomicIntegerArray queued;
    /** Per task (writers): 1 while a wake-up is pending. */
    private final AtomicIntegerArray woken;
    /** Per task: its waiter's {@code handoff_set} (v5.18+), read without wait_lock. */
    private final AtomicIntegerArray handoffSet;
    /** Per task: its waiter's {@code last_rowner & RWSEM_RD_NONSPINNABLE} (v5.3 to v5.10). */
    private final boolean[] rdNonspinnable;

    /** {@code rt[w]}: writer {@code w} is an RT task ({@code rt_task(current)}); no deadline ever passes. */
    public ThreadRwSem(int readers, int writers, boolean[] rt, long spinBudget) {
        this(readers, writers, rt, spinBudget, false, false);
    }

    /**
     * As {@link #ThreadRwSem(int, int, boolean[], long)}; {@code bits}: owner values are v5.3+ task
     * pointers ({@link RwsemBits#task}), readers' included; with {@code deadlinesPassed} every
     * waiter's RWSEM_WAIT_TIMEOUT and every reader-spin deadline has passed as soon as it is armed
     * (the handoff of v5.3+ then starts at a waiter's first failed attempt).
     */
    public ThreadRwSem(int readers, int writers, boolean[] rt, long spinBudget, boolean bits, boolean deadlinesPassed) {
        if (rt.length != writers) {
            throw new IllegalArgumentException("one RT flag per writer");
        }
        if (spinBudget < 1) {
            throw new IllegalArgumentException("spin budget must be positive");
        }
        this.readers = readers;
        this.writers = writers;
        this.rt = rt.clone();
        this.spinBudget = spinBudget;
        int n = readers + writers;
        this.waitList = new int[n];
        this.queued = new AtomicIntegerArray(n);
        this.woken = new AtomicIntegerArray(n);
        this.handoffSet = new AtomicIntegerArray(n);
        this.rdNonspinnable = new boolean[n];
        this.deadlinesPassed = deadlinesPassed;
        this.bits = bits;
    }

    /** The task whose waiter is first in the wait list, -1 if it is empty (a racy read: for monitors). */
    public int firstWaiter() {
        return waitListLength > 0 ? waitList[0] : -1;
    }

    public int tasks() {
        return readers + writers;
    }

    public boolean isWriter(int task) {
        return task >= readers;
    }

    /** The {@link RwSem} as task {@code task} calls it, reported to {@code observer}. */
    public RwSem forTask(int task, RwsemObserver observer) {
        if (task < 0 || task >= tasks()) {
            throw new IllegalArgumentException("no task " + task);
        }
        return new TaskView(task, observer);
    }

    /** "reader 0", "writer 1" (writers numbered from 0, as owner values are). */
    public String taskName(int task) {
        return isWriter(task) ? "writer " + (task - readers) : "reader " + task;
    }

    private final class TaskView implements RwSem {
        private final int task;
        private final RwsemObserver observer;
        private final String name;
        /** Iterations of the current wait, or cpu_relax() calls since this task last took the osq. */
        private long spins;
        /** The task's wake queue is not empty. */
        private boolean wakeQ;
        /** The reader waiters this task (a waker) moved to its wake list. */
        private final int[] movedList = new int[readers + writers];
        private int moved;

        TaskView(int task, RwsemObserver observer) {
            this.task = task;
            this.observer = observer;
            this.name = taskName(task);
        }

        /**
         * One more iteration of a wait (the count lives in a field: a spin loop must look the same
         * on every iteration, or Lincheck cannot tell that it spins).
         */
        private void waitOnce(String where) {
            if (observer.stopWaiting()) {
                throw new WaitAbandoned(name);
            }
            if (++spins >= spinBudget) {
                throw new SpinBudgetExceeded(name, where, spins);
            }
            Thread.onSpinWait();
        }

        private void requireWaitLock(String what) {
            if (waitLock.get() != task) {
                throw new IllegalStateException(name + ": " + what + " without holding wait_lock");
            }
        }

        /* ---- sem->count ---- */

        @Override
        public long atomicLongRead() {
            long c = count.get();
            observer.countLoaded(task, c);
            return c;
        }

        /** Reports the count step (no other shared access here: the hook belongs to the step). */
        private void counted(long before, long after) {
            observer.countChanged(task, before, after);
        }

        @Override
        public long atomicLongAddReturn(long i) {
            long after = count.addAndGet(i);
            counted(after - i, after);
            return after;
        }

        @Override
        public long atomicLongFetchAdd(long i) {
            long before = count.getAndAdd(i);
            counted(before, before + i);
            return before;
        }

        @Override
        public void atomicLongAdd(long i) {
            long after = count.addAndGet(i);
            counted(after - i, after);
        }

        @Override
        public long atomicLongCmpxchg(long old, long nw) {
            long found = count.compareAndExchange(old, nw);
            if (found == old) {
                counted(old, nw);
            }
            return found;
        }

        @Override
        public void atomicLongOr(long mask) {
            long before = count.getAndUpdate(c -> c | mask);
            counted(before, before | mask);
        }

        @Override
        public void atomicLongAndnot(long mask) {
            long before = count.getAndUpdate(c -> c & ~mask);
            counted(before, before & ~mask);
        }

        /* ---- sem->owner ---- */

        @Override
        public long readOwner() {
            long o = owner.get();
            observer.ownerLoaded(task, o);
            return o;
        }

        @Override
        public void writeOwner(long o) {
            owner.set(o);
            observer.ownerStored(task, o);
        }

        @Override
        public long ownerCmpxchg(long old, long nw) {
            long found = owner.compareAndExchange(old, nw);
            if (found == old) {
                observer.ownerStored(task, nw);
            }
            return found;
        }

        @Override
        public void ownerOr(long mask) {
            observer.ownerStored(task, owner.updateAndGet(o -> o | mask));
        }

        @Override
        public void ownerAndnot(long mask) {
            observer.ownerStored(task, owner.updateAndGet(o -> o & ~mask));
        }

        @Override
        public long current() {
            if (bits) {
                return RwsemBits.task(task);
            }
            if (!isWriter(task)) {
                throw new IllegalStateException(name + ": a reader's task pointer is not an owner value");
            }
            return RwsemCount.writerTask(task - readers);
        }

        @Override
        public boolean onCpu(long o) {
            return true;
        }

        /* ---- scheduler ---- */

        @Override
        public boolean needResched() {
            return false;
        }

        @Override
        public boolean rtTask() {
            return isWriter(task) && rt[task - readers];
        }

        @Override
        public void preemptDisable() {
        }

        @Override
        public void preemptEnable() {
        }

        @Override
        public void cpuRelax() {
            waitOnce("in rwsem_optimistic_spin");
        }

        @Override
        public void armWaitTimeout() {
        }

        @Override
        public boolean waitTimedOut() {
            return deadlinesPassed;
        }

        @Override
        public boolean firstWaiterTimedOut() {
            requireWaitLock("the front waiter's timeout");
            return deadlinesPassed;
        }

        @Override
        public void armSpinDeadline() {
        }

        @Override
        public boolean spinDeadlinePassed() {
            return deadlinesPassed;
        }

        @Override
        public void schedule() {
            spins = 0;
            if (isWriter(task)) {
                while (woken.getAndSet(task, 0) == 0) {
                    waitOnce("in schedule() waiting for a wake-up");
                }
            } else {
                while (queued.get(task) != 0) {
                    waitOnce("in schedule() waiting for the read lock");
                }
            }
        }

        /* ---- sem->osq ---- */

        @Override
        public boolean osqLock() {
            spins = 0;
            while (!osq.compareAndSet(-1, task)) {
                waitOnce("in osq_lock");
            }
            spins = 0;
            observer.osqTaken(task);
            return true;
        }

        @Override
        public void osqUnlock() {
            osq.set(-1);
            observer.osqReleased(task);
        }

        @Override
        public boolean osqIsLocked() {
            return osq.get() >= 0;
        }

        /* ---- sem->wait_lock ---- */

        @Override
        public void rawSpinLockIrq() {
            long before = spins;
            spins = 0;
            int ticket = waitLockNext.getAndIncrement();
            while (waitLockServing.get() != ticket) {
                waitOnce("for wait_lock");
            }
            waitLock.set(task);
            spins = before;
        }

        @Override
        public boolean rawSpinTrylockIrqsave() {
            int serving = waitLockServing.get();
            if (waitLockNext.compareAndSet(serving, serving + 1)) {
                waitLock.set(task);
                return true;
            }
            return false;
        }

        @Override
        public void rawSpinUnlockIrq() {
            if (waitLock.get() != task) {
                throw new IllegalStateException(name + ": releases wait_lock it does not hold");
            }
            waitLock.set(-1);
            waitLockServing.incrementAndGet();
        }

        /* ---- sem->wait_list (wait_lock held) ---- */

        @Override
        public boolean listEmpty() {
            requireWaitLock("list_empty");
            return waitListLength == 0;
        }

        @Override
        public void listAddTail(int type) {
            requireWaitLock("list_add_tail");
            boolean writer = type == RwsemCount.RWSEM_WAITING_FOR_WRITE;
            if (writer != isWriter(task)) {
                throw new IllegalStateException(name + " queues a waiter of the other type");
            }
            waitList[waitListLength++] = task;
            queued.set(task, 1);
        }

        @Override
        public boolean listIsSingular() {
            requireWaitLock("list_is_singular");
            return waitListLength == 1;
        }

        @Override
        public void listDel() {
            requireWaitLock("list_del");
            int at = -1;
            for (int i = 0; i < waitListLength; i++) {
                if (waitList[i] == task) {
                    at = i;
                }
            }
            if (at < 0) {
                throw new IllegalStateException(name + ": list_del of a waiter that is not queued");
            }
            System.arraycopy(waitList, at + 1, waitList, at, waitListLength - at - 1);
            waitListLength--;
            queued.set(task, 0);
            woken.set(task, 0);
        }

        @Override
        public boolean waitListFrontIsWriter() {
            requireWaitLock("the front waiter's type");
            return waitListLength > 0 && isWriter(waitList[0]);
        }

        @Override
        public int waitListLeadingReaders() {
            requireWaitLock("the walk of the wait list");
            int k = 0;
            while (k < waitListLength && !isWriter(waitList[k])) {
                k++;
            }
            return k;
        }

        @Override
        public boolean waitListWriterAfter(int n) {
            requireWaitLock("the walk of the wait list");
            return n < waitListLength && isWriter(waitList[n]);
        }

        @Override
        public void wakeUpFrontWriter() {
            requireWaitLock("wake_up_process of the front writer");
            if (waitListLength == 0 || !isWriter(waitList[0])) {
                throw new IllegalStateException(name + ": wakes the front writer, but the front waiter is not a writer");
            }
            woken.set(waitList[0], 1);
            wakeQ = true;
        }

        @Override
        public void waitListGrantReaders(int n) {
            requireWaitLock("the reader grant");
            int[] granted = new int[n];
            for (int i = 0; i < n; i++) {
                granted[i] = waitList[i];
                if (isWriter(granted[i])) {
                    throw new IllegalStateException(name + ": grants the read lock to a writer");
                }
            }
            System.arraycopy(waitList, n, waitList, 0, waitListLength - n);
            waitListLength -= n;
            observer.readersGranted(task, granted);
            for (int r : granted) {
                queued.set(r, 0);
            }
            wakeQ = true;
        }

        @Override
        public boolean waiterTaskIsNull() {
            return queued.get(task) == 0;
        }

        @Override
        public long frontWaiterTask() {
            requireWaitLock("the front waiter's task");
            return RwsemBits.task(waitList[0]);
        }

        @Override
        public int waitListMoveReaders() {
            requireWaitLock("the reader waiters' move");
            int kept = 0;
            moved = 0;
            for (int i = 0; i < waitListLength; i++) {
                int t = waitList[i];
                if (isWriter(t)) {
                    waitList[kept++] = t;
                } else {
                    movedList[moved++] = t;
                }
            }
            waitListLength = kept;
            return moved;
        }

        /**
         * The grant of one reader waiter: the front one, or the next moved one (v5.4+ 2nd pass). Real threads wake at the
         * grant (the wake queue is not kept: wakeQAdd does nothing).
         */
        @Override
        public void clearWaiterTask(int which) {
            if (which == WAITER_CURRENT) {
                if (pendingGrant) {
                    pendingGrant = false;
                    return;
                }
                which = WAITER_FRONT;
            }
            if (which == WAITER_FRONT) {
                waitListGrantReaders(1);
                return;
            }
            int r = movedList[0];
            System.arraycopy(movedList, 1, movedList, 0, moved - 1);
            moved--;
            observer.readersGranted(task, new int[] {r});
            queued.set(r, 0);
            wakeQ = true;
        }

        /** True between a grant made at {@code clearWaiterTask(WAITER_WLIST)} and its {@code wakeQAdd(WAITER_CURRENT)}. */
        private boolean pendingGrant;

        @Override
        public void wakeQAdd(int which) {
            if (which == WAITER_WLIST) {
                clearWaiterTask(WAITER_WLIST);                     /* granted here: its clearWaiterTask(CURRENT) is a no-op */
                pendingGrant = true;
            }
        }

        @Override
        public void waitListWakeMoved() {
            int[] granted = java.util.Arrays.copyOf(movedList, moved);
            observer.readersGranted(task, granted);
            for (int r : granted) {
                queued.set(r, 0);
            }
            moved = 0;
            wakeQ = true;
        }

        @Override
        public boolean isFirstWaiter() {
            return waitListLength > 0 && waitList[0] == task;
        }

        @Override
        public void initWaiterHandoff() {
            handoffSet.set(task, 0);
        }

        @Override
        public boolean waiterHandoffSet() {
            return handoffSet.get(task) == 1;
        }

        @Override
        public void setWaiterHandoff() {
            requireWaitLock("waiter->handoff_set");
            handoffSet.set(task, 1);
        }

        @Override
        public boolean firstWaiterHandoffSet() {
            requireWaitLock("first->handoff_set");
            return waitListLength > 0 && handoffSet.get(waitList[0]) == 1;
        }

        @Override
        public void setFirstWaiterHandoff() {
            requireWaitLock("first->handoff_set");
            handoffSet.set(waitList[0], 1);
        }

        @Override
        public void setWaiterRdNonspinnable(boolean set) {
            rdNonspinnable[task] = set;
        }

        @Override
        public boolean firstWaiterRdNonspinnable() {
            requireWaitLock("the front waiter's last_rowner");
            return rdNonspinnable[waitList[0]];
        }

        @Override
        public void wakeQInit() {
            wakeQ = false;
        }

        @Override
        public boolean wakeQEmpty() {
            return !wakeQ;
        }

        @Override
        public void wakeUpQ() {
            wakeQ = false;
        }

        /* ---- model annotations ---- */

        @Override
        public void lockAcquired() {
            observer.lockAcquired(task);
        }

        @Override
        public void lockReleased() {
            observer.lockReleased(task);
        }
    }
}
