package kcheck.model.rwsem;

import java.util.ArrayList;
import java.util.List;

import kcheck.model.MemoryOrder;

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
    private Waiter mine;
    private Waiter granted;
    private int wakeQ;
    /** The caller's own waiter was granted the lock by a waker (its task is NULL, it is off the list). */
    private boolean mineGranted;
    private boolean waitLockHeld;
    /** Other waiters the list may hold at a wait_lock acquisition (the slow paths). */
    private final int others;
    /**
     * The writer's slow path: {@code need_resched()} is set (its optimistic spinning, compared on its own before
     * wait_lock, gives up at once; the handoff spin in the wait loop ends after its owner reads).
     */
    boolean needReschedSet;
    /**
     * need_resched() is set at its first test only ({@code rwsem_can_spin_on_owner} at the slow path's entry, so that the
     * optimistic spinning compared before wait_lock gives up) and a choice of the run at every later one: the writer's
     * handoff spin in its wait loop, after a schedule() that cleared it.
     */
    boolean needReschedFree;
    private boolean needReschedAsked;

    WaitListRwSem(RwsemDomain dom, Reads reads, String spec, int me) {
        this(dom, reads, spec, me, 0);
        waitLockHeld = true;
    }

    /** For a slow path: {@code others} waiters at most besides the caller's own at each wait_lock acquisition. */
    WaitListRwSem(RwsemDomain dom, Reads reads, String spec, int me, int others) {
        this.dom = dom;
        this.reads = reads;
        this.me = me;
        this.others = others;
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

    /**
     * The wait lists a wait_lock acquisition may find, as the driver's specs: other waiters {@code r}/{@code w} (tasks
     * 1, 2, ... in order), {@code M} the caller's own where it is queued, {@code G} first when a waker granted it the
     * lock meanwhile (a reader: off the list, its task NULL).
     */
    private List<String> specs() {
        List<String> base = new ArrayList<>();
        for (int n = 0; n <= others; n++) {
            for (int t = 0; t < 1 << n; t++) {
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    b.append((t >>> i & 1) != 0 ? 'w' : 'r');
                }
                base.add(b.toString());
            }
        }
        List<String> out = new ArrayList<>();
        if (mine == null || mineGranted) {
            out.addAll(base);
            return out;
        }
        for (String o : base) {
            for (int at = 0; at <= o.length(); at++) {
                out.add(o.substring(0, at) + "M" + o.substring(at));
            }
        }
        if (!mine.writer) {
            for (String o : base) {
                out.add("G" + o);
            }
        }
        return out;
    }

    private void relist(String spec) {
        list.clear();
        int task = 1;
        for (int i = 0; i < spec.length(); i++) {
            char c = spec.charAt(i);
            if (c == 'G') {
                mineGranted = true;
            } else if (c == 'M') {
                list.add(mine);
            } else {
                list.add(new Waiter(task++, c == 'w', false));
            }
        }
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

    /** The ordering the port gave its next access ({@link #order}), taken by that access. */
    private MemoryOrder pendingOrder;

    @Override
    public void order(MemoryOrder order) {
        pendingOrder = order;
    }

    /** A barrier: an operation of its own, as the driver prints the C's ({@code barrier rmb}). */
    @Override
    public void barrier(String fence) {
        op("barrier " + fence);
    }

    /** An access to sem->count, sem->owner or waiter.task as the driver prints it: with the ordering the port gave it. */
    private String ordered(String access) {
        String s = access + " " + pendingOrder;
        pendingOrder = null;
        return s;
    }

    private long count(String what) {
        reads.at.add(text.size());
        long v = dom.countValue(reads.next(dom.outcomes(Op.COUNT_READ)));
        reads.entries.add("c" + Long.toHexString(v));
        op(what);
        return v;
    }

    /** A boolean read (the driver's {@code b0}/{@code b1}): its value is the run's choice. */
    private boolean readBool(String what) {
        reads.at.add(text.size());
        int v = reads.next(2);
        reads.entries.add("b" + v);
        op(what);
        return v == 1;
    }

    private boolean clock() {
        return readBool("jiffies");
    }

    private Waiter first() {
        return list.get(0);
    }

    /* ---- sem->count ---- */

    @Override
    public long atomicLongRead() {
        return count(ordered("count load"));
    }

    @Override
    public long atomicLongFetchAdd(long i) {
        return count(ordered("count fetch_add " + RwsemPaths.hex(i)));
    }

    @Override
    public void atomicLongAdd(long i) {
        reads.entries.add("-");
        op(ordered("count add " + RwsemPaths.hex(i)));
    }

    @Override
    public long atomicLongCmpxchg(long old, long nw) {
        return count(ordered("count cmpxchg " + RwsemPaths.hex(old) + " " + RwsemPaths.hex(nw)));
    }

    @Override
    public void atomicLongAndnot(long mask) {
        op(ordered("count andnot " + RwsemPaths.hex(mask)));
    }

    @Override
    public void atomicLongOr(long mask) {
        op(ordered("count or " + RwsemPaths.hex(mask)));
    }

    /* ---- sem->owner ---- */

    @Override
    public long readOwner() {
        reads.at.add(text.size());
        long v = dom.ownerValue(reads.next(dom.outcomes(Op.OWNER_READ)));
        reads.entries.add("o" + Long.toHexString(v));
        op(ordered("owner load"));
        return v;
    }

    @Override
    public void writeOwner(long owner) {
        op(ordered("owner store " + RwsemPaths.owner(owner)));
    }

    @Override
    public void ownerOr(long mask) {
        op(ordered("owner or " + RwsemPaths.hex(mask)));
    }

    @Override
    public void ownerAndnot(long mask) {
        op(ordered("owner andnot " + RwsemPaths.hex(mask)));
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

    /** {@code raw_spin_lock_irq(&sem->wait_lock)}: the list found is a choice of the run (other tasks queue and leave meanwhile). */
    @Override
    public void rawSpinLockIrq() {
        op("wait_lock lock");
        waitLockHeld = true;
        List<String> specs = specs();
        reads.at.add(text.size() - 1);
        String spec = specs.get(reads.next(specs.size()));
        reads.entries.add("L" + spec);
        relist(spec);
    }

    @Override
    public void listAddTail(int type) {
        mine = new Waiter(me, type == RwsemCount.RWSEM_WAITING_FOR_WRITE, false);
        list.add(mine);
    }

    /**
     * {@code !waiter.task} of the caller's own waiter: under wait_lock the list's state (granted or not), in the
     * reader's sleep loop ({@code smp_load_acquire(&waiter.task)}) a read whose value is a choice of the run.
     */
    @Override
    public boolean waiterTaskIsNull() {
        if (waitLockHeld) {
            pendingOrder = null;                                    /* if (waiter.task): a plain read, no operation */
            return mineGranted;
        }
        boolean granted = !readBool(ordered("waiter.task load"));           /* b0: the task pointer is NULL */
        if (granted) {
            /* the waker that granted it took it off the list (rwsem_mark_wake's list_move_tail); the driver does the same */
            mineGranted = true;
            list.remove(mine);
        }
        return granted;
    }

    @Override
    public boolean signalPending() {
        return readBool("signal_pending");
    }

    @Override
    public boolean needResched() {
        if (!needReschedSet) {
            throw outside("need_resched");
        }
        if (needReschedFree && needReschedAsked) {
            return readBool("need_resched");
        }
        needReschedAsked = true;
        reads.entries.add("b1");
        op("need_resched");
        return true;
    }

    /**
     * {@code owner_on_cpu(owner)}: the writer's handoff spin ({@code rwsem_spin_on_owner} in its wait loop) when
     * need_resched may be clear ({@link #needReschedFree}); a choice of the run.
     */
    @Override
    public boolean onCpu(long owner) {
        if (!needReschedFree) {
            throw outside("owner_on_cpu");
        }
        return readBool("on_cpu " + RwsemPaths.owner(owner));
    }

    /** {@code cpu_relax()} of that spin: no operation (the shim's is a compiler barrier). */
    @Override
    public void cpuRelax() {
        if (!needReschedFree) {
            throw outside("cpu_relax");
        }
    }

    @Override
    public void setCurrentState() {
        op("set_current_state");
    }

    @Override
    public void schedule() {
        op("schedule");
    }

    /** {@code waiter.timeout = jiffies + RWSEM_WAIT_TIMEOUT}: a read whose value does not matter (every waiter's timeout is 1). */
    @Override
    public void armWaitTimeout() {
        reads.entries.add("-");
        op("jiffies");
    }

    @Override
    public void initWaiterHandoff() {
    }

    @Override
    public long atomicLongAddReturn(long i) {
        return count(ordered("count add_return " + RwsemPaths.hex(i))) + i;
    }

    @Override
    public void rawSpinUnlockIrq() {
        op("wait_lock unlock");
        waitLockHeld = false;
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
        op(ordered("waiter.task store"));
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
    public long ownerCmpxchg(long old, long nw) {
        throw outside("owner cmpxchg");
    }




    @Override
    public void preemptDisable() {
    }

    @Override
    public void preemptEnable() {
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
    public boolean rawSpinTrylockIrqsave() {
        throw outside("raw_spin_trylock");
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
    public void waitListWakeMoved() {
        throw outside("the v4.x wake of moved readers");
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
