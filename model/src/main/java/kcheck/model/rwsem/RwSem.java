package kcheck.model.rwsem;

import kcheck.model.MemoryOrder;

/**
 * The {@code struct rw_semaphore} as the reference code sees it, and the few scheduler and
 * locking services it calls. Every method that touches memory shared with other tasks is one
 * atomic step of the calling task, in the order the code calls it:
 * <ul>
 * <li>{@code sem->count}: {@link #atomicLongRead}, {@link #atomicLongAddReturn},
 *     {@link #atomicLongFetchAdd}, {@link #atomicLongAdd}, {@link #atomicLongCmpxchg} (the
 *     {@code _acquire}/{@code _release} forms are the same step: the model is sequentially
 *     consistent);</li>
 * <li>{@code sem->owner}: {@link #readOwner} ({@code READ_ONCE(sem->owner)} or a plain load) and
 *     {@link #writeOwner};</li>
 * <li>{@code owner->on_cpu}: {@link #onCpu};</li>
 * <li>{@code sem->osq}: {@link #osqLock} (waits in the queue; gives up when need_resched is set),
 *     {@link #osqUnlock}, {@link #osqIsLocked};</li>
 * <li>{@code sem->wait_lock}: {@link #rawSpinLockIrq} (waits), {@link #rawSpinTrylockIrqsave},
 *     {@link #rawSpinUnlockIrq};</li>
 * <li>wake-ups: {@link #wakeUpFrontWriter}, {@link #waitListGrantReaders}, and
 *     {@link #schedule} (sleeps until woken).</li>
 * </ul>
 * The wait list is only read and written with {@code wait_lock} held, so its operations
 * ({@code list_empty}, {@code list_add_tail}, ...) are not steps of their own: they happen in
 * the step before the next shared access. So do reads of the task's own flags
 * ({@link #needResched}, {@link #rtTask}, {@link #waiterTaskIsNull}) and the pure markers
 * ({@link #preemptDisable}, {@link #cpuRelax}, ...).
 *
 * <p>Owners are task pointers: {@link RwsemCount#NULL}, {@link RwsemCount#RWSEM_READER_OWNED}
 * or a task's {@link #current()} value.
 *
 * <p>Two calls are model annotations, not kernel code: {@link #lockAcquired()} right after the
 * atomic step that takes the lock and {@link #lockReleased()} right after the one that releases
 * it. {@code exclusion} and {@code owner-sound} are checked against them.
 */
public interface RwSem {

    /** {@link #wakeQAdd}, {@link #clearWaiterTask}: the front waiter of the wait list (v4.x grant loop). */
    int WAITER_FRONT = 0;
    /** The next reader on the waker's private list {@code wlist} (the 2nd pass of v5.4+ {@code rwsem_mark_wake}). */
    int WAITER_WLIST = 1;
    /** The waiter this iteration of the grant loop has already handled once (its {@code tsk}). */
    int WAITER_CURRENT = 2;
    /** The front waiter, a writer ({@link #wakeUpFrontWriter}). */
    int WAITER_FRONT_WRITER = 3;

    /* ---- memory ordering (tools/memory-model): ignored under sequential consistency ---- */

    /**
     * The ordering the kernel code gives the next {@code sem->count} or {@code sem->owner} operation, or the
     * caller's {@code waiter.task} load ({@link MemoryOrder}): {@code atomic_long_add_return_acquire} is
     * {@code RMW_ACQUIRE}, {@code atomic_long_read} is {@code ONCE}, and so on. Under {@code memory-model=lkmm}
     * each such operation must be preceded by one; under sequential consistency it is ignored.
     */
    default void order(MemoryOrder order) {
    }

    /**
     * A barrier the kernel code executes here: linux-kernel.bell's fence name ({@code mb}, {@code rmb},
     * {@code wmb}; {@code smp_acquire__after_ctrl_dep()} is {@code rmb}). Ignored under sequential consistency.
     */
    default void barrier(String fence) {
    }

    /* ---- sem->count ---- */

    /** {@code atomic_long_read(&sem->count)}, {@code READ_ONCE(sem->count)}. */
    long atomicLongRead();

    /** {@code atomic_long_add_return(i, &sem->count)} (also inc/dec/sub_return, _acquire, _release). */
    long atomicLongAddReturn(long i);

    /** {@code atomic_long_fetch_add(i, &sem->count)}: returns the old value. */
    long atomicLongFetchAdd(long i);

    /** {@code atomic_long_add(i, &sem->count)}. */
    void atomicLongAdd(long i);

    /** {@code atomic_long_cmpxchg(&sem->count, old, new)}: returns the value found. */
    long atomicLongCmpxchg(long old, long nw);

    /** {@code atomic_long_or(mask, &sem->count)}. */
    void atomicLongOr(long mask);

