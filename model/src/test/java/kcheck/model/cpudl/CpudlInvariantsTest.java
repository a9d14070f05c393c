package kcheck.model.cpudl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Each invariant's violations on hand-built heaps, and what the explanation names. */
class CpudlInvariantsTest {
    /** A heap of {@code n} CPUs with CPU {@code c} alone at the root with deadline {@code dl}. */
    private static Cpudl rootOnly(int n, int c, long dl) {
        Cpudl cp = Cpudl.init(n);
        cp.size = 1;
        cp.setCpu(0, c);
        cp.setDl(0, dl);
        if (c < n) {
            cp.setIdx(c, 0);
            cp.clearFreecpu(c);
        }
        return cp;
    }

    @Test
    void indexConsistentNamesEachKindOfBrokenIndex() {
        assertThat(CpudlInvariants.indexConsistent(rootOnly(4, 1, 7))).isNull();
        Cpudl big = rootOnly(4, 1, 7);
        big.size = 5;
        assertThat(CpudlInvariants.indexConsistent(big)).isEqualTo("size 5 is out of 0..4");
        assertThat(CpudlInvariants.indexConsistent(rootOnly(4, 4, 7))).isEqualTo("slot 0 holds cpu 4, not a CPU");
        Cpudl noIdx = rootOnly(4, 1, 7);
        noIdx.setIdx(1, Cpudl.IDX_INVALID);
        assertThat(CpudlInvariants.indexConsistent(noIdx)).isEqualTo("slot 0 holds cpu 1 but elements[1].idx = IDX_INVALID");
        Cpudl stale = rootOnly(4, 1, 7);
        stale.setCpu(1, 2);
        stale.setIdx(2, 1);
        assertThat(CpudlInvariants.indexConsistent(stale))
                .isEqualTo("elements[2].idx = 1 but cpu 2 is not in heap slot 1 (size 1)");
        Cpudl missing = rootOnly(4, 1, 7);
        missing.size = 2;
        missing.setCpu(1, 2);
        missing.setIdx(2, 1);
        missing.setIdx(1, Cpudl.IDX_INVALID);
        assertThat(CpudlInvariants.indexConsistent(missing)).startsWith("slot 0 holds cpu 1");
        Cpudl extra = Cpudl.init(4);
        extra.setIdx(3, 0);
        extra.setCpu(0, 3);
        assertThat(CpudlInvariants.indexConsistent(extra)).isEqualTo("elements[3].idx = 0 but cpu 3 is not in heap slot 0 (size 0)");
        Cpudl counted = rootOnly(4, 1, 7);
        counted.size = 0;
        counted.setCpu(0, 1);
        assertThat(CpudlInvariants.indexConsistent(counted)).startsWith("elements[1].idx = 0");
    }

    @Test
    void rootIsLatestRefusesARootThatIsNotACpuOfTheMap() {
        CpudlReference ref = new CpudlReference(4);
        ref.set(1, 7);
        assertThat(CpudlInvariants.rootIsLatest(rootOnly(4, 1, 7), ref)).isNull();
        assertThat(CpudlInvariants.rootIsLatest(rootOnly(4, 4, 7), ref)).startsWith("root is cpu 4 with dl");
        ref.set(2, 9);
        assertThat(CpudlInvariants.rootIsLatest(rootOnly(4, 1, 7), ref)).startsWith("root dl 7 (cpu 1) is earlier than the latest deadline 9");
    }

    @Test
    void freeCpusWithHotplugSaysWhichWayTheBitIsWrong() {
        CpudlReference ref = new CpudlReference(2);
        Cpudl cp = Cpudl.init(2);
        assertThat(CpudlInvariants.freeCpus(cp, ref)).isNull();
        cp.clearFreecpu(1);
        assertThat(CpudlInvariants.freeCpus(cp, ref)).isEqualTo("cpu 1 has no heap entry and an online runqueue but is not in free_cpus");
        Cpudl entry = rootOnly(2, 0, 7);
        entry.setFreecpu(0);
        assertThat(CpudlInvariants.freeCpus(entry, ref)).isEqualTo("cpu 0 has heap entry 0 but is in free_cpus");
    }

    @Test
    void findExplanationsGiveTheReferenceAnswer() {
        CpudlReference ref = new CpudlReference(2);
        Cpumask all = new Cpumask(2);
        all.setAll();
        assertThat(CpudlInvariants.findSound(-1, 5, all, ref)).endsWith(" gives 0");
        DlTask p = new DlTask(5, all, 0, 0);
        Cpudl env = Cpudl.init(2);
        assertThat(CpudlInvariants.findSoundMask(0, 0, p, ref, env)).endsWith(" gives 1, later_mask={0,1}");
        ref.set(0, 7);
        ref.set(1, 9);
        assertThat(CpudlInvariants.findSoundMask(0, 0, p, ref, env)).endsWith(" gives the heap's answer for the latest deadline");
    }

    @Test
    void sameHeapNamesBothHeaps() {
        assertThat(CpudlInvariants.sameHeap(Cpudl.init(2), Cpudl.init(2), "a", "b")).isNull();
        assertThat(CpudlInvariants.sameHeap(rootOnly(2, 0, 7), Cpudl.init(2), "after", "before"))
                .startsWith("after heap=").contains(" but before heap=");
    }

    @Test
    void masksAndCapacitiesPrintTheMachinesCpusOnly() {
        assertThat(CpudlInvariants.maskString(0b1111, 3)).isEqualTo("{0,1,2}");
        assertThat(CpudlInvariants.maskString(0b101, 3)).isEqualTo("{0,2}");
        Cpudl env = Cpudl.init(3);
        env.setCapacities(512, 1024, 1024);
        assertThat(CpudlInvariants.capacities(env)).isEqualTo("[512 1024 1024]");
    }
}
