package kcheck.model.rwsem;

import java.util.Locale;

/**
 * How the model wakes a sleeping waiter (parameter {@code wakeups}).
 * <ul>
 * <li>{@link #ATOMIC}: the waker's grant ({@code waiter->task = NULL}) is the wake-up, and a writer is woken at
 *     {@code wake_q_add}: the model before issue 30's wake-up work (kept to measure against);</li>
 * <li>{@link #WAKE_Q}: as the kernel: {@code wake_q_add} and {@code smp_store_release(&waiter->task, NULL)} are separate
 *     steps of the waker under wait_lock, in the code's order; {@code wake_up_q} wakes each queued task, one step each,
 *     after the code's call (normally after wait_lock is dropped); a task already on a wake queue is not added again
 *     (the queue it is on wakes it); a sleeper re-checks its condition after {@code set_current_state}; a wake-up of a
 *     task not in a wait loop is lost, as in the kernel (its state is TASK_RUNNING);</li>
 * <li>{@link #SPURIOUS}: {@link #WAKE_Q} plus the environment's wake-ups: a task sleeping in {@code schedule()} may
 *     return at any time, and any task may be put on a wake queue of another subsystem (a futex or another lock's
 *     waker), which later wakes it with its own {@code wake_up_q}.</li>
 * </ul>
 */
enum Wakeups {
    ATOMIC, WAKE_Q, SPURIOUS;

    static Wakeups of(String param) {
        return valueOf(param.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    /** The kernel's separate wake_q steps are modelled. */
    boolean wakeQ() {
        return this != ATOMIC;
    }
}
