package kcheck.model.cpudl;

import static kcheck.model.cpudl.Deadlines.TWO_63;
import static kcheck.model.cpudl.Deadlines.U64_MAX;
import static kcheck.model.cpudl.Deadlines.dlTimeBefore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @Test
    void formatWritesValuesNear2To20RelativeTo2To20() {
        assertThat(Deadlines.format((1L << 20) - 1)).isEqualTo("1048575");
        assertThat(Deadlines.format(1L << 20)).isEqualTo("2^20");
        assertThat(Deadlines.format((1L << 20) + 5)).isEqualTo("2^20+5");
        assertThat(Deadlines.format((1L << 21) - 5)).isEqualTo("2^21-5");
        assertThat(Deadlines.format(1L << 21)).isEqualTo("2^21");
        assertThat(Deadlines.format(3L << 19)).as("half way: the upper power").isEqualTo("2^21-524288");
        assertThat(Deadlines.format((3L << 19) - 1)).isEqualTo("2^20+524287");
        for (long v = 1L << 20; v <= 1L << 22; v += 4099) {
            assertThat(Deadlines.parse(Deadlines.format(v))).isEqualTo(v);
        }
    }

    @Test
    void formatUsesAWindowOf2To20BelowAndBelow2To20AboveEachPowerOfTwo() {
        long near = 1L << 20;
        assertThat(Deadlines.format((1L << 40) - near)).isEqualTo("2^40-1048576");
        assertThat(Deadlines.format((1L << 40) - near - 1)).isEqualTo("0xffffefffff");
        assertThat(Deadlines.format((1L << 40) + near - 1)).isEqualTo("2^40+1048575");
        assertThat(Deadlines.format((1L << 40) + near)).isEqualTo("0x10000100000");
        assertThat(Deadlines.format(-near)).isEqualTo("2^64-1048576");
        assertThat(Deadlines.format(-near - 1)).isEqualTo("0xffffffffffefffff");
        assertThat(Deadlines.format(TWO_63 + near - 1)).isEqualTo("2^63+1048575");
    }

    @Test
    void parseReadsEveryExponentFrom0To64AndRefusesLarger() {
        assertThat(Deadlines.parse("2^0")).isEqualTo(1);
        assertThat(Deadlines.parse("2^0+1")).isEqualTo(2);
        assertThat(Deadlines.parse(" 2^63-1 ")).isEqualTo(TWO_63 - 1);
        assertThat(Deadlines.parse("2^64-1")).isEqualTo(U64_MAX);
        assertThat(Deadlines.parse("0xff")).isEqualTo(255);
        assertThatThrownBy(() -> Deadlines.parse("2^65")).isInstanceOf(NumberFormatException.class)
                .hasMessageContaining("exponent out of range");
    }
}
