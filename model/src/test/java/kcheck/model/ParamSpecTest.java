package kcheck.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ParamSpecTest {
    private static final ParamSpec CPUS = ParamSpec.integer("cpus", 4, 1, 4096, "CPUs");

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "4097", "9223372036854775807", "99999999999999999999", "-99999999999999999999", "+4097"})
    void anIntegerOutOfRangeNamesTheRangeHoweverLargeItIs(String value) {
        assertThatThrownBy(() -> CPUS.validate("cpudl", value)).isInstanceOf(ModelInputException.class)
                .hasMessageStartingWith("cpudl: parameter 'cpus' must be in 1..4096, got ");
    }

    @Test
    void aVeryLongNumberIsShownShortened() {
        assertThatThrownBy(() -> CPUS.validate("cpudl", "9".repeat(1000)))
                .hasMessage("cpudl: parameter 'cpus' must be in 1..4096, got 999999999999999999999999... (1000 digits)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e3", "four", "", "4.0", "0x10"})
    void somethingElseIsNotAnInteger(String value) {
        assertThatThrownBy(() -> CPUS.validate("cpudl", value)).hasMessage("cpudl: parameter 'cpus' must be an integer, got '" + value + "'");
    }

    @Test
    void anIntegerInRangeIsNormalised() {
        assertThat(CPUS.validate("cpudl", " 4096")).isEqualTo("4096");
    }
}
