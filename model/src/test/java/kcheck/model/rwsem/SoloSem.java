package kcheck.model.rwsem;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link RwSem} for running reference code sequentially in unit tests: one calling task, a
 * settable semaphore and scheduler state (including other tasks' waiters on the wait list), and
 * a log of the atomic operations in the order the code performs them. Operations that would
 * block throw {@link WouldBlock}, except {@code schedule()} while {@link #whileAsleep} holds
 * what other tasks do meanwhile.
 */
final class SoloSem implements RwSem {
    record Waiter(int type, boolean own) {
    }

    /** Other tasks' waiters of these types, queued before the caller. */
    SoloSem queued(int... types) {
        for (int t : types) {
            waitList.add(new Waiter(t, false));
        }
        return this;
    }

    static final class WouldBlock extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WouldBlock(String what) {
            super(what);
        }
    }

    long count;
    long owner;
    long current = RwsemCount.writerTask(0);
    boolean needResched;
    boolean rt;
    boolean osqHeld;
    /** preempt_disable() depth, and what it was when the caller took the osq. */
    int preemptCount;
    int preemptCountAtOsqLock = -1;
    boolean waitLockHeld;
    /** The wait list, front first: waiter types ({@code RWSEM_WAITING_FOR_*}) and whose they are. */
    final List<Waiter> waitList = new ArrayList<>();
    /** The caller's own waiter was granted the lock ({@code waiter->task = NULL}). */
    boolean granted;
    /** What other tasks do while the caller sleeps in {@code schedule()}, one per call. */
    final java.util.ArrayDeque<Runnable> whileAsleep = new java.util.ArrayDeque<>();
    /** on_cpu of writers 0, 1, 2. */
    final boolean[] onCpu = {true, true, true};
    final List<String> log = new ArrayList<>();
    /** Values the next owner loads find (other tasks' steps in between), before {@link #owner}. */
    final java.util.ArrayDeque<Long> ownerLoads = new java.util.ArrayDeque<>();
    /** Other tasks' steps that run just before the next writes of {@code count}, one per write. */
    final java.util.ArrayDeque<Runnable> beforeWrites = new java.util.ArrayDeque<>();
    /** How many {@code cpu_relax()} calls return (the spinner goes round again) before one blocks. */
    int relaxes;
    /** Values the next count loads find (other tasks' steps in between), before {@link #count}. */
    final java.util.ArrayDeque<Long> loads = new java.util.ArrayDeque<>();

    @Override
    public long atomicLongRead() {
        log.add("read count");
        if (!loads.isEmpty()) {
            count = loads.poll();
        }
        return count;
    }

    @Override
    public long atomicLongAddReturn(long i) {
        interleave();
        log.add("count += " + RwsemCount.show(i));
        count += i;
        return count;
    }

    @Override
    public long atomicLongFetchAdd(long i) {
        interleave();
        log.add("count += " + RwsemCount.show(i));
        long old = count;
        count += i;
        return old;
    }

    @Override
    public void atomicLongAdd(long i) {
        interleave();
        log.add("count += " + RwsemCount.show(i));
        count += i;
    }

    @Override
    public long atomicLongCmpxchg(long old, long nw) {
        interleave();
        log.add("cmpxchg count");
        long found = count;
        if (found == old) {
            count = nw;
        }
        return found;
    }

    @Override
    public long readOwner() {
        log.add("read owner");
        if (!ownerLoads.isEmpty()) {
            owner = ownerLoads.poll();
        }
        return owner;
    }

    private void interleave() {
        if (!beforeWrites.isEmpty()) {
            beforeWrites.poll().run();
        }
    }

    @Override
    public void writeOwner(long o) {
        log.add("owner = " + RwsemCount.showOwner(o));
        owner = o;
    }

    @Override
    public long current() {
        return current;
    }

    @Override
    public boolean onCpu(long o) {
        log.add("on_cpu");
        return onCpu[RwsemCount.writerIndex(o)];
    }

    @Override
    public boolean needResched() {
        return needResched;
    }

    @Override
    public boolean rtTask() {
        return rt;
    }

    @Override
    public void preemptDisable() {
        preemptCount++;
    }

    @Override
    public void preemptEnable() {
        preemptCount--;
    }

    @Override
    public void cpuRelax() {
        if (relaxes > 0) {
            relaxes--;
            log.add("cpu_relax");
            return;
        }
        throw new WouldBlock("spins");
    }

    @Override
    public void schedule() {
        if (whileAsleep.isEmpty()) {
            throw new WouldBlock("sleeps");
        }
        log.add("schedule");
        whileAsleep.poll().run();
    }

    @Override
    public boolean osqLock() {
        log.add("osq_lock");
        if (osqHeld) {
            throw new WouldBlock("osq held");
        }
        osqHeld = true;
        preemptCountAtOsqLock = preemptCount;
        return true;
    }

    @Override
    public void osqUnlock() {
        log.add("osq_unlock");
        osqHeld = false;
    }

    @Override
    public boolean osqIsLocked() {
        return osqHeld;
    }

    @Override
    public void rawSpinLockIrq() {
        if (waitLockHeld) {
            throw new WouldBlock("wait_lock held");
        }
        log.add("wait_lock");
        waitLockHeld = true;
    }

    @Override
    public boolean rawSpinTrylockIrqsave() {
        if (waitLockHeld) {
            log.add("wait_lock trylock failed");
            return false;
        }
        log.add("wait_lock");
        waitLockHeld = true;
        return true;
    }

    @Override
    public void rawSpinUnlockIrq() {
        log.add("wait_unlock");
        waitLockHeld = false;
    }

    @Override
    public boolean listEmpty() {
        return waitList.isEmpty();
    }

    @Override
    public void listAddTail(int type) {
        log.add("list_add_tail");
        waitList.add(new Waiter(type, true));
    }

    @Override
    public boolean listIsSingular() {
        return waitList.size() == 1;
    }

    @Override
    public void listDel() {
        waitList.removeIf(Waiter::own);
    }

    @Override
    public boolean waitListFrontIsWriter() {
        return waitList.get(0).type() == RwsemCount.RWSEM_WAITING_FOR_WRITE;
    }

    @Override
    public int waitListLeadingReaders() {
        int n = 0;
        while (n < waitList.size() && waitList.get(n).type() == RwsemCount.RWSEM_WAITING_FOR_READ) {
            n++;
        }
        return n;
    }

    @Override
    public boolean waitListWriterAfter(int n) {
        return n < waitList.size() && waitList.get(n).type() == RwsemCount.RWSEM_WAITING_FOR_WRITE;
    }

    @Override
    public void wakeUpFrontWriter() {
        log.add("wake writer");
    }

    @Override
    public void waitListGrantReaders(int n) {
        log.add("grant " + n);
        for (int i = 0; i < n; i++) {
            granted |= waitList.remove(0).own();
        }
    }

    @Override
    public boolean waiterTaskIsNull() {
        return granted;
    }

    @Override
    public void lockAcquired() {
        log.add("acquired");
    }

    @Override
    public void lockReleased() {
        log.add("released");
    }

    /* ---- operations of the v5.3+ code only: not used by the v4.x tests ---- */

    private static UnsupportedOperationException v5(String op) {
        return new UnsupportedOperationException(op + " (v5.3+ only)");
    }

    @Override
    public void atomicLongOr(long mask) {
        throw v5("atomic_long_or");
    }

    @Override
    public void atomicLongAndnot(long mask) {
        throw v5("atomic_long_andnot");
    }

    @Override
    public long ownerCmpxchg(long old, long nw) {
        throw v5("owner cmpxchg");
    }

    @Override
    public void ownerOr(long mask) {
        throw v5("owner or");
    }

    @Override
    public void ownerAndnot(long mask) {
        throw v5("owner andnot");
    }

    @Override
    public void armWaitTimeout() {
        throw v5("waiter.timeout");
    }

    @Override
    public boolean waitTimedOut() {
        throw v5("waiter.timeout");
    }

    @Override
    public boolean firstWaiterTimedOut() {
        throw v5("first->timeout");
    }

    @Override
    public void armSpinDeadline() {
        throw v5("rspin_threshold");
    }

    @Override
    public boolean spinDeadlinePassed() {
        throw v5("rspin_threshold");
    }

    @Override
    public long frontWaiterTask() {
        throw v5("first->task");
    }

    @Override
    public int waitListMoveReaders() {
        throw v5("list_move_tail");
    }

    @Override
    public void waitListWakeMoved() {
        throw v5("wake moved");
    }

    @Override
    public boolean isFirstWaiter() {
        throw v5("rwsem_first_waiter");
    }

    @Override
    public void initWaiterHandoff() {
        throw v5("handoff_set");
    }

    @Override
    public boolean waiterHandoffSet() {
        throw v5("handoff_set");
    }

    @Override
    public void setWaiterHandoff() {
        throw v5("handoff_set");
    }

    @Override
    public boolean firstWaiterHandoffSet() {
        throw v5("handoff_set");
    }

    @Override
    public void setFirstWaiterHandoff() {
        throw v5("handoff_set");
    }

    @Override
    public void setWaiterRdNonspinnable(boolean set) {
        throw v5("last_rowner");
    }

    @Override
    public boolean firstWaiterRdNonspinnable() {
        throw v5("last_rowner");
    }

    @Override
    public void wakeQInit() {
    }

    @Override
    public boolean wakeQEmpty() {
        return true;
    }

    @Override
    public void wakeUpQ() {
    }
}
