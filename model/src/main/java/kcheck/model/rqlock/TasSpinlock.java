package kcheck.model.rqlock;

import kcheck.model.Kernel;

/**
 * A test-and-set spinlock, as x86 had before 2.6.25 (a byte lock taken by {@code lock decb}) and as other architectures without ticket locks have: one
 * flag; waiters are unordered, whoever finds it free first takes it. {@code spin_lock} is one
 * step: wait until free and take it ({@link #trylock()} in the step where it succeeds).
 *
 * <p>The lock's one step is a test-and-set ({@code xchgb}): set the flag, and the lock is taken
 * if it was clear before ({@link #acquired}). This class applies it to the model's state bit;
 * {@code kcheck.model.rqlock.threads.AtomicTasSpinlock} applies the same rule to an
 * {@code AtomicBoolean}'s {@code getAndSet(true)}.
 */
public final class TasSpinlock {
    private boolean locked;

    /** The outcome of a test-and-set that found the flag {@code wasLocked}: the lock is taken if it was clear. */
    public static boolean acquired(boolean wasLocked) {
        return !wasLocked;
    }

    /** {@code __raw_spin_trylock}: take the lock if it is free (test-and-set). */
    @Kernel(function = "__raw_spin_trylock", file = "include/asm-x86/spinlock_32.h", version = "v2.6.24")
    public boolean trylock() {
        boolean was = locked;
        locked = true;
        return acquired(was);
    }

    /** {@code __raw_spin_unlock}: clear the flag. */
    @Kernel(function = "__raw_spin_unlock", file = "include/asm-x86/spinlock_32.h", version = "v2.6.24")
    public void unlock() {
        locked = false;
    }

    public boolean isLocked() {
        return locked;
    }

    public void load(boolean locked) {
        this.locked = locked;
    }
}
