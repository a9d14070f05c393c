package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MemorySizeTest {
    private static final long HEAP = 4L << 40;

    @ParameterizedTest
    @CsvSource({"512m, 536870912", "8g, 8589934592", "1TB, 1099511627776", "1 TiB, 1099511627776", "1.5G, 1610612736",
        "2048kb, 2097152", "1048576, 1048576", "1048576b, 1048576", ".5g, 536870912"})
    void everyBinaryUnitIsUnderstoodWithOrWithoutB(String text, long bytes) {
        assertThat(MemorySize.parse(text, HEAP)).isEqualTo(bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1XB", "1 p", "8gg", "1e3m", "-5g", "g", "", "NaN", "Infinity"})
    void anUnknownUnitOrNumberNamesTheUnitsAccepted(String text) {
        assertThatThrownBy(() -> MemorySize.parse(text, HEAP)).isInstanceOf(UsageException.class)
                .hasMessageContaining("cannot read '" + text + "' as a size").hasMessageContaining("a unit k, m, g or t");
    }

    @Test
    void aBudgetAboveTheHeapOrBelowOneMebibyteIsRefusedNamingTheLimit() {
        assertThatThrownBy(() -> MemorySize.parse("999999999999g", 6L << 30)).isInstanceOf(UsageException.class)
                .hasMessage("--memory 999999999999g is more than this JVM's heap (6.0 GiB), where the search keeps what the budget "
                        + "counts: give at most 6144m, or a larger heap (KCHECK_JAVA_OPTS=-Xmx...)");
        assertThatThrownBy(() -> MemorySize.parse("1TB", 6L << 30)).hasMessageContaining("more than this JVM's heap");
        assertThat(MemorySize.parse("6g", 6L << 30)).isEqualTo(6L << 30);
        assertThatThrownBy(() -> MemorySize.parse("1023k", HEAP)).hasMessage("--memory must be at least 1m, got '1023k'");
    }
}