    /** {@code atomic_long_andnot(mask, &sem->count)}. */
    void atomicLongAndnot(long mask);

    /* ---- sem->owner ---- */

    /** {@code READ_ONCE(sem->owner)}. */
    long readOwner();

    /** {@code WRITE_ONCE(sem->owner, owner)}. */
    void writeOwner(long owner);

    /** {@code atomic_long_cmpxchg(&sem->owner, old, new)} (also {@code try_cmpxchg}): returns the value found. */
    long ownerCmpxchg(long old, long nw);

    /** {@code atomic_long_or(mask, &sem->owner)}. */
    void ownerOr(long mask);

    /** {@code atomic_long_andnot(mask, &sem->owner)}. */
    void ownerAndnot(long mask);

    /** {@code current}, as an owner value. Not a step. */
    long current();

    /** {@code owner->on_cpu} of the task {@code owner} (a writer). */
    boolean onCpu(long owner);

    /* ---- scheduler ---- */

    /** {@code need_resched()}: the calling task's own flag. */
    boolean needResched();

    /** {@code rt_task(current)}. Not a step. */
    boolean rtTask();

    /** {@code preempt_disable()}. Not a step. */
    void preemptDisable();

    /** {@code preempt_enable()}. Not a step. */
    void preemptEnable();

    /** {@code cpu_relax_lowlatency()}. Not a step. */
    void cpuRelax();

    /** {@code schedule()} in a wait loop: sleeps until the task is woken. */
    void schedule();

    /* ---- time (the model has no clock: deadlines pass as environment steps) ---- */

    /** {@code waiter.timeout = jiffies + RWSEM_WAIT_TIMEOUT} of the caller's waiter. Not a step. */
    void armWaitTimeout();

    /** {@code time_after(jiffies, waiter.timeout)} of the caller's waiter. Not a step. */
    boolean waitTimedOut();

    /** {@code time_after(jiffies, waiter->timeout)} of the front waiter (wait_lock held). */
    boolean firstWaiterTimedOut();

    /** {@code rspin_threshold = rwsem_rspin_threshold(sem)}'s clock part: the reader-spin deadline starts. Not a step. */
    void armSpinDeadline();

    /** {@code sched_clock() > rspin_threshold}. Not a step. */
    boolean spinDeadlinePassed();

    /* ---- sem->osq ---- */

    /** {@code osq_lock(&sem->osq)}: true once the spinner holds the osq, false if it gave up (need_resched). */
    boolean osqLock();

    /** {@code osq_unlock(&sem->osq)}. */
    void osqUnlock();

    /** {@code osq_is_locked(&sem->osq)}. */
    boolean osqIsLocked();

    /* ---- sem->wait_lock ---- */

    /** {@code raw_spin_lock_irq(&sem->wait_lock)} (also {@code _irqsave}). */
    void rawSpinLockIrq();

    /** {@code raw_spin_trylock_irqsave(&sem->wait_lock, flags)}. */
    boolean rawSpinTrylockIrqsave();

    /** {@code raw_spin_unlock_irq(&sem->wait_lock)} (also {@code _irqrestore}). */
    void rawSpinUnlockIrq();

    /* ---- sem->wait_list (wait_lock held) ---- */

    /** {@code list_empty(&sem->wait_list)}. */
    boolean listEmpty();

    /** {@code list_add_tail(&waiter.list, &sem->wait_list)} of the caller's waiter of {@code type}. */
    void listAddTail(int type);

    /** {@code list_is_singular(&sem->wait_list)}. */
    boolean listIsSingular();

    /** {@code list_del(&waiter.list)} of the caller's waiter. */
    void listDel();

    /** The front waiter's {@code type == RWSEM_WAITING_FOR_WRITE}. */
    boolean waitListFrontIsWriter();

    /**
     * The {@code do { woken++; ... } while (waiter->type != RWSEM_WAITING_FOR_WRITE)} walk of
     * {@code __rwsem_do_wake}: the number of readers at the front of the list.
     */
    int waitListLeadingReaders();

    /** After the first {@code n} waiters comes a writer (false: the walk hit the end of the list). */
    boolean waitListWriterAfter(int n);

    /** {@code rwsem_first_waiter(sem)->task}: the front waiter's task pointer, as an owner value (wait_lock held). */
    long frontWaiterTask();

    /** {@code wake_q_add(wake_q, waiter->task)} of the front waiter, a writer (woken by {@link #wakeUpQ()}). */
    void wakeUpFrontWriter();

    /** {@code wake_up_process(waiter->task)} of the front waiter, a writer: woken in this step (code without a wake_q). */
    default void wakeUpProcessFrontWriter() {
        wakeUpFrontWriter();
    }

