package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void parsesEveryUnitAndBareSeconds() {
        assertThat(Durations.parse("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(Durations.parse("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(Durations.parse("0.5m")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(Durations.parse("0.25h")).isEqualTo(Duration.ofMinutes(15));
        assertThat(Durations.parse(" 7 ")).isEqualTo(Duration.ofSeconds(7));
        assertThat(Durations.parse("3S")).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void refusesZeroNegativeAndNonsenseWithOneLine() {
        assertThatThrownBy(() -> Durations.parse("0s")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
        assertThatThrownBy(() -> Durations.parse("-5m")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
        assertThatThrownBy(() -> Durations.parse("0")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
        assertThatThrownBy(() -> Durations.parse("ten minutes")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bad duration 'ten minutes' (examples: 250ms, 90s, 5m, 1h)");
        assertThatThrownBy(() -> Durations.parse("1.5ms")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void printsTheLargestWholeUnit() {
        assertThat(Durations.format(Duration.ofHours(3))).isEqualTo("3h");
        assertThat(Durations.format(Duration.ofMinutes(90))).isEqualTo("90m");
        assertThat(Durations.format(Duration.ofMinutes(120))).isEqualTo("2h");
        assertThat(Durations.format(Duration.ofSeconds(61))).isEqualTo("61s");
        assertThat(Durations.format(Duration.ofSeconds(60))).isEqualTo("1m");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Durations.format(Duration.ofMillis(1000))).isEqualTo("1s");
    }
}
