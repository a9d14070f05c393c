package kcheck.model;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ParamSpecTest {
    private static final ParamSpec CPUS = ParamSpec.integer("cpus", 4, 1, 4096, "CPUs");

    @ParameterizedTest
    @ValueSource(strings = {"99999999999999999999", "-99999999999999999999", "+9223372036854775808"})
    void anIntegerTooLargeForALongNamesTheRangeNotIntegerness(String value) {
        assertThatThrownBy(() -> CPUS.validate("cpudl", value)).isInstanceOf(ModelInputException.class)
                .hasMessage("cpudl: parameter 'cpus' must be in 1..4096, got " + value);
        assertThatThrownBy(() -> CPUS.validate("cpudl", "1e3")).as("not an integer").hasMessage("cpudl: parameter 'cpus' must be an "
                + "integer, got '1e3'");
    }

    @Test
    void aVeryLongNumberIsShownShortened() {
        assertThatThrownBy(() -> CPUS.validate("cpudl", "9".repeat(1000)))
                .hasMessage("cpudl: parameter 'cpus' must be in 1..4096, got 999999999999999999999999... (1000 digits)");
    }
}
