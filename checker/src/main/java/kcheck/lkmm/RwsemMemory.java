package kcheck.lkmm;

import static kcheck.litmus.GraphSearch.ACQUIRE;
import static kcheck.litmus.GraphSearch.ONCE;
import static kcheck.litmus.GraphSearch.RELEASE;
import static kcheck.litmus.GraphSearch.RMW;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

import kcheck.litmus.GraphSearch.Access;
import kcheck.litmus.GraphSearch.Kind;
import kcheck.model.MemoryOrder;
import kcheck.model.ModelInputException;
import kcheck.model.rwsem.RwSem;
import kcheck.model.rwsem.RwsemBits;

/**
 * The {@code struct rw_semaphore} and the scheduler services of one task under {@code memory-model=lkmm}:
 * each {@link RwSem} operation the port calls becomes the LKMM events the kernel code makes, with the
 * ordering the port states ({@link RwSem#order}), its values coming from the search.
 *
 * <p>Locations: {@code count} and {@code owner} (atomic_long_t); {@code wait_lock}, a spinlock taken with an
 * acquire RMW from 0 to 1 and released with a store-release of 0 (what LKMM's lock.cat gives spin_lock and
 * spin_unlock, built from atomics); {@code wait_list}, the list as one value, read and written with plain
 * accesses under {@code wait_lock} (once per critical section: the compiler may keep it in a register); per
 * task {@code tN.waiter.task} (the waiter's task pointer, {@code smp_store_release(&waiter->task, NULL)} by the
 * waker) and {@code tN.state} (the task state: {@code set_current_state()} is {@code smp_store_mb()};
 * {@code wake_up_process()} is a full barrier, a load of the state and, unless it is TASK_RUNNING, a store of
 * TASK_RUNNING; {@code schedule()} returns once the task's state is TASK_RUNNING, so a task that sleeps
 * while no one will wake it is a hang).
 *
 * <p>The environment is closed to the paths that have no memory of their own: {@code need_resched()} is true
 * at {@code rwsem_can_spin_on_owner()} (no optimistic spinning), no wait times out, no task is RT and no
 * signal arrives (the uninterruptible entry points). The wake queue is the waker's own (its node in the task,
 * {@code task->wake_q.next}, is not modelled). docs/lkmm-models.md lists these assumptions.
 */
final class RwsemMemory implements RwSem {
    static final String COUNT = "count";
    static final String OWNER = "owner";
    static final String WAIT_LOCK = "wait_lock";
    static final String WAIT_LIST = "wait_list";
    static final long TASK_RUNNING = 0;
    static final long TASK_UNINTERRUPTIBLE = 2;

    /** The task has nothing to do until a location it read changes (its last input is rejected). */
    static final class Blocked extends RuntimeException {
        Blocked() {
            super(null, null, false, false);
        }
    }

    static String waiterTask(int task) {
        return "t" + task + ".waiter.task";
    }

    static String state(int task) {
        return "t" + task + ".state";
    }

    private final int task;
    private final int tasks;
    private final int readers;
    private final StepRecorder.Inputs in;
    private final List<Access> ev;
    /** The thread's reads so far (bit i: event i): every later event depends on them (docs/lkmm-models.md, assumption 1). */
    long reads;
    private MemoryOrder order;
    /** The wait list as this task last read or wrote it while holding wait_lock; null when it must be read. */
    private long[] list;
    private final List<Integer> wakeQ = new ArrayList<>();
    private final List<Integer> wlist = new ArrayList<>();
    private int current = -1;

    RwsemMemory(int task, int tasks, int readers, StepRecorder.Inputs in, List<Access> ev) {
        this.task = task;
        this.tasks = tasks;
        this.readers = readers;
        this.in = in;
        this.ev = ev;
    }

    /* ---------------- events ---------------- */

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final java.util.Map<String, String> KERNEL_NAMES = new java.util.concurrent.ConcurrentHashMap<>();

