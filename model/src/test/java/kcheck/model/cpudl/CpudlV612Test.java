package kcheck.model.cpudl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** v6.12's cpudl_find (1/0 and later_mask, capacity-aware) and cpudl_clear(cp, cpu, online). */
class CpudlV612Test {
    private final CpudlV612 v612 = new CpudlV612();

    private static Cpumask mask(int n, int... cpus) {
        Cpumask m = new Cpumask(n);
        for (int c : cpus) {
            m.setCpu(c);
        }
        return m;
    }

    private static Cpumask all(int n) {
        Cpumask m = new Cpumask(n);
        m.setAll();
        return m;
    }

    @Test
    void withSymmetricCapacitiesEveryFreeAllowedCpuIsACandidate() {
        Cpudl cp = Cpudl.init(4);
        v612.set(cp, 1, 10);
        Cpumask later = new Cpumask(4);
        assertThat(v612.find(cp, new DlTask(5, all(4), 0, 3L << 18), later)).isEqualTo(1);
        assertThat(later).hasToString("{0,2,3}");
    }

    @Test
    void withAsymmetricCapacitiesOnlyCpusThatFitRemain() {
        Cpudl cp = Cpudl.init(4);
        cp.setCapacities(512, 512, 1024, 1024);
        Cpumask later = new Cpumask(4);
        assertThat(v612.find(cp, new DlTask(5, all(4), 0, 3L << 18), later)).isEqualTo(1);
        assertThat(later).as("0.75 needs 768: only the big CPUs").hasToString("{2,3}");
        assertThat(v612.find(cp, new DlTask(5, all(4), 0, 1L << 18), later)).isEqualTo(1);
        assertThat(later).as("0.25 fits everywhere").hasToString("{0,1,2,3}");
    }

    @Test
    void whenNoFreeCpuFitsTheBiggestIsOfferedPreferringTheTasksCpuOnATie() {
        Cpudl cp = Cpudl.init(4);
        cp.setCapacities(256, 512, 512, 1024);
        v612.set(cp, 3, 10);
        Cpumask later = new Cpumask(4);
        DlTask big = new DlTask(5, all(4), 0, 3L << 18);
        assertThat(v612.find(cp, big, later)).isEqualTo(1);
        assertThat(later).as("the first of the two 512s").hasToString("{1}");
        big.cpu = 2;
        assertThat(v612.find(cp, big, later)).isEqualTo(1);
        assertThat(later).as("task_cpu wins the tie").hasToString("{2}");
        CpudlReference ref = new CpudlReference(4);
        ref.set(3, 10);
        assertThat(CpudlReference.expectedFreeCandidates(ref.freeAllowedMask(all(4)), big, cp)).isEqualTo(1L << 2);
    }

    @Test
    void withoutFreeCpusTheRootIsTheAnswerIfTheTaskIsEarlier() {
        Cpudl cp = Cpudl.init(2);
        v612.set(cp, 0, 10);
        v612.set(cp, 1, 20);
        Cpumask later = new Cpumask(2);
        assertThat(v612.find(cp, new DlTask(15, all(2), 0, 0), later)).isEqualTo(1);
        assertThat(later).hasToString("{1}");
        assertThat(v612.find(cp, new DlTask(25, all(2), 0, 0), later)).isZero();
        assertThat(later).isEqualTo(new Cpumask(2));
        assertThat(v612.find(cp, new DlTask(15, mask(2, 0), 0, 0), later)).as("the root is not allowed").isZero();
    }

    @Test
    void clearFollowsTheRunqueuesOnlineStateEvenWithoutAnEntry() {
        Cpudl cp = Cpudl.init(3);
        v612.set(cp, 1, 7);
        v612.clear(cp, 1, false);
        assertThat(cp.size).isZero();
        assertThat(cp.freeCpus).as("offline: not free").hasToString("{0,2}");
        v612.clear(cp, 2, false);
        assertThat(cp.freeCpus).as("no entry, still cleared").hasToString("{0}");
        v612.rqOnlineDl(cp, 2, false, 0);
        assertThat(cp.freeCpus).hasToString("{0,2}");
        v612.rqOnlineDl(cp, 1, true, 9);
        assertThat(cp.heapString()).isEqualTo("[1:9]");
        assertThat(cp.freeCpus).hasToString("{0,2}");
        v612.rqOfflineDl(cp, 1);
        assertThat(cp.heapString()).isEqualTo("[]");
        assertThat(cp.freeCpus).hasToString("{0,2}");
    }

    @Test
    void theV4FormOfFindIsATaskThatFitsEverywhere() {
        Cpudl cp = Cpudl.init(2);
        cp.setCapacities(512, 1024);
        Cpumask later = new Cpumask(2);
        assertThat(v612.find(cp, 5, all(2), later)).isEqualTo(1);
        assertThat(later).hasToString("{0,1}");
        assertThat(v612.findReturnsCpu()).isFalse();
    }
}
