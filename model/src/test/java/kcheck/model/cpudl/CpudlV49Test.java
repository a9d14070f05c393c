package kcheck.model.cpudl;

import static kcheck.model.cpudl.Deadlines.TWO_63;
import static kcheck.model.cpudl.Heaps.clear;
import static kcheck.model.cpudl.Heaps.run;
import static kcheck.model.cpudl.Heaps.set;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class CpudlV49Test {
    private final CpudlV49 v49 = new CpudlV49();

    @Test
    void insertAbove2To63RisesLikeAnyOther() {
        Cpudl cp = run(v49, 4, set(0, TWO_63 + 1), set(1, TWO_63 + 2));
        assertThat(cp.heapString()).isEqualTo("[1:2^63+2 0:2^63+1]");
        assertThat(CpudlInvariants.heapOrder(cp)).isNull();
    }

    @Test
    void heapifyUpContinuesOnTies() {
        Cpudl cp = run(v49, 4, set(0, 5), set(1, 5));
        assertThat(cp.heapString()).as("the new equal key climbs past its parent").isEqualTo("[1:5 0:5]");
        Cpudl old = run(new CpudlV48(), 4, set(0, 5), set(1, 5));
        assertThat(old.heapString()).as("v4.8 stops on ties").isEqualTo("[0:5 1:5]");
    }

    @Test
    void heapifyMovesAHoleAndWritesTheOriginalOnce() {
        // append (3 stores) + one pull (3) + final write (3)
        assertThat(Heaps.storesOfLast(v49, 4, List.of(set(0, 7), set(1, 9)))).isEqualTo(9);
        // two levels: append 3 + pulls 2*3 + final 3
        assertThat(Heaps.storesOfLast(v49, 4, List.of(set(0, 1), set(1, 2), set(2, 3), set(3, 4)))).isEqualTo(12);
        // update without movement still writes the original back: dl + heapify_down's final 3
        assertThat(Heaps.storesOfLast(v49, 4, List.of(set(0, 9), set(1, 2), set(0, 8)))).isEqualTo(4);
    }

    @Test
    void clearOfTheLastSlotStoresItsIndexThenInvalidatesIt() {
        Cpudl cp = run(v49, 4, set(0, 10), set(1, 5));
        cp.resetWrites();
        v49.clear(cp, 1);
        // dl, cpu of slot 1 (itself), idx[1] = 1, idx[1] = -1; heapify(1) on slot size: no store
        assertThat(cp.writes()).isEqualTo(4);
        assertThat(cp.size).isEqualTo(1);
        assertThat(cp.idxString()).isEqualTo("[0 - - -]");
        assertThat(CpudlInvariants.indexConsistent(cp)).isNull();
        assertThat(CpudlInvariants.freeCpus(cp)).isNull();
    }

    @Test
    void clearMovesTheLastSlotUpOrDown() {
        Cpudl cp = run(v49, 4, set(0, 40), set(1, 10), set(2, 30), set(3, 35), clear(2));
        assertThat(cp.heapString()).isEqualTo("[0:40 3:35 1:10]");
        assertThat(CpudlInvariants.heapOrder(cp)).isNull();
        Cpudl up = run(v49, 4, set(0, 40), set(1, 10), set(2, 30), set(3, 5), clear(1));
        assertThat(CpudlInvariants.heapOrder(up)).isNull();
        assertThat(CpudlInvariants.indexConsistent(up)).isNull();
    }

    @Test
    void setOfAPresentCpuKeepsItsFreeBitClear() {
        Cpudl cp = run(v49, 2, set(0, 10), set(0, 20));
        assertThat(cp.freeCpus.toString()).isEqualTo("{1}");
        assertThat(cp.heapString()).isEqualTo("[0:20]");
    }
}
