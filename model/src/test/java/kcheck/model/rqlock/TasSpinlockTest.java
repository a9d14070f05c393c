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
}