    /** The port's code that made the call: its kernel function ({@code @Kernel}) and Java file:line. */
    private static String where() {
        StackWalker.StackFrame f = WALKER.walk(s -> s.filter(x -> !x.getClassName().startsWith("kcheck.lkmm.")).findFirst()).orElse(null);
        if (f == null) {
            return "?";
        }
        String fn = KERNEL_NAMES.computeIfAbsent(f.getClassName() + "#" + f.getMethodName(), k -> kernelName(f));
        return fn + " (" + f.getFileName() + ":" + f.getLineNumber() + ")";
    }

    private static String kernelName(StackWalker.StackFrame f) {
        for (Class<?> c = f.getDeclaringClass(); c != null; c = c.getSuperclass()) {
            for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
                kcheck.model.Kernel k = m.getAnnotation(kcheck.model.Kernel.class);
                if (m.getName().equals(f.getMethodName()) && k != null) {
                    return k.function();
                }
            }
        }
        return f.getMethodName();
    }

    private int add(Kind k, String loc, long value, int flags, String fence, long data, int partner, String label) {
        if (ev.size() == 64) {
            throw new ModelInputException("a task makes more than 64 events under memory-model=lkmm (the search's limit per "
                    + "thread): use fewer rounds");
        }
        ev.add(new Access(k, loc, value, flags, fence, reads, data, partner, label));
        return ev.size() - 1;
    }

    private void fence(String f, String label) {
        add(Kind.FENCE, null, 0, 0, f, 0, -1, label);
    }

    private long read(String loc, int flags, String label) {
        long v = in.take(loc);
        int i = add(Kind.READ, loc, v, flags, null, 0, -1, label);
        reads |= 1L << i;
        return v;
    }

    private void write(String loc, long value, int flags, String label) {
        add(Kind.WRITE, loc, value, flags, null, 0, -1, label);
    }

    private MemoryOrder order(String what) {
        MemoryOrder o = order;
        order = null;
        if (o == null) {
            throw new ModelInputException("the port's " + what + " at " + where() + " states no ordering (RwSem.order) under "
                    + "memory-model=lkmm");
        }
        return o;
    }

    private static int plainFlags(MemoryOrder o) {
        return switch (o) {
            case PLAIN -> 0;
            case ACQUIRE -> ACQUIRE;
            case RELEASE -> RELEASE;
            default -> ONCE;
        };
    }

    /** A read-modify-write of {@code loc}: returns the old value; {@code f} null or returning the old value for a failed cmpxchg. */
    private long rmw(String loc, String what, LongUnaryOperator f, boolean conditional) {
        MemoryOrder o = order(what);
        String label = what + " (" + o.name().toLowerCase() + ") at " + where();
        boolean full = o == MemoryOrder.RMW_FULL;
        long old = in.take(loc);
        long nw = f.applyAsLong(old);
        boolean writes = !conditional || nw != old;
        if (!writes) {
            int i = add(Kind.READ, loc, old, ONCE, null, 0, -1, label + ", failed");
            reads |= 1L << i;
            return old;
        }
        if (full) {
            fence("mb", label);
        }
        int r = ev.size();
        add(Kind.READ, loc, old, RMW | (o == MemoryOrder.RMW_ACQUIRE ? ACQUIRE : ONCE), null, 0, r + 1, label);
        reads |= 1L << r;
        add(Kind.WRITE, loc, nw, RMW | (o == MemoryOrder.RMW_RELEASE ? RELEASE : ONCE), null, 1L << r, r, label);
        if (full) {
            fence("mb", label);
        }
        return old;
    }

    private long load(String loc, String what) {
        MemoryOrder o = order(what);
        return read(loc, plainFlags(o), what + " (" + o.name().toLowerCase() + ") at " + where());
    }

    private void store(String loc, long v, String what) {
        MemoryOrder o = order(what);
        write(loc, v, plainFlags(o), what + " (" + o.name().toLowerCase() + ") at " + where());
    }

    /* ---------------- sem->count, sem->owner ---------------- */

    @Override
    public void order(MemoryOrder o) {
        order = o;
    }

    @Override
    public void barrier(String f) {
        fence(f, "smp_" + f + "() at " + where());
    }

    @Override
    public long atomicLongRead() {
        return load(COUNT, "atomic_long_read(&sem->count)");
    }

    @Override
    public long atomicLongAddReturn(long i) {
        return rmw(COUNT, "atomic_long_add_return(" + i + ", &sem->count)", v -> v + i, false) + i;
    }

    @Override
    public long atomicLongFetchAdd(long i) {
        return rmw(COUNT, "atomic_long_fetch_add(" + i + ", &sem->count)", v -> v + i, false);
    }

    @Override
    public void atomicLongAdd(long i) {
        rmw(COUNT, "atomic_long_add(" + i + ", &sem->count)", v -> v + i, false);
    }

    @Override
    public long atomicLongCmpxchg(long old, long nw) {
        return rmw(COUNT, "atomic_long_try_cmpxchg(&sem->count, " + old + ", " + nw + ")", v -> v == old ? nw : v, true);
    }

    @Override
    public void atomicLongOr(long mask) {
        rmw(COUNT, "atomic_long_or(" + mask + ", &sem->count)", v -> v | mask, false);
    }

    @Override
    public void atomicLongAndnot(long mask) {
        rmw(COUNT, "atomic_long_andnot(" + mask + ", &sem->count)", v -> v & ~mask, false);
    }

    @Override
    public long readOwner() {
        return load(OWNER, "atomic_long_read(&sem->owner)");
    }

    @Override
    public void writeOwner(long owner) {
        store(OWNER, owner, "atomic_long_set(&sem->owner, " + owner + ")");
    }

    @Override
    public long ownerCmpxchg(long old, long nw) {
        return rmw(OWNER, "atomic_long_try_cmpxchg(&sem->owner, " + old + ", " + nw + ")", v -> v == old ? nw : v, true);
    }

    @Override
    public void ownerOr(long mask) {
        rmw(OWNER, "atomic_long_or(" + mask + ", &sem->owner)", v -> v | mask, false);
    }

    @Override
    public void ownerAndnot(long mask) {
        rmw(OWNER, "atomic_long_andnot(" + mask + ", &sem->owner)", v -> v & ~mask, false);
    }

    /* ---------------- the task and its environment ---------------- */

    @Override
    public long current() {
        return RwsemBits.task(task);
    }

    @Override
    public boolean onCpu(long owner) {
        throw unmodelled("owner_on_cpu()");
    }

    /** True: under lkmm no writer spins optimistically (rwsem_can_spin_on_owner() is its first caller). */
    @Override
    public boolean needResched() {
        return true;
    }

    @Override
    public boolean rtTask() {
        return false;
    }

    @Override
    public void preemptDisable() {
    }

    @Override
    public void preemptEnable() {
    }

    @Override
    public void cpuRelax() {
    }

    /** {@code schedule()}: the task runs on once its state is TASK_RUNNING (a waker stored it); until then it sleeps. */
    @Override
    public void schedule() {
        long s = read(state(task), ONCE, "schedule(): READ_ONCE(current->__state) at " + where());
        if (s != TASK_RUNNING) {
            throw in.stop(new Blocked());
        }
    }

    /** {@code set_current_state(TASK_UNINTERRUPTIBLE)}: {@code smp_store_mb(current->__state, ...)}. */
    @Override
    public void setCurrentState() {
        String label = "set_current_state(TASK_UNINTERRUPTIBLE) at " + where();
        write(state(task), TASK_UNINTERRUPTIBLE, ONCE, label);
        fence("mb", label);
    }

    /** The waiter's initialisation, {@code waiter.task = current; ...; waiter.timeout = ...}: the plain store of its task. */
    @Override
    public void armWaitTimeout() {
        write(waiterTask(task), RwsemBits.task(task), 0, "waiter.task = current at " + where());
    }

    @Override
    public boolean waitTimedOut() {
        return false;
    }

    @Override
    public boolean firstWaiterTimedOut() {
        return false;
    }

    @Override
    public void armSpinDeadline() {
        throw unmodelled("rwsem_rspin_threshold()");
    }

    @Override
    public boolean spinDeadlinePassed() {
        throw unmodelled("the reader-owned spin deadline");
    }

    @Override
    public boolean osqLock() {
        throw unmodelled("osq_lock()");
    }

    @Override
    public void osqUnlock() {
        throw unmodelled("osq_unlock()");
    }

    @Override
    public boolean osqIsLocked() {
        throw unmodelled("osq_is_locked()");
    }

    private static ModelInputException unmodelled(String what) {
        return new ModelInputException(what + " is not modelled under memory-model=lkmm (no optimistic spinning, no timeouts: "
                + "docs/lkmm-models.md)");
    }

    /* ---------------- wait_lock ---------------- */

    @Override
    public void rawSpinLockIrq() {
        if (!takeWaitLock("raw_spin_lock_irq(&sem->wait_lock) at " + where(), ": held, spins")) {
            throw in.stop(new Blocked());
        }
    }

    @Override
    public boolean rawSpinTrylockIrqsave() {
        return takeWaitLock("raw_spin_trylock_irqsave(&sem->wait_lock) at " + where(), ": failed");
    }

    /** An acquire RMW of wait_lock from 0 to 1; when it reads 1, only that read (and false). */
    private boolean takeWaitLock(String label, String held) {
        long v = in.take(WAIT_LOCK);
        if (v != 0) {
            int i = add(Kind.READ, WAIT_LOCK, v, ONCE, null, 0, -1, label + held);
            reads |= 1L << i;
            return false;
        }
        int r = ev.size();
        add(Kind.READ, WAIT_LOCK, 0, RMW | ACQUIRE, null, 0, r + 1, label);
        reads |= 1L << r;
        add(Kind.WRITE, WAIT_LOCK, 1, RMW | ONCE, null, 1L << r, r, label);
        list = null;
        return true;
    }

    @Override
    public void rawSpinUnlockIrq() {
        write(WAIT_LOCK, 0, RELEASE, "raw_spin_unlock_irq(&sem->wait_lock) at " + where());
        list = null;
    }

    /* ---------------- the wait list (wait_lock held) ---------------- */

    /** The list's tasks, front first: one plain load per wait_lock critical section. */
    private long[] list() {
        if (list == null) {
            list = WaitList.decode(read(WAIT_LIST, 0, "sem->wait_list at " + where()), tasks);
        }
        return list;
    }

    private void setList(long[] l, String what) {
        list = l;
        write(WAIT_LIST, WaitList.encode(l, tasks), 0, what + " at " + where());
    }

    private boolean isWriter(long t) {
        return t >= readers;
    }

    @Override
    public boolean listEmpty() {
        return list().length == 0;
    }

    @Override
    public void listAddTail(int type) {
        long[] l = list();
        long[] n = java.util.Arrays.copyOf(l, l.length + 1);
        n[l.length] = task;
        setList(n, "list_add_tail(&waiter->list, &sem->wait_list)");
    }

    @Override
    public boolean listIsSingular() {
        return list().length == 1;
    }

    @Override
    public void listDel() {
        long[] l = list();
        setList(java.util.Arrays.stream(l).filter(t -> t != task).toArray(), "list_del(&waiter->list)");
    }

    @Override
    public boolean waitListFrontIsWriter() {
        return isWriter(list()[0]);
    }

    @Override
    public int waitListLeadingReaders() {
        int n = 0;
        for (long t : list()) {
            if (isWriter(t)) {
                break;
            }
            n++;
        }
        return n;
    }

    @Override
    public boolean waitListWriterAfter(int n) {
        long[] l = list();
        return l.length > n && isWriter(l[n]);
    }

    /** {@code waiter->task} of the front waiter: a plain load under wait_lock. */
    @Override
    public long frontWaiterTask() {
        return read(waiterTask((int) list()[0]), 0, "waiter->task (front waiter) at " + where());
    }

    @Override
    public void wakeUpFrontWriter() {
        wakeQ.add((int) list()[0]);
    }

    @Override
    public void waitListGrantReaders(int n) {
        throw unmodelledPort("waitListGrantReaders (the v4.x grant loop)");
    }

    @Override
    public void wakeQAdd(int which) {
        if (which != WAITER_CURRENT || current < 0) {
            throw unmodelledPort("wake_q_add of waiter " + which);
        }
        wakeQ.add(current);
    }

    @Override
    public void clearWaiterTask(int which) {
        if (which != WAITER_WLIST || wlist.isEmpty()) {
            throw unmodelledPort("clearing waiter " + which);
        }
        current = wlist.remove(0);
        store(waiterTask(current), 0, "waiter->task = NULL (the granted reader's)");
    }

    @Override
    public boolean waiterTaskIsNull() {
        return load(waiterTask(task), "waiter.task") == 0;
    }

    @Override
    public int waitListMoveReaders() {
        long[] l = list();
        List<Long> keep = new ArrayList<>();
        for (long t : l) {
            if (isWriter(t)) {
                keep.add(t);
            } else {
                wlist.add((int) t);
            }
        }
        if (keep.size() != l.length) {
            setList(keep.stream().mapToLong(Long::longValue).toArray(), "list_move_tail(&waiter->list, &wlist)");
        }
        return l.length - keep.size();
    }

    @Override
    public void waitListWakeMoved() {
        while (!wlist.isEmpty()) {
            clearWaiterTask(WAITER_WLIST);
            wakeQAdd(WAITER_CURRENT);
        }
    }

    @Override
    public boolean isFirstWaiter() {
        long[] l = list();
        return l.length > 0 && l[0] == task;
    }

    @Override
    public void initWaiterHandoff() {
    }

    @Override
    public boolean waiterHandoffSet() {
        return false;
    }

    @Override
    public void setWaiterHandoff() {
        throw unmodelled("the handoff bit");
    }

    @Override
    public boolean firstWaiterHandoffSet() {
        return false;
    }

    @Override
    public void setFirstWaiterHandoff() {
        throw unmodelled("the handoff bit");
    }

    @Override
    public void setWaiterRdNonspinnable(boolean set) {
        throw unmodelledPort("RWSEM_RD_NONSPINNABLE (v5.3 to v5.10)");
    }

    @Override
    public boolean firstWaiterRdNonspinnable() {
        throw unmodelledPort("RWSEM_RD_NONSPINNABLE (v5.3 to v5.10)");
    }

    private static ModelInputException unmodelledPort(String what) {
        return new ModelInputException(what + ": memory-model=lkmm runs the rwsem.c ports of v5.11 and later (v6.12 and its "
                + "variants)");
    }

    /* ---------------- wake-ups ---------------- */

    @Override
    public void wakeQInit() {
        wakeQ.clear();
    }

    @Override
    public boolean wakeQEmpty() {
        return wakeQ.isEmpty();
    }

    /** {@code wake_up_q()}: {@code wake_up_process()} of each queued task, in order. */
    @Override
    public void wakeUpQ() {
        for (int t : wakeQ) {
            String label = "wake_up_process(t" + t + ") at " + where();
            fence("mb", label + ": smp_mb__after_spinlock()");
            long s = read(state(t), ONCE, label + ": READ_ONCE(p->__state)");
            if (s != TASK_RUNNING) {
                write(state(t), TASK_RUNNING, ONCE, label + ": WRITE_ONCE(p->__state, TASK_RUNNING)");
            }
        }
        wakeQ.clear();
    }

    @Override
    public void lockAcquired() {
    }

    @Override
    public void lockReleased() {
    }

    /** The wait list as one value: task numbers + 1 in base {@code tasks + 1} digits, the front the lowest. */
    static final class WaitList {
        private WaitList() {
        }

        static long encode(long[] l, int tasks) {
            long v = 0;
            for (int i = l.length - 1; i >= 0; i--) {
                v = v * (tasks + 1) + l[i] + 1;
            }
            return v;
        }

        static long[] decode(long v, int tasks) {
            List<Long> out = new ArrayList<>();
            for (; v != 0; v /= tasks + 1) {
                out.add(v % (tasks + 1) - 1);
            }
            return out.stream().mapToLong(Long::longValue).toArray();
        }
    }
}
