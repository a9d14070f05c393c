package kcheck.model.cpudl;

import static kcheck.model.cpudl.Heaps.clear;
import static kcheck.model.cpudl.Heaps.run;
import static kcheck.model.cpudl.Heaps.set;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CpudlRfcV2Test {
    private final CpudlRfcV2 rfc = new CpudlRfcV2();

    @Test
    void heapifyUpClimbsOneLevelOnlyWithSmallKeys() {
        Cpudl cp = run(rfc, 4, set(0, 1), set(1, 2), set(2, 3), set(3, 4));
        assertThat(cp.heapString()).isEqualTo("[2:3 3:4 1:2 0:1]");
        assertThat(CpudlInvariants.heapOrder(cp)).contains("slot 0 (cpu 2, dl 3) is earlier than its child slot 1");
        assertThat(run(new CpudlV49(), 4, set(0, 1), set(1, 2), set(2, 3), set(3, 4)).heapString())
                .isEqualTo("[3:4 2:3 1:2 0:1]");
    }

    @Test
    void oneLevelHeapsAreStillRight() {
        Cpudl cp = run(rfc, 3, set(0, 1), set(1, 2), set(2, 3));
        assertThat(CpudlInvariants.heapOrder(cp)).isNull();
    }

    @Test
    void clearOfTheLastSlotMovesNothing() {
        Cpudl cp = run(rfc, 4, set(0, 10), set(1, 5));
        cp.resetWrites();
        rfc.clear(cp, 1);
        assertThat(cp.writes()).as("only idx[1] = -1").isEqualTo(1);
        assertThat(cp.heapString()).isEqualTo("[0:10]");
        assertThat(CpudlInvariants.indexConsistent(cp)).isNull();
        Cpudl other = run(rfc, 4, set(0, 10), set(1, 5), set(2, 7), clear(0));
        assertThat(other.heapString()).isEqualTo("[2:7 1:5]");
    }

    @Test
    void clearOfTheRootMovesTheLastSlotThereAndSiftsItDown() {
        // cpudl_clear as posted: size--, then the last slot moves into old_idx and cpudl_heapify(cp, old_idx)
        Cpudl cp = run(rfc, 4, set(0, 40), set(1, 30), set(2, 20), set(3, 10));
        assertThat(cp.heapString()).isEqualTo("[0:40 1:30 2:20 3:10]");
        rfc.clear(cp, 0);
        assertThat(cp.heapString()).isEqualTo("[1:30 3:10 2:20]");
        assertThat(CpudlInvariants.heapOrder(cp)).isNull();
        assertThat(CpudlInvariants.indexConsistent(cp)).isNull();
        assertThat(cp.freeCpus.testCpu(0)).isTrue();
    }
}
