package kcheck.model.cpudl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import kcheck.model.Kernel;

/** struct cpudl: cpudl_init() and the heap index helpers of kernel/sched/cpudeadline.c (v4.8). */
class CpudlTest {

    @Test
    void initGivesAnEmptyHeapEveryIndexInvalidAndEveryCpuFree() {
        // cpudl_init: size 0, elements[i].idx = IDX_INVALID; rq_online_dl: cpudl_set_freecpu for each CPU
        Cpudl cp = Cpudl.init(4);
        assertThat(cp.size).isZero();
        assertThat(cp.idxString()).isEqualTo("[- - - -]");
        Cpumask all = new Cpumask(4);
        all.setAll();
        assertThat(cp.freeCpus).as("exactly the CPUs of the root domain").isEqualTo(all);
        assertThat(cp.toString()).isEqualTo("heap=[] idx=[- - - -] free={0,1,2,3}");
        assertThat(Cpudl.init(64).freeCpus.testCpu(63)).isTrue();
    }

    @Test
    void oneCpuIsARootDomainAndZeroIsNot() {
        Cpudl one = Cpudl.init(1);
        new CpudlV49().set(one, 0, 7);
        assertThat(one.heapString()).isEqualTo("[0:7]");
        assertThatThrownBy(() -> Cpudl.init(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void parentAndChildrenOfTheImplicitBinaryHeap() {
        // parent(i) = (i - 1) >> 1, left_child(i) = (i << 1) + 1, right_child(i) = (i << 1) + 2
        assertThat(Cpudl.parent(1)).isZero();
        assertThat(Cpudl.parent(2)).isZero();
        assertThat(Cpudl.parent(6)).isEqualTo(2);
        assertThat(Cpudl.leftChild(2)).isEqualTo(5);
        assertThat(Cpudl.rightChild(2)).isEqualTo(6);
    }

    @Test
    void sameHeapComparesSizeSlotsInUseAndTheReverseIndex() {
        CpudlV49 v49 = new CpudlV49();
        Cpudl a = Heaps.run(v49, 3, Heaps.set(0, 10), Heaps.set(1, 20));
        Cpudl b = Heaps.run(v49, 3, Heaps.set(1, 20), Heaps.set(0, 10));
        assertThat(a.sameHeapAs(b)).isTrue();
        b.loadSlot(2, 2, 99);
        assertThat(a.sameHeapAs(b)).as("slots at or beyond size are ignored").isTrue();
        b.loadIdx(2, 2);
        assertThat(a.sameHeapAs(b)).as("reverse index differs").isFalse();
        assertThat(a.sameHeapAs(Heaps.run(v49, 3, Heaps.set(0, 10)))).as("size differs").isFalse();
        assertThat(a.sameHeapAs(Heaps.run(v49, 4, Heaps.set(0, 10), Heaps.set(1, 20)))).as("CPU count differs").isFalse();
        assertThat(a.sameHeapAs(Heaps.run(v49, 3, Heaps.set(0, 10), Heaps.set(1, 21)))).as("a deadline differs").isFalse();
    }

    @Test
    void copyFromCopiesEverythingIncludingTheWriteCount() {
        Cpudl a = Heaps.run(new CpudlV48(), 3, Heaps.set(0, 10), Heaps.set(1, 20));
        Cpudl b = Cpudl.init(3);
        b.copyFrom(a);
        assertThat(b.sameHeapAs(a)).isTrue();
        assertThat(b.toString()).isEqualTo(a.toString());
        assertThat(b.writes()).isEqualTo(a.writes()).isPositive();
    }

    @Test
    void eachHeapNamesTheVersionItsCodeCites() throws Exception {
        for (CpudlHeap h : new CpudlHeap[] {new CpudlV48(), new CpudlV49(), new CpudlRfcV2()}) {
            Kernel k = h.getClass().getMethod("set", Cpudl.class, int.class, long.class).getAnnotation(Kernel.class);
            assertThat(h.version()).isEqualTo(k.version());
        }
    }
}
