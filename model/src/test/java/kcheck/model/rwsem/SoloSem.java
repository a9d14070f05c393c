package kcheck.model.rwsem;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link RwSem} for running reference code sequentially in unit tests: one calling task, a
 * settable semaphore and scheduler state, and a log of the atomic operations in the order the
 * code performs them. Operations that would block throw {@link WouldBlock}.
 */
final class SoloSem implements RwSem {
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
    boolean waitLockHeld;
    int waiters;
    /** on_cpu of writers 0, 1, 2. */
    final boolean[] onCpu = {true, true, true};
    final List<String> log = new ArrayList<>();
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
        log.add("count += " + RwsemCount.show(i));
        count += i;
        return count;
    }

    @Override
    public long atomicLongFetchAdd(long i) {
        log.add("count += " + RwsemCount.show(i));
        long old = count;
        count += i;
        return old;
    }

    @Override
    public void atomicLongAdd(long i) {
        log.add("count += " + RwsemCount.show(i));
        count += i;
    }

    @Override
    public long atomicLongCmpxchg(long old, long nw) {
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
        return owner;
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
    }

    @Override
    public void preemptEnable() {
    }

    @Override
    public void cpuRelax() {
        throw new WouldBlock("spins");
    }

    @Override
    public void schedule() {
        throw new WouldBlock("sleeps");
    }

    @Override
    public boolean osqLock() {
        log.add("osq_lock");
        if (osqHeld) {
            throw new WouldBlock("osq held");
        }
        osqHeld = true;
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
        waitLockHeld = true;
    }

    @Override
    public boolean rawSpinTrylockIrqsave() {
        if (waitLockHeld) {
            return false;
        }
        waitLockHeld = true;
        return true;
    }

    @Override
    public void rawSpinUnlockIrq() {
        waitLockHeld = false;
    }

    @Override
    public boolean listEmpty() {
        return waiters == 0;
    }

    @Override
    public void listAddTail(int type) {
        log.add("list_add_tail");
        waiters++;
    }

    @Override
    public boolean listIsSingular() {
        return waiters == 1;
    }

    @Override
    public void listDel() {
        waiters--;
    }

    @Override
    public boolean waitListFrontIsWriter() {
        return true;
    }

    @Override
    public int waitListLeadingReaders() {
        return 0;
    }

    @Override
    public boolean waitListWriterAfter(int n) {
        return false;
    }

    @Override
    public void wakeUpFrontWriter() {
        log.add("wake writer");
    }

    @Override
    public void waitListGrantReaders(int n) {
        log.add("grant " + n);
    }

    @Override
    public boolean waiterTaskIsNull() {
        return false;
    }

    @Override
    public void lockAcquired() {
        log.add("acquired");
    }

    @Override
    public void lockReleased() {
        log.add("released");
    }
}
