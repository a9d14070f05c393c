package kcheck.model.rwsem;

/**
 * The operations of {@link RwSem} that the recorder turns into program nodes. A <i>visible</i>
 * operation touches memory other tasks read without {@code wait_lock}, or waits: it is one step
 * of its task. A <i>local</i> one reads the task's own flags or the wait list under
 * {@code wait_lock}: it runs inside the step before the next visible operation.
 */
enum Op {
    COUNT_READ(true, Outcome.COUNT, "load count"),
    COUNT_ADD_RETURN(true, Outcome.COUNT, "count %s"),
    COUNT_FETCH_ADD(true, Outcome.COUNT, "fetch_add: count %s"),
    COUNT_ADD(true, Outcome.COUNT, "count %s"),
    COUNT_CMPXCHG(true, Outcome.COUNT, "cmpxchg count %s -> %s"),
    COUNT_OR(true, Outcome.NONE, "count |= %s"),
    COUNT_ANDNOT(true, Outcome.NONE, "count &= ~%s"),
    OWNER_READ(true, Outcome.OWNER, "load owner"),
    OWNER_WRITE(true, Outcome.NONE, "owner = %s"),
    OWNER_CMPXCHG(true, Outcome.OWNER, "cmpxchg owner %s -> %s"),
    OWNER_OR(true, Outcome.NONE, "owner |= %s"),
    OWNER_ANDNOT(true, Outcome.NONE, "owner &= ~%s"),
    ON_CPU(true, Outcome.BOOL, "%s->on_cpu"),
    OSQ_LOCK(true, Outcome.BOOL, "osq_lock"),
    OSQ_UNLOCK(true, Outcome.NONE, "osq_unlock"),
    OSQ_IS_LOCKED(true, Outcome.BOOL, "osq_is_locked"),
    SPIN_LOCK(true, Outcome.NONE, "raw_spin_lock(wait_lock)"),
    SPIN_TRYLOCK(true, Outcome.BOOL, "raw_spin_trylock(wait_lock)"),
    SPIN_UNLOCK(true, Outcome.NONE, "raw_spin_unlock(wait_lock)"),
    SCHEDULE(true, Outcome.NONE, "schedule()"),
    WAKE_FRONT_WRITER(true, Outcome.NONE, "wake front writer"),
    GRANT_READERS(true, Outcome.NONE, "grant %s reader(s): waiter->task = NULL"),
    WAKE_MOVED(true, Outcome.NONE, "wake the moved readers: waiter->task = NULL"),
    /**
     * {@code wake_q_add(wake_q, task)} (wakeups=wake-q): the task joins the caller's wake queue unless it is on a wake
     * queue already ({@code cmpxchg(&task->wake_q.next, NULL, TAIL)} fails: then it is not queued, and the wake-up is
     * left to the queue it is on). {@code arg0}: which waiter ({@link RwSem#WAITER_FRONT}, ... ,
     * {@link RwSem#WAITER_FRONT_WRITER}).
     */
    WAKEQ_ADD(true, Outcome.TASK, "wake_q_add(%s->task)"),
    /**
     * {@code smp_store_release(&waiter->task, NULL)} of a reader waiter (and its list removal, invisible under wait_lock):
     * the grant its waiter reads. {@code arg0}: which waiter; {@code arg1} 1 when the wake is the same step
     * (wakeups=atomic). The outcome names the waiter where the code leaves a choice (the next reader on wlist: the model
     * does not keep wlist's order, so every moved reader may be next).
     */
    CLEAR_TASK(true, Outcome.TASK, "smp_store_release(&%s->task, NULL)"),
    /**
     * One iteration of {@code wake_up_q()}: {@code task->wake_q.next = NULL; wake_up_process(task)} of the next queued
     * task; the outcome names it (the queue's order is not kept: any queued task may be next).
     */
    WAKE_UP_Q(true, Outcome.TASK, "wake_up_q(): wake the next task on the queue"),
    /** {@code smp_load_acquire(&waiter.task)} / {@code READ_ONCE(waiter.task)} (wakeups=wake-q: written by a waker without our wait_lock). */
    LOAD_TASK(true, Outcome.BOOL, "load waiter.task"),
    /**
     * {@code set_current_state(TASK_UNINTERRUPTIBLE)} (wakeups=wake-q): a store the wakers' wake_up_process() reads, so a
     * step: a wake-up from here on makes schedule() return, one before it is lost.
     */
    SET_STATE(true, Outcome.NONE, "set_current_state(TASK_UNINTERRUPTIBLE)"),
    FIRST_IS_ME_RACY(true, Outcome.BOOL, "rwsem_first_waiter(sem) == &waiter (no wait_lock)"),
    HANDOFF_SET_READ(true, Outcome.BOOL, "load waiter.handoff_set"),
    /* the clock: reads of jiffies / sched_clock() whose outcome is the passing of time (nondeterministic) */
    TIMED_OUT(true, Outcome.BOOL, "time_after(jiffies, waiter.timeout)"),
    FIRST_TIMED_OUT(true, Outcome.BOOL, "time_after(jiffies, first->timeout)"),
    RSPIN_PASSED(true, Outcome.BOOL, "sched_clock() > rspin_threshold"),
    NEED_RESCHED(false, Outcome.BOOL, "need_resched()"),
    /** signal_pending_state(TASK_KILLABLE, current): the task's own flag, set by the environment (a fatal signal). */
    SIGNAL_PENDING(false, Outcome.BOOL, "signal_pending_state(TASK_KILLABLE, current)"),

