package kcheck.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Packing bit fields into longs: fields share a word while they fit, never straddle two, and hold their full range. */
class LayoutTest {
    @Test
    void fieldsShareAWordUpToExactly64Bits() {
        Layout l = new Layout();
        Layout.Field a = l.field(32);
        Layout.Field b = l.field(32);
        assertThat(l.words()).isEqualTo(1);
        long[] s = new long[1];
        a.set(s, 0xffff_ffffL);
        b.set(s, 0x1234_5678L);
        assertThat(a.get(s)).isEqualTo(0xffff_ffffL);
        assertThat(b.get(s)).isEqualTo(0x1234_5678L);
    }

    @Test
    void aFieldThatDoesNotFitStartsTheNextWord() {
        Layout l = new Layout();
        Layout.Field a = l.field(40);
        Layout.Field b = l.field(40);
        assertThat(l.words()).isEqualTo(2);
        long[] s = new long[2];
        a.set(s, (1L << 40) - 1);
        b.set(s, (1L << 40) - 2);
        assertThat(a.get(s)).isEqualTo((1L << 40) - 1);
        assertThat(b.get(s)).isEqualTo((1L << 40) - 2);
    }

    @Test
    void fieldsOf0To64BitsAreAccepted() {
        Layout l = new Layout();
        assertThat(l.field(0).max()).isZero();
        Layout.Field whole = l.field(64);
        assertThat(whole.max()).isEqualTo(-1L);
        long[] s = new long[l.words()];
        whole.set(s, Long.MIN_VALUE + 5);
        assertThat(whole.get(s)).isEqualTo(Long.MIN_VALUE + 5);
        assertThatThrownBy(() -> new Layout().field(65)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Layout().field(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anEmptyLayoutIsOneWord() {
        assertThat(new Layout().words()).isEqualTo(1);
        assertThat(Layout.bitsFor(0)).isZero();
        assertThat(Layout.bitsFor(1)).isEqualTo(1);
    }
}