    /**
     * The grant loop of {@code __rwsem_do_wake}: for the first {@code n} waiters (readers)
     * {@code waiter->task = NULL} and wake the task; then the list starts after them.
     */
    void waitListGrantReaders(int n);

    /**
     * {@code wake_q_add(wake_q, tsk)} ({@code wake_q_add_safe}) of a reader waiter: {@code which} is
     * {@link #WAITER_FRONT}, {@link #WAITER_WLIST} or {@link #WAITER_CURRENT}. A task already on a wake queue (another
     * waker's, or one of another subsystem) is not added: that queue's {@code wake_up_q} wakes it, maybe before this
     * grant. The default does nothing (implementations that wake at {@link #clearWaiterTask}).
     */
    default void wakeQAdd(int which) {
    }

    /**
     * {@code smp_store_release(&waiter->task, NULL)} of a reader waiter ({@link #WAITER_FRONT}, {@link #WAITER_WLIST}
     * or {@link #WAITER_CURRENT}), with its removal from the list it is on (under wait_lock: not visible to others):
     * the reader holds the lock from here on.
     */
    default void clearWaiterTask(int which) {
        if (which == WAITER_WLIST) {
            throw new UnsupportedOperationException("clearWaiterTask(WAITER_WLIST)");
        }
        waitListGrantReaders(1);
    }

    /** {@code set_current_state(TASK_UNINTERRUPTIBLE)} (or the killable state) at the top of a wait loop. Not a step. */
    default void setCurrentState() {
    }

    /** {@code !waiter.task} for the caller's own waiter (set NULL by the waker that granted it). */
    boolean waiterTaskIsNull();

    /**
     * The first pass of {@code rwsem_mark_wake()} since v5.4: every reader waiter in the list is
     * moved to the wake list ({@code list_move_tail}); returns how many (wait_lock held).
     */
    int waitListMoveReaders();

    /** The second pass: {@code waiter->task = NULL} and wake for every moved reader. */
    void waitListWakeMoved();

    /** {@code rwsem_first_waiter(sem) == &waiter} (a step of its own when wait_lock is not held). */
    boolean isFirstWaiter();

    /** {@code waiter.handoff_set = false} of the caller's waiter (v5.18+). Not a step. */
    void initWaiterHandoff();

    /** {@code waiter.handoff_set} of the caller's waiter, read without wait_lock. */
    boolean waiterHandoffSet();

    /** {@code waiter->handoff_set = true} of the caller's own waiter (wait_lock held). */
    void setWaiterHandoff();

    /** {@code first->handoff_set} of the front waiter (wait_lock held). */
    boolean firstWaiterHandoffSet();

    /** {@code first->handoff_set = true} of the front waiter (wait_lock held). */
    void setFirstWaiterHandoff();

    /**
     * {@code waiter.last_rowner & RWSEM_RD_NONSPINNABLE} of the caller's waiter is set (v5.3 to
     * v5.10: the bit the waker copies to owner). Not a step.
     */
    void setWaiterRdNonspinnable(boolean set);

    /** {@code waiter->last_rowner & RWSEM_RD_NONSPINNABLE} of the front waiter (wait_lock held). */
    boolean firstWaiterRdNonspinnable();

    /** {@code DEFINE_WAKE_Q} / {@code wake_q_init()}: the caller's wake queue is empty. Not a step. */
    void wakeQInit();

    /** {@code wake_q_empty(&wake_q)}: nothing was added since {@link #wakeQInit()}. Not a step. */
    boolean wakeQEmpty();

    /**
     * {@code wake_up_q(&wake_q)}: the queued tasks are woken (the model woke them already when they
     * were added) and the queue is consumed. Not a step.
     */
    void wakeUpQ();

    /* ---- signals ---- */

    /**
     * {@code signal_pending_state(state, current)} in a wait loop of a killable waiter (TASK_KILLABLE): a fatal signal
     * may arrive at any time while the task waits in the wait list (an environment step of the model) and wakes its
     * schedule(); once pending it stays pending. Not a step. The ports call it only when their {@code state} is not
     * TASK_UNINTERRUPTIBLE.
     */
    default boolean signalPending() {
        return false;
    }

    /* ---- the kernel's own checks (lockdep): not steps; a failed one ends the run on its warn- property ---- */

    /** {@code lockdep_assert_held(&sem->wait_lock)}. */
    default void lockdepAssertHeldWaitLock() {
    }

    /** {@code lockdep_assert_preemption_disabled()}. */
    default void lockdepAssertPreemptionDisabled() {
    }

    /* ---- model annotations ---- */

    /** Model annotation: the caller holds the lock from the step just made on. */
    void lockAcquired();

    /** Model annotation: the caller released the lock in the step just made. */
    void lockReleased();
}
