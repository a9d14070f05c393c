package kcheck.model.rwsem;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link RwSem} with a concrete wait list, for running the port's functions that hold {@code sem->wait_lock}
 * ({@code rwsem_mark_wake}, {@code rwsem_try_write_lock}, {@code rwsem_del_wake_waiter}) one call at a time, as
 * {@code kcheck conform rwsem-owner} compares them with a tree's C ({@link RwsemWaitPaths}). The waiters are tasks
 * 1, 2, ... in list order (reader or writer, the first's {@code handoff_set}); the caller is task 0 (a waker) or one
 * of the waiters. What the list operations of the model leave open (which moved reader is next on {@code wlist}) is
 * the list's order here, as in the kernel.
 *
 * <p>Every read of shared memory ({@code sem->count}, {@code sem->owner}, {@code jiffies}) finds the value the run's
 * {@link Reads} give; every operation the C's driver prints is recorded as the same text. The wait list, the waiters'
 * flags and the wake queue are plain memory under wait_lock: no text, but the list's final state is compared.
 */
final class WaitListRwSem implements RwSem {

    /** One waiter: its task, its type and {@code handoff_set}. */
    static final class Waiter {
        final int task;
        final boolean writer;
        boolean handoffSet;

        Waiter(int task, boolean writer, boolean handoffSet) {
            this.task = task;
            this.writer = writer;
            this.handoffSet = handoffSet;
        }
    }

    /** The values the reads of a run find, by index into each read's domain, and the domain size of each read made. */
    static final class Reads {
        final List<Integer> picks;
        final List<Integer> sizes = new ArrayList<>();
        final List<String> entries = new ArrayList<>();
        /** Index in the text of the operation each read is. */
        final List<Integer> at = new ArrayList<>();

        Reads(List<Integer> picks) {
            this.picks = picks;
        }

        int next(int size) {
            int i = sizes.size();
            sizes.add(size);
            return i < picks.size() ? picks.get(i) : 0;
        }
    }

    private final RwsemDomain dom;
    private final Reads reads;
    final List<String> text = new ArrayList<>();
    final List<Waiter> list = new ArrayList<>();
    private final List<Waiter> wlist = new ArrayList<>();
    private final int me;
    private final Waiter mine;
    private Waiter granted;
    private int wakeQ;

    WaitListRwSem(RwsemDomain dom, Reads reads, String spec, int me) {
        this.dom = dom;
        this.reads = reads;
        this.me = me;
        Waiter m = null;
        for (int i = 0; i < spec.length(); i++) {
            char c = spec.charAt(i);
            if (c == 'h') {
                list.get(list.size() - 1).handoffSet = true;
                continue;
            }
            Waiter w = new Waiter(list.size() + 1, c == 'w', false);
            list.add(w);
            if (w.task == me) {
                m = w;
            }
        }
        this.mine = m;
    }

    /** The wait list as the driver prints it: {@code list t1r,t2w+h} ({@code +h}: handoff_set). */
    String listText() {
        StringBuilder b = new StringBuilder("list ");
        for (int i = 0; i < list.size(); i++) {
            Waiter w = list.get(i);
            b.append(i == 0 ? "" : ",").append('t').append(w.task).append(w.writer ? 'w' : 'r').append(w.handoffSet ? "+h" : "");
        }
        return list.isEmpty() ? "list -" : b.toString();
    }

    private void op(String s) {
        text.add(s);
    }

    private long count(String what) {
        reads.at.add(text.size());
        long v = dom.countValue(reads.next(dom.outcomes(Op.COUNT_READ)));
        reads.entries.add("c" + Long.toHexString(v));
        op(what);
        return v;
    }

    private boolean clock() {
        reads.at.add(text.size());
        boolean passed = reads.next(2) == 1;
        reads.entries.add(passed ? "b1" : "b0");
        op("jiffies");
        return passed;
    }

    private Waiter first() {
        return list.get(0);
    }

    /* ---- sem->count ---- */

    @Override
    public long atomicLongRead() {
        return count("count load");
    }

    @Override
    public long atomicLongFetchAdd(long i) {
        return count("count fetch_add " + RwsemPaths.hex(i));
    }

    @Override
    public void atomicLongAdd(long i) {
        reads.entries.add("-");
        op("count add " + RwsemPaths.hex(i));
    }

    @Override
    public long atomicLongCmpxchg(long old, long nw) {
        return count("count cmpxchg " + RwsemPaths.hex(old) + " " + RwsemPaths.hex(nw));
    }

    @Override
    public void atomicLongAndnot(long mask) {
        op("count andnot " + RwsemPaths.hex(mask));
    }

    @Override
    public void atomicLongOr(long mask) {
        op("count or " + RwsemPaths.hex(mask));
    }

    /* ---- sem->owner ---- */

    @Override
    public long readOwner() {
        reads.at.add(text.size());
        long v = dom.ownerValue(reads.next(dom.outcomes(Op.OWNER_READ)));
        reads.entries.add("o" + Long.toHexString(v));
        op("owner load");
        return v;
    }

    @Override
    public void writeOwner(long owner) {
        op("owner store " + RwsemPaths.owner(owner));
    }

    @Override
    public long current() {
        return RwsemBits.task(me);
    }

    /* ---- the clock, the task ---- */

    @Override
    public boolean rtTask() {
        return false;                                   /* the shim's rt_task()/rt_or_dl_task(): no RT tasks */
    }

    @Override
    public boolean waitTimedOut() {
        return clock();                                 /* time_after(jiffies, waiter->timeout) */
    }

    @Override
    public boolean firstWaiterTimedOut() {
        return clock();
    }

    /* ---- wait_lock and the wait list ---- */

    @Override
    public void rawSpinUnlockIrq() {
        op("wait_lock unlock");
    }

    @Override
    public boolean listEmpty() {
        return list.isEmpty();
    }

    @Override
    public boolean listIsSingular() {
        return list.size() == 1;
    }

    @Override
    public void listDel() {
        list.remove(mine);
    }

    @Override
    public boolean waitListFrontIsWriter() {
        return first().writer;
    }

    @Override
    public long frontWaiterTask() {
        return RwsemBits.task(first().task);
    }

    @Override
    public void wakeUpFrontWriter() {
        wakeQ++;
        op("wake_q_add t" + first().task);
    }

    @Override
    public int waitListMoveReaders() {
        int woken = 0;
        for (int i = 0; i < list.size();) {
            Waiter w = list.get(i);
            if (w.writer) {
                i++;
                continue;
            }
            woken++;
            wlist.add(list.remove(i));
            if (woken >= RwsemBits.MAX_READERS_WAKEUP) {
                break;
            }
        }
        return woken;
    }

    @Override
    public void clearWaiterTask(int which) {
        if (which != WAITER_WLIST || wlist.isEmpty()) {
            throw new UnsupportedOperationException("clearWaiterTask(" + which + ")");
        }
        granted = wlist.remove(0);
        op("waiter.task store");
    }

    @Override
    public void wakeQAdd(int which) {
        if (which != WAITER_CURRENT || granted == null) {
            throw new UnsupportedOperationException("wakeQAdd(" + which + ")");
        }
        wakeQ++;
        op("wake_q_add t" + granted.task);
    }

    @Override
    public boolean isFirstWaiter() {
        return !list.isEmpty() && first() == mine;
    }

    @Override
    public boolean firstWaiterHandoffSet() {
        return first().handoffSet;
    }

    @Override
    public void setFirstWaiterHandoff() {
        first().handoffSet = true;
    }

    @Override
    public boolean waiterHandoffSet() {
        return mine.handoffSet;
    }

    @Override
    public void setWaiterHandoff() {
        mine.handoffSet = true;
    }

    @Override
    public void wakeQInit() {
        wakeQ = 0;
    }

    @Override
    public boolean wakeQEmpty() {
        return wakeQ == 0;
    }

    @Override
    public void wakeUpQ() {
        op("wake_up_q");
    }

    @Override
    public void lockAcquired() {
    }

    @Override
    public void lockReleased() {
    }

    /* ---- not reached with wait_lock held ---- */

    private static UnsupportedOperationException outside(String what) {
        return new UnsupportedOperationException(what + " is not called with wait_lock held");
    }

    @Override
    public long atomicLongAddReturn(long i) {
        throw outside("atomic_long_add_return");
    }

    @Override
    public long ownerCmpxchg(long old, long nw) {
        throw outside("owner cmpxchg");
    }

    @Override
    public void ownerOr(long mask) {
        throw outside("owner or");
    }

    @Override
    public void ownerAndnot(long mask) {
        throw outside("owner andnot");
    }

    @Override
    public boolean onCpu(long owner) {
        throw outside("owner_on_cpu");
    }

    @Override
    public boolean needResched() {
        throw outside("need_resched");
    }

    @Override
    public void preemptDisable() {
    }

    @Override
    public void preemptEnable() {
    }

    @Override
    public void cpuRelax() {
        throw outside("cpu_relax");
    }

    @Override
    public void schedule() {
        throw outside("schedule");
    }

    @Override
    public void armWaitTimeout() {
        throw outside("waiter.timeout = jiffies + ...");
    }

    @Override
    public void armSpinDeadline() {
        throw outside("sched_clock");
    }

    @Override
    public boolean spinDeadlinePassed() {
        throw outside("sched_clock");
    }

    @Override
    public boolean osqLock() {
        throw outside("osq_lock");
    }

    @Override
    public void osqUnlock() {
        throw outside("osq_unlock");
    }

    @Override
    public boolean osqIsLocked() {
        throw outside("osq_is_locked");
    }

    @Override
    public void rawSpinLockIrq() {
        throw outside("raw_spin_lock_irq");
    }

    @Override
    public boolean rawSpinTrylockIrqsave() {
        throw outside("raw_spin_trylock");
    }

    @Override
    public void listAddTail(int type) {
        throw outside("rwsem_add_waiter");
    }

    @Override
    public int waitListLeadingReaders() {
        throw outside("the v4.x grant loop");
    }

    @Override
    public boolean waitListWriterAfter(int n) {
        throw outside("the v4.x grant loop");
    }

    @Override
    public void waitListGrantReaders(int n) {
        throw outside("the v4.x grant loop");
    }

    @Override
    public boolean waiterTaskIsNull() {
        throw outside("waiter.task");
    }

    @Override
    public void waitListWakeMoved() {
        throw outside("the v4.x wake of moved readers");
    }

    @Override
    public void initWaiterHandoff() {
        throw outside("waiter.handoff_set = false");
    }

    @Override
    public void setWaiterRdNonspinnable(boolean set) {
        throw outside("the reader's nonspinnable note");
    }

    @Override
    public boolean firstWaiterRdNonspinnable() {
        throw outside("the reader's nonspinnable note");
    }
}
