package kcheck.model.rqlock.threads;

/**
 * A spinlock that real threads can share, split into the atomic steps the model uses:
 * {@code spin_lock} is {@link #enqueue()} and then {@link #poll(int)} until it succeeds.
 */
public interface AtomicSpinlock {

    /** The first step of {@code spin_lock}; returns the token {@link #poll(int)} needs (the ticket). */
    int enqueue();

    /** One iteration of {@code spin_lock}'s spin loop: true when the lock has been taken. */
    boolean poll(int token);

    /** {@code spin_trylock}: true if the lock was taken. */
    boolean trylock();

    /** {@code spin_unlock}. */
    void unlock();
}
