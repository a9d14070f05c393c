package kcheck.model.cpudl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;


/** The cpudl packing on hand-built heaps: field widths, the writes metric, capacities, and the limits encodeHeap refuses. */
class CpudlLayoutTest {
    private static final DeadlineDomain SMALL = DeadlineDomain.named("small");

    private static CpudlLayout layout(int n, boolean writes, boolean same, boolean hotplug, boolean capacityBits) {
        return new CpudlLayout(n, 4, SMALL, writes, same, hotplug, capacityBits);
    }

    @Test
    void heapSlotsHoldExactlyTheCpuIds() {
        CpudlLayout l = layout(4, false, true, false, false);
        assertThat(l.slotCpu[0].max()).isEqualTo(3);
        assertThat(l.shCpu[0].max()).isEqualTo(3);
    }

    @Test
    void writesKeepsTheStoreCountUpToItsBoundAndTheKindOfCall() {
        CpudlLayout hot = layout(4, true, false, true, false);
        long[] t = new long[hot.width];
        hot.setWrites(t, hot.writes.max(), 2);
        assertThat(hot.writes.get(t)).isEqualTo(hot.writes.max());
        assertThat(hot.opKind.get(t)).isEqualTo(2);
        assertThatThrownBy(() -> hot.setWrites(t, hot.writes.max() + 1, 0)).isInstanceOfSatisfying(CpudlFault.Flagged.class,
                f -> assertThat(f.code).isEqualTo(CpudlFault.WORK));
        CpudlLayout plain = layout(4, true, false, false, false);
        long[] u = new long[plain.width];
        plain.setWrites(u, 3, 1);
        assertThat(plain.opKind.get(u)).isEqualTo(1);
    }

    @Test
    void decodeMainSetsCapacitiesFromTheStateOrAsGiven() {
        CpudlLayout bits = layout(2, false, false, false, true);
        long[] t = new long[bits.width];
        bits.encodeMain(Cpudl.init(2), t);
        bits.big[1].set(t, 1);
        Cpudl c = Cpudl.init(2);
        bits.decodeMain(t, c, new long[2]);
        assertThat(c.archScaleCpuCapacity(0)).isEqualTo(CpudlCapacity.LITTLE);
        assertThat(c.archScaleCpuCapacity(1)).isEqualTo(CpudlCapacity.BIG);
        CpudlLayout fixed = layout(2, false, false, false, false);
        long[] u = new long[fixed.width];
        fixed.encodeMain(Cpudl.init(2), u);
        Cpudl d = Cpudl.init(2);
        fixed.decodeMain(u, d, new long[] {CpudlCapacity.LITTLE, CpudlCapacity.BIG});
        assertThat(d.archScaleCpuCapacity(0)).isEqualTo(CpudlCapacity.LITTLE);
    }

    @Test
    void encodeHeapFlagsACpuOrAnIndexOutsideTheMachine() {
        CpudlLayout l = layout(4, false, false, false, false);
        Cpudl cpu = Cpudl.init(4);
        cpu.size = 1;
        cpu.setCpu(0, 4);
        assertThatThrownBy(() -> l.encodeHeap(cpu, new long[l.width], false)).isInstanceOfSatisfying(CpudlFault.Flagged.class,
                f -> assertThat(CpudlFault.explain(f.code, f.arg, f.value, 4)).isEqualTo("elements[0].cpu = 4 (slot 0 < size) is not a CPU id 0..3"));
        Cpudl idx = Cpudl.init(4);
        idx.setIdx(2, 4);
        assertThatThrownBy(() -> l.encodeHeap(idx, new long[l.width], false)).isInstanceOfSatisfying(CpudlFault.Flagged.class,
                f -> assertThat(CpudlFault.explain(f.code, f.arg, f.value, 4)).isEqualTo(
                        "elements[2].idx = 4 is neither IDX_INVALID (-1) nor a heap slot 0..3"));
    }
}
