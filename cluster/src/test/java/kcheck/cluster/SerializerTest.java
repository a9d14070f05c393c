package kcheck.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SerializerTest {

    @Test
    void batchesAndCountsSurviveTheWire() {
        KcheckSerializer s = new KcheckSerializer(null);
        long[] data = {1, -2, Long.MAX_VALUE, Long.MIN_VALUE, 42};
        Msg.Batch b = (Msg.Batch) s.fromBinary(s.toBinary(new Msg.Batch(3, data)), s.manifest(new Msg.Batch(3, data)));
        assertThat(b.from()).isEqualTo(3);
        assertThat(b.data()).containsExactly(data);
        Msg.EndOfLevel e = (Msg.EndOfLevel) s.fromBinary(s.toBinary(new Msg.EndOfLevel(2, 17, 99L)), "E");
        assertThat(e).isEqualTo(new Msg.EndOfLevel(2, 17, 99L));
        Msg.LevelDone d = (Msg.LevelDone) s.fromBinary(s.toBinary(new Msg.LevelDone(1, 5, "boom")), "l");
        assertThat(d.error()).isEqualTo("boom");
        assertThat(((Msg.LevelDone) s.fromBinary(s.toBinary(new Msg.LevelDone(1, 5, null)), "l")).error()).isNull();
    }
}
