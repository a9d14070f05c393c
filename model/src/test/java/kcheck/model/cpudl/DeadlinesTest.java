package kcheck.model.cpudl;

import static kcheck.model.cpudl.Deadlines.TWO_63;
import static kcheck.model.cpudl.Deadlines.U64_MAX;
import static kcheck.model.cpudl.Deadlines.dlTimeBefore;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeadlinesTest {

    @Test
    void dlTimeBeforeIsWrapAware() {
        assertThat(dlTimeBefore(1, 2)).isTrue();
        assertThat(dlTimeBefore(2, 1)).isFalse();
        assertThat(dlTimeBefore(TWO_63 + 1, TWO_63 + 2)).isTrue();
        assertThat(dlTimeBefore(U64_MAX, 0)).as("2^64-1 is just before 0 (wrap)").isTrue();
        assertThat(dlTimeBefore(0, U64_MAX)).isFalse();
        assertThat(dlTimeBefore(TWO_63 - 1, TWO_63)).isTrue();
    }

    @Test
    void everyDeadlineAtOrAbove2To63IsBeforeZero() {
        for (long dl : new long[] {TWO_63, TWO_63 + 1, TWO_63 + 2, U64_MAX - 1, U64_MAX}) {
            assertThat(dlTimeBefore(dl, 0)).as(Deadlines.format(dl)).isTrue();
        }
        for (long dl : new long[] {0, 1, TWO_63 - 1}) {
            assertThat(dlTimeBefore(dl, 0)).as(Deadlines.format(dl)).isFalse();
        }
    }

    @Test
    void keysExactly2To63ApartAreEachBeforeTheOther() {
        assertThat(dlTimeBefore(0, TWO_63)).isTrue();
        assertThat(dlTimeBefore(TWO_63, 0)).isTrue();
    }

    @Test
    void formatNamesTheEdgesAndParseReadsThemBack() {
        assertThat(Deadlines.format(0)).isEqualTo("0");
        assertThat(Deadlines.format(TWO_63)).isEqualTo("2^63");
        assertThat(Deadlines.format(TWO_63 + 1)).isEqualTo("2^63+1");
        assertThat(Deadlines.format(TWO_63 - 1)).isEqualTo("2^63-1");
        assertThat(Deadlines.format(U64_MAX)).isEqualTo("2^64-1");
        assertThat(Deadlines.format(1L << 40)).isEqualTo("2^40");
        for (long v : new long[] {0, 5, TWO_63, TWO_63 + 1, TWO_63 - 1, U64_MAX, U64_MAX - 7, (1L << 40) + 3, 0x123456789abcL}) {
            assertThat(Deadlines.parse(Deadlines.format(v))).isEqualTo(v);
        }
        assertThat(Deadlines.parse("18446744073709551615")).isEqualTo(U64_MAX);
    }
}
