package kcheck.model.cpudl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class CpudlWorkloadTest {

    @Test
    void theSameSeedGivesTheSameSequence() {
        List<CpudlWorkload.Op> a = CpudlWorkload.generate(42, 16, 1000, 1L << 40, CpudlWorkload.POST_RANGE);
        List<CpudlWorkload.Op> b = CpudlWorkload.generate(42, 16, 1000, 1L << 40, CpudlWorkload.POST_RANGE);
        assertThat(a).isEqualTo(b);
        long sets = a.stream().filter(CpudlWorkload.Op::set).count();
        assertThat(sets).isBetween(700L, 800L);
    }

    @Test
    void storesAreCountedPerKindOfCall() {
        List<CpudlWorkload.Op> ops = List.of(CpudlWorkload.Op.set(0, 7), CpudlWorkload.Op.set(1, 9), CpudlWorkload.Op.clear(1),
                CpudlWorkload.Op.clear(3));
        CpudlWorkload.Writes w = CpudlWorkload.writes(new CpudlV49(), 4, ops);
        assertThat(w.sets()).isEqualTo(2);
        assertThat(w.setStores()).isEqualTo(3 + 9);
        assertThat(w.setMax()).isEqualTo(9);
        assertThat(w.clears()).isEqualTo(2);
        assertThat(w.clearStores()).isEqualTo(4);
        assertThat(w.clearMax()).isEqualTo(4);
    }
}
