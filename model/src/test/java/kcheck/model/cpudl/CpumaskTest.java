package kcheck.model.cpudl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The cpumask operations cpudeadline.c uses (include/linux/cpumask.h, v4.8), on one and on two words. */
class CpumaskTest {

    private static Cpumask mask(int n, int... cpus) {
        Cpumask m = new Cpumask(n);
        for (int c : cpus) {
            m.setCpu(c);
        }
        return m;
    }

    @Test
    void setAllSetsExactlyTheNrCpuIdsBits() {
        // cpumask_setall: every CPU below nr_cpu_ids and no bit beyond
        Cpumask four = new Cpumask(4);
        four.setAll();
        assertThat(four).isEqualTo(mask(4, 0, 1, 2, 3));
        assertThat(four.toString()).isEqualTo("{0,1,2,3}");

        Cpumask sixtyFour = new Cpumask(64);
        sixtyFour.setAll();
        assertThat(sixtyFour.testCpu(0)).isTrue();
        assertThat(sixtyFour.testCpu(63)).isTrue();
        assertThat(sixtyFour.any()).isZero();

        Cpumask seventy = new Cpumask(70);
        seventy.setAll();
        int[] all = new int[70];
        for (int c = 0; c < 70; c++) {
            all[c] = c;
        }
        assertThat(seventy).isEqualTo(mask(70, all));
        assertThat(seventy.testCpu(5)).isTrue();
        assertThat(seventy.testCpu(69)).isTrue();
    }

    @Test
    void cpusOutsideZeroToNrCpuIdsAreNeverInAMask() {
        Cpumask full = new Cpumask(64);
        full.setAll();
        assertThat(full.testCpu(-1)).isFalse();
        assertThat(full.testCpu(64)).isFalse();
        assertThat(mask(4, 0).testCpu(0)).isTrue();
    }

    @Test
    void anyIsTheLowestCpuOrNrCpuIdsWhenEmpty() {
        // cpumask_any() == cpumask_first(): find_first_bit, nr_cpu_ids if no bit is set
        assertThat(new Cpumask(4).any()).isEqualTo(4);
        assertThat(new Cpumask(70).any()).isEqualTo(70);
        assertThat(mask(4, 3, 1).any()).isEqualTo(1);
        assertThat(mask(70, 66, 68).any()).as("first set bit in the second word").isEqualTo(66);
    }

    @Test
    void andStoresTheIntersectionAndSaysWhetherItIsNonEmpty() {
        // cpumask_and(dst, a, b): dst = a & b, returns true if dst is not empty
        Cpumask dst = mask(70, 0, 1, 2);
        assertThat(Cpumask.and(dst, mask(70, 1, 2, 65), mask(70, 2, 3, 65))).isTrue();
        assertThat(dst).isEqualTo(mask(70, 2, 65));
        assertThat(Cpumask.and(dst, mask(70, 1), mask(70, 66))).isFalse();
        assertThat(dst.isEmpty()).isTrue();
    }

    @Test
    void clearCpuClearsOnlyThatCpu() {
        // cpumask_clear_cpu
        Cpumask m = mask(70, 1, 2, 66);
        m.clearCpu(2);
        m.clearCpu(66);
        assertThat(m).isEqualTo(mask(70, 1));
        m.clearCpu(1);
        assertThat(m.isEmpty()).isTrue();
    }

    @Test
    void emptinessCopyEqualityAndHashFollowTheBits() {
        Cpumask a = mask(70, 3, 67);
        assertThat(a.isEmpty()).isFalse();
        assertThat(mask(70, 67).isEmpty()).as("a bit in the second word only").isFalse();
        Cpumask b = new Cpumask(70);
        assertThat(b.isEmpty()).isTrue();
        b.copyFrom(a);
        assertThat(b).isEqualTo(a).hasSameHashCodeAs(a);
        assertThat(b.hashCode()).isNotEqualTo(new Cpumask(70).hashCode());
        assertThat(b).isNotEqualTo(mask(70, 3)).isNotEqualTo(mask(71, 3, 67)).isNotEqualTo("{3,67}");
        b.clearAll();
        assertThat(b.isEmpty()).isTrue();
        assertThat(b.nrCpus()).isEqualTo(70);
        assertThat(a.toString()).isEqualTo("{3,67}");
    }
}
