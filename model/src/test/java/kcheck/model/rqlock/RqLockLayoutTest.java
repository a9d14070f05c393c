package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.model.ModelLimitException;

/** The packing of the rq-lock state and the checked memory view a spinlock step runs on. */
class RqLockLayoutTest {
    private static RqLockLayout qspinlock(String... params) {
        return new RqLockRig(new DoubleLockBalanceV2628(), "qspinlock", Set.of("fifo-entry", "bypass", "overtake"), params).lay;
    }

    @Test
    void aLockWordAccessIsRecordedAsTheFieldItTouches() {
        RqLockLayout lay = qspinlock();
        long[] s = new long[lay.width];
        RqLockLayout.Memory m = lay.new Memory().bind(s, 0, 1);
        m.word(2);
        assertThat(m.touched).isEqualTo(1L << 2);
        m.bind(s, 0, 1).setWord(1, 1);
        assertThat(m.touched).isEqualTo(1L << 1);
        assertThat(lay.word[1][1].getInt(s)).isEqualTo(1);
        assertThat(lay.word[0][1].getInt(s)).isZero();
    }

    @Test
    void aNodeAccessIsOwnOnlyForTheCallersNode() {
        RqLockLayout lay = qspinlock();
        long[] s = new long[lay.width];
        RqLockLayout.Memory m = lay.new Memory();
        m.bind(s, 0, 0).node(0, 0);
        assertThat(m.touched).isEqualTo(RqLockLayout.Memory.OWN);
        m.bind(s, 0, 0).node(1, 0);
        assertThat(m.touched).isEqualTo(RqSpinlock.NODES);
        m.bind(s, 1, 0).setNode(1, 0, 1);
        assertThat(m.touched).isEqualTo(RqLockLayout.Memory.OWN);
        m.bind(s, 0, 0).setNode(1, 1, 1);
        assertThat(m.touched).isEqualTo(RqSpinlock.NODES);
        assertThat(lay.node[1][0].getInt(s)).isEqualTo(1);
        assertThat(lay.node[1][1].getInt(s)).isEqualTo(1);
        assertThat(lay.node[0][0].getInt(s)).isZero();
    }

    @Test
    void theNodeOfACpuThatDoesNotExistIsALimit() {
        RqLockLayout lay = qspinlock();
        long[] s = new long[lay.width];
        RqLockLayout.Memory m = lay.new Memory();
        assertThatThrownBy(() -> m.bind(s, 0, 0).node(2, 0)).isInstanceOf(ModelLimitException.class)
                .hasMessageContaining("accessed the node of CPU 2").hasMessageContaining("cpus=2");
        assertThatThrownBy(() -> m.bind(s, 0, 0).setNode(2, 0, 1)).isInstanceOf(ModelLimitException.class)
                .hasMessageContaining("accessed the node of CPU 2");
    }

    @Test
    void theCanonicalViewReadsTheLockWordOfAnyLock() {
        RqLockLayout lay = qspinlock();
        long[] s = new long[lay.width];
        lay.word[1][2].set(s, 3);
        RqLockLayout.Memory m = lay.new Memory().bind(s, 0, 0);
        assertThat(m.word(1, 2)).isEqualTo(3);
        assertThat(m.word(0, 2)).isZero();
    }

    @Test
    void opLockNamesTheLockOfALockTrylockOrUnlockInstructionOnly() {
        RqLockLayout lay = qspinlock();
        long[] s = new long[lay.width];
        RqLockLayout.Memory m = lay.new Memory().bind(s, 0, 0);
        boolean sawUnlock = false;
        boolean sawCall = false;
        for (int pc = 0; pc < lay.prog.size(0); pc++) {
            lay.pc[0].set(s, pc);
            int g = lay.prog.base[0] + pc;
            int op = lay.prog.op[g];
            if (op == RqLockProgram.UNLOCK || op == RqLockProgram.LOCK || op == RqLockProgram.TRY) {
                assertThat(m.opLock(0)).isEqualTo(lay.prog.lock[g]).isNotNegative();
                sawUnlock |= op == RqLockProgram.UNLOCK;
            } else {
                assertThat(m.opLock(0)).isEqualTo(-1);
                sawCall |= op == RqLockProgram.CALL;
            }
        }
        assertThat(sawUnlock).isTrue();
        assertThat(sawCall).isTrue();
    }

    @Test
    void bypassAndOvertakeCountersHoldEveryReturnOfTheOtherCpus() {
        RqLockLayout lay = qspinlock("cpus", "3", "calls", "2");
        long most = 1 * 2 * (3 - 1); // rounds * calls * (cpus - 1)
        for (int c = 0; c < 3; c++) {
            assertThat(lay.byp[c].max()).isGreaterThanOrEqualTo(most);
            assertThat(lay.ovt[c].max()).isGreaterThanOrEqualTo(most);
        }
    }
}
