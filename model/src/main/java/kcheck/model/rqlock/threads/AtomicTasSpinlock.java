package kcheck.model.rqlock.threads;

import java.util.concurrent.atomic.AtomicBoolean;

import kcheck.model.Kernel;
import kcheck.model.rqlock.TasSpinlock;

/**
 * The test-and-set spinlock of {@link TasSpinlock} on an {@link AtomicBoolean}: its one step is
 * {@code getAndSet(true)} (the {@code xchgb}), decided by {@link TasSpinlock#acquired}. Waiters
 * are unordered, as in the model.
 */
public final class AtomicTasSpinlock implements AtomicSpinlock {
    private final AtomicBoolean locked = new AtomicBoolean();

    /** A test-and-set lock has no queue: {@code spin_lock} is only its spin loop. */
    @Override
    public int enqueue() {
        return 0;
    }

    @Override
    public boolean poll(int token) {
        return trylock();
    }

    @Override
    @Kernel(function = "__raw_spin_trylock", file = "include/asm-x86/spinlock_32.h", version = "v2.6.24")
    public boolean trylock() {
        return TasSpinlock.acquired(locked.getAndSet(true));
    }

    @Override
    @Kernel(function = "__raw_spin_unlock", file = "include/asm-x86/spinlock_32.h", version = "v2.6.24")
    public void unlock() {
        locked.set(false);
    }

    @Override
    public String toString() {
        return "tas(locked=" + locked.get() + ")";
    }
}
