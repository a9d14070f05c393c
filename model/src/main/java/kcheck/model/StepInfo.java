package kcheck.model;

/**
 * What one step is, for people: {@code label} (e.g. {@code spin_trylock(rq[1]) = 1}) and the
 * kernel function it mirrors with file and version (e.g.
 * {@code double_lock_balance, kernel/sched.c, v2.6.27}).
 */
public record StepInfo(String label, String kernelFunction) {
}
