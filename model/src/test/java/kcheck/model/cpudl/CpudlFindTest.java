package kcheck.model.cpudl;

import static kcheck.model.cpudl.Heaps.run;
import static kcheck.model.cpudl.Heaps.set;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CpudlFindTest {
    private final CpudlV49 v49 = new CpudlV49();

    private static Cpumask mask(int n, int... cpus) {
        Cpumask m = new Cpumask(n);
        for (int c : cpus) {
            m.setCpu(c);
        }
        return m;
    }

    @Test
    void aFreeAllowedCpuWinsAndItIsTheLowest() {
        Cpudl cp = run(v49, 4, set(0, 10), set(2, 20));
        assertThat(v49.find(cp, 5, mask(4, 0, 1, 2, 3), new Cpumask(4))).isEqualTo(1);
        assertThat(v49.find(cp, 5, mask(4, 0, 2, 3), new Cpumask(4))).isEqualTo(3);
    }

    @Test
    void withoutAFreeCpuTheRootIsChosenIfAllowedAndLater() {
        Cpudl cp = run(v49, 2, set(0, 10), set(1, 20));
        Cpumask later = new Cpumask(2);
        assertThat(v49.find(cp, 15, mask(2, 0, 1), later)).isEqualTo(1);
        assertThat(later.toString()).isEqualTo("{1}");
        assertThat(v49.find(cp, 25, mask(2, 0, 1), new Cpumask(2))).as("task not earlier than the root").isEqualTo(-1);
        assertThat(v49.find(cp, 15, mask(2, 0), new Cpumask(2))).as("root not allowed").isEqualTo(-1);
    }

    @Test
    void theReferenceMapAcceptsAnyTiedLatestCpuAsRoot() {
        CpudlReference ref = new CpudlReference(3);
        ref.set(0, 20);
        ref.set(1, 20);
        ref.set(2, 5);
        Cpumask only0 = mask(3, 0);
        assertThat(ref.findAccepts(0, 10, only0)).isTrue();
        assertThat(ref.findAccepts(-1, 10, only0)).as("root may be cpu 1, not allowed").isTrue();
        assertThat(ref.findAccepts(2, 10, only0)).isFalse();
    }

    @Test
    void windowedMeansAllLiveKeysWithinLessThan2To63OfOneOfThem() {
        CpudlReference ref = new CpudlReference(3);
        assertThat(ref.windowed()).isTrue();
        ref.set(0, Deadlines.U64_MAX);
        ref.set(1, 3);
        assertThat(ref.windowed()).as("across the u64 wrap").isTrue();
        ref.set(2, Deadlines.TWO_63 + 2);
        assertThat(ref.windowed()).isFalse();
        ref.set(2, Deadlines.TWO_63 + 4);
        assertThat(ref.windowed()).as("window from 2^63+4 to 3").isTrue();
        assertThat(ref.latest()).isEqualTo(3);
    }
}
