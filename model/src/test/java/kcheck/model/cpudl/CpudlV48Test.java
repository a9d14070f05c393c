package kcheck.model.cpudl;

import static kcheck.model.cpudl.Deadlines.TWO_63;
import static kcheck.model.cpudl.Heaps.clear;
import static kcheck.model.cpudl.Heaps.run;
import static kcheck.model.cpudl.Heaps.set;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class CpudlV48Test {
    private final CpudlV48 v48 = new CpudlV48();

    @Test
    void insertWithDeadlineAbove2To63BreaksHeap() {
        Cpudl cp = run(v48, 4, set(0, TWO_63 + 1), set(1, TWO_63 + 2));
        assertThat(cp.heapString()).isEqualTo("[0:2^63+1 1:2^63+2]");
        assertThat(CpudlInvariants.heapOrder(cp)).contains("slot 0").contains("earlier than its child slot 1");
    }

    @Test
    void insertBelow2To63RisesToItsPlace() {
        Cpudl cp = run(v48, 4, set(0, 10), set(1, 20), set(2, 30), set(3, 40));
        assertThat(cp.heapString()).isEqualTo("[3:40 2:30 1:20 0:10]");
        assertThat(CpudlInvariants.heapOrder(cp)).isNull();
        assertThat(CpudlInvariants.indexConsistent(cp)).isNull();
        assertThat(CpudlInvariants.freeCpus(cp)).isNull();
    }

    @Test
    void insertStoresZeroFirstThenChangesTheKey() {
        // dl = 0, cpu, idx, then change_key stores dl: 4 stores, no swap for the root
        assertThat(Heaps.storesOfLast(v48, 4, List.of(set(0, 7)))).isEqualTo(4);
        // one swap with the parent: 4 + 6
        assertThat(Heaps.storesOfLast(v48, 4, List.of(set(0, 7), set(1, 9)))).isEqualTo(10);
    }

    @Test
    void updateToAnEarlierDeadlineSiftsDownBySwaps() {
        Cpudl cp = run(v48, 4, set(0, 10), set(1, 20), set(2, 30), set(2, 5));
        assertThat(cp.heapString()).isEqualTo("[1:20 0:10 2:5]");
        assertThat(CpudlInvariants.indexConsistent(cp)).isNull();
    }

    @Test
    void removalMovesTheLastSlotAndSetsTheFreeBit() {
        Cpudl cp = run(v48, 4, set(0, 10), set(1, 20), set(2, 30), clear(2));
        assertThat(cp.heapString()).isEqualTo("[1:20 0:10]");
        assertThat(cp.idxString()).isEqualTo("[1 0 - -]");
        assertThat(cp.freeCpus.testCpu(2)).isTrue();
        assertThat(CpudlInvariants.freeCpus(cp)).isNull();
    }

    @Test
    void removingAnAbsentCpuDoesNothing() {
        Cpudl cp = run(v48, 2, set(0, 10));
        cp.resetWrites();
        v48.clear(cp, 1);
        assertThat(cp.writes()).isZero();
        assertThat(cp.heapString()).isEqualTo("[0:10]");
    }

    @Test
    void removingTheLastSlotOfABrokenHeapSwapsTheRemovedCpuBackIn() {
        // the wrap-around bug leaves cpu 1 (2^63+2) below cpu 0 (2^63+1); removing cpu 1 runs the
        // sift-up on the vacated slot size, whose parent is earlier: cpudl_exchange swaps cpu 1
        // back into the root and cpu 0 out of the heap
        Cpudl cp = run(v48, 4, set(0, TWO_63 + 1), set(1, TWO_63 + 2), clear(1));
        assertThat(cp.heapString()).isEqualTo("[1:2^63+2]");
        assertThat(cp.idxString()).isEqualTo("[- 0 - -]");
        assertThat(cp.freeCpus.toString()).isEqualTo("{1,2,3}");
        assertThat(CpudlInvariants.indexConsistent(cp)).isNull();
        assertThat(CpudlInvariants.freeCpus(cp)).isEqualTo("cpu 0 has no heap entry but is not in free_cpus");
    }
}
