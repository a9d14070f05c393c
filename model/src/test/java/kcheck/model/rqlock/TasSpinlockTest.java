package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TasSpinlockTest {

    @Test
    void onlyOneTakerUntilUnlocked() {
        TasSpinlock l = new TasSpinlock();
        assertThat(l.trylock()).isTrue();
        assertThat(l.trylock()).isFalse();
        l.unlock();
        assertThat(l.isLocked()).isFalse();
        assertThat(l.trylock()).isTrue();
    }

    @Test
    void isLockedReportsTheFlagTheTrylockSet() {
        // __raw_spin_trylock sets the lock byte; __raw_spin_unlock clears it
        TasSpinlock l = new TasSpinlock();
        assertThat(l.isLocked()).isFalse();
        l.trylock();
        assertThat(l.isLocked()).isTrue();
        l.unlock();
        l.load(true);
        assertThat(l.isLocked()).isTrue();
        assertThat(l.trylock()).as("a loaded locked flag refuses the trylock").isFalse();
    }
}