    /** {@code wake_q_empty(&wake_q)} (wakeups=wake-q): no task is on the caller's wake queue. */
    WAKEQ_EMPTY(false, Outcome.BOOL, "wake_q_empty"),
    LIST_EMPTY(false, Outcome.BOOL, "list_empty"),
    LIST_ADD_TAIL(false, Outcome.NONE, "list_add_tail"),
    LIST_IS_SINGULAR(false, Outcome.BOOL, "list_is_singular"),
    LIST_DEL(false, Outcome.NONE, "list_del"),
    FRONT_IS_WRITER(false, Outcome.BOOL, "front waiter is a writer"),
    LEADING_READERS(false, Outcome.INT, "readers at the front"),
    WRITER_AFTER(false, Outcome.BOOL, "a writer follows them"),
    WAITER_TASK_NULL(false, Outcome.BOOL, "waiter.task == NULL"),
    MOVE_READERS(false, Outcome.INT, "move the reader waiters to wlist"),
    FRONT_TASK(false, Outcome.TASK, "first->task"),
    FIRST_IS_ME(false, Outcome.BOOL, "rwsem_first_waiter(sem) == &waiter"),
    ARM_TIMEOUT(false, Outcome.NONE, "waiter.timeout = jiffies + RWSEM_WAIT_TIMEOUT"),
    ARM_RSPIN(false, Outcome.NONE, "rspin_threshold = sched_clock() + delta"),
    HANDOFF_INIT(false, Outcome.NONE, "waiter.handoff_set = false"),
    HANDOFF_SET_OWN(false, Outcome.NONE, "waiter->handoff_set = true"),
    FIRST_HANDOFF_SET(false, Outcome.BOOL, "first->handoff_set"),
    HANDOFF_SET_FIRST(false, Outcome.NONE, "first->handoff_set = true"),
    RD_NONSPINNABLE_SET(false, Outcome.NONE, "waiter.last_rowner & RD_NONSPINNABLE = %s"),
    FIRST_RD_NONSPINNABLE(false, Outcome.BOOL, "first->last_rowner & RD_NONSPINNABLE"),
    /**
     * The code reached a state the kernel itself flags (a WARN, a lockdep assertion, a count outside
     * its meaning, a pointer dereferenced that is not the kind its type says): the run ends here and
     * the matching sanity / warn property is violated. {@code arg0} is the {@link Fault} ordinal,
     * {@code arg1} what it needs to be explained (for a count fault: the operand of the count step).
     */
    FAULT(true, Outcome.NONE, "%s"),
    /**
     * A WARN / lockdep assertion of the kernel that fails here: the kernel prints it and goes on, so does the
     * model (one step of its own: the task rests here, which the warn- property of {@code arg0}, a {@link Fault}
     * ordinal, flags).
     */
    WARN(true, Outcome.NONE, "%s"),
    /** The workload has finished (bounded rounds). */
    END(true, Outcome.NONE, "done");

    /** The kinds of {@link #FAULT}: each is checked by the property of that id. */
    enum Fault {
        COUNT("count-sane", "sem->count leaves its meaning (count step adds arg1)"),
        COUNT_STORE("count-sane", "sem->count leaves its meaning (cmpxchg stores arg1)"),
        ON_CPU("owner-deref-sane", "owner->on_cpu read through a pointer that is no writer's"),
        WAIT_LOCK_NOT_HELD("warn-wait-lock-held", "lockdep_assert_held(&sem->wait_lock) fails"),
        PREEMPTIBLE("warn-preemption-disabled", "lockdep_assert_preemption_disabled() fails");

        final String property;
        final String text;

        Fault(String property, String text) {
            this.property = property;
            this.text = text;
        }
    }

    /** What an outcome index means. */
    enum Outcome { COUNT, OWNER, TASK, BOOL, INT, NONE }

    final boolean visible;
    final Outcome outcome;
    final String text;

    Op(boolean visible, Outcome outcome, String text) {
        this.visible = visible;
        this.outcome = outcome;
        this.text = text;
    }

    /** True for the operations that write {@code sem->count}. */
    boolean writesCount() {
        return this == COUNT_ADD_RETURN || this == COUNT_FETCH_ADD || this == COUNT_ADD || this == COUNT_CMPXCHG
                || this == COUNT_OR || this == COUNT_ANDNOT;
    }

    /** True for the operations whose argument 0 is an owner value (a task pointer to rename). */
    boolean ownerArg0() {
        return this == OWNER_WRITE || this == ON_CPU || this == OWNER_CMPXCHG;
    }
}
