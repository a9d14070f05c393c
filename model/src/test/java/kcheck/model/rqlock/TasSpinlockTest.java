package kcheck.model.rqlock;

import static kcheck.model.rqlock.RqSpinlock.BLOCKED;
import static kcheck.model.rqlock.RqSpinlock.DONE;
import static kcheck.model.rqlock.RqSpinlock.FAILED;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import kcheck.model.rqlock.RqSpinlock.Op;

class TasSpinlockTest {

    @Test
    void onlyOneTakerUntilUnlocked() {
        SpinlockHarness h = new SpinlockHarness(new TasSpinlock(), 2);
        assertThat(h.run(0, Op.TRYLOCK)).isEqualTo(DONE);
        assertThat(h.run(1, Op.TRYLOCK)).isEqualTo(FAILED);
        assertThat(h.run(1, Op.LOCK)).as("spins: a failed test-and-set is no step").isEqualTo(BLOCKED);
        h.run(0, Op.UNLOCK);
        assertThat(h.word("locked")).isZero();
        assertThat(h.resume(1)).isEqualTo(DONE);
    }

    @Test
    void spinLockIsOneStepThatWaitsFromTheStart() {
        // __raw_spin_lock: the CPU waits from the moment it reaches the spin loop
        TasSpinlock l = new TasSpinlock();
        assertThat(l.waiting(l.entry(Op.LOCK))).isTrue();
        assertThat(l.successors(l.entry(Op.LOCK))).containsExactly(DONE);
        assertThat(TasSpinlock.acquired(false)).isTrue();
        assertThat(TasSpinlock.acquired(true)).isFalse();
    }
}
