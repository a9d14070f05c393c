package kcheck.model.rqlock;

import java.util.List;

import kcheck.model.Kernel;

/**
 * A test-and-set spinlock ({@code lock=tas}), as x86 had before 2.6.25 (a byte lock taken by
 * {@code lock decb}) and as other architectures without ticket locks have: one flag; waiters are
 * unordered, whoever finds it free first takes it. Every operation is one step: {@code spin_lock}
 * is the test-and-set in the step where it succeeds (a CPU spinning on a taken lock changes
 * nothing), {@code spin_trylock} one test-and-set, {@code spin_unlock} one store.
 *
 * <p>The lock's one step is a test-and-set ({@code xchgb}): set the flag, and the lock is taken
 * if it was clear before ({@link #acquired}). This class applies it to the model's state bit;
 * {@code kcheck.model.rqlock.threads.AtomicTasSpinlock} applies the same rule to an
 * {@code AtomicBoolean}'s {@code getAndSet(true)}.
 */
public class TasSpinlock extends RqSpinlock {
    public static final int LOCKED = 0;
    public static final int SPIN = 0;
    public static final int TRY = 1;
    public static final int UNLOCK = 2;

    /** The outcome of a test-and-set that found the flag {@code wasLocked}: the lock is taken if it was clear. */
    public static boolean acquired(boolean wasLocked) {
        return !wasLocked;
    }

    @Override
    public String name() {
        return "tas";
    }

    @Override
    public Shape shape(int cpus) {
        return new Shape(List.of(new Field("locked", 1)), List.of(), List.of());
    }

    @Override
    public int pcs() {
        return 3;
    }

    @Override
    public int entry(Op op) {
        return switch (op) {
            case LOCK -> SPIN;
            case TRYLOCK -> TRY;
            case UNLOCK -> UNLOCK;
        };
    }

    @Override
    public Op opOf(int pc) {
        return pc == SPIN ? Op.LOCK : pc == TRY ? Op.TRYLOCK : Op.UNLOCK;
    }

    @Override
    public int step(int pc, Memory m) {
        return switch (pc) {
            case SPIN -> spinLock(m);
            case TRY -> trylock(m);
            case UNLOCK -> unlock(m);
            default -> throw new IllegalArgumentException("pc " + pc);
        };
    }

    /** {@code __raw_spin_lock}: test-and-set until it finds the flag clear (a failed attempt changes nothing). */
    @Kernel(function = "__raw_spin_lock", file = "include/asm-x86/spinlock_32.h", version = "v2.6.24")
    public int spinLock(Memory m) {
        return trylock(m) == DONE ? DONE : BLOCKED;
    }

    /** {@code __raw_spin_trylock}: take the lock if it is free (test-and-set). */
    @Kernel(function = "__raw_spin_trylock", file = "include/asm-x86/spinlock_32.h", version = "v2.6.24")
    public int trylock(Memory m) {
        boolean was = m.word(LOCKED) != 0;
        m.setWord(LOCKED, 1);
        return acquired(was) ? DONE : FAILED;
    }

    /** {@code __raw_spin_unlock}: clear the flag. */
    @Kernel(function = "__raw_spin_unlock", file = "include/asm-x86/spinlock_32.h", version = "v2.6.24")
    public int unlock(Memory m) {
        m.setWord(LOCKED, 0);
        return DONE;
    }

    @Override
    public int[] successors(int pc) {
        return pc == TRY ? to(FAILED, DONE) : to(DONE);
    }

    @Override
    public long footprint(int pc) {
        return 1L << LOCKED;
    }

    @Override
    public boolean waiting(int pc) {
        return pc == SPIN;
    }

    @Override
    public String label(int from, int to) {
        return from == SPIN ? ": found free, taken" : "";
    }

    @Override
    public String pcName(int pc, String rq, Memory m) {
        return "spins for " + rq;
    }

    @Override
    public String cite(int pc) {
        return citeOf(TasSpinlock.class, pc == SPIN ? "spinLock" : pc == TRY ? "trylock" : "unlock");
    }

    /** The flag is set exactly while some CPU holds the lock. */
    @Override
    public String insane(LockState v) {
        boolean held = false;
        for (int c = 0; c < v.cpus(); c++) {
            held |= v.holds(c);
        }
        return held == (v.word(LOCKED) != 0) ? null : held ? "a CPU holds the lock but its flag is 0" : "the flag is set but no CPU holds the lock";
    }
}
