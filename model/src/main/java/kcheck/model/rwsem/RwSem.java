package kcheck.model.rwsem;

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

    /* ---- sem->owner ---- */

    /** {@code READ_ONCE(sem->owner)}. */
    long readOwner();

    /** {@code WRITE_ONCE(sem->owner, owner)}. */
    void writeOwner(long owner);

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

    /** {@code wake_up_process(waiter->task)} (v4.8: {@code wake_q_add}) of the front waiter, a writer. */
    void wakeUpFrontWriter();

    /**
     * The grant loop of {@code __rwsem_do_wake}: for the first {@code n} waiters (readers)
     * {@code waiter->task = NULL} and wake the task; then the list starts after them.
     */
    void waitListGrantReaders(int n);

    /** {@code !waiter.task} for the caller's own waiter (set NULL by the waker that granted it). */
    boolean waiterTaskIsNull();

    /* ---- model annotations ---- */

    /** Model annotation: the caller holds the lock from the step just made on. */
    void lockAcquired();

    /** Model annotation: the caller released the lock in the step just made. */
    void lockReleased();
}
