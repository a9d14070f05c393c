package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** {@link RqSpinlock#insane}: the lock-word states the kernel's code never produces, on hand-made states of one lock. */
class LockWordSanityTest {

    /** One lock of {@code cpus} CPUs: its word, each CPU's pc on it (-1: none), whether it holds it, and its val register. */
    private static final class State implements RqSpinlock.LockState {
        final int[] word;
        final int[] pc;
        final boolean[] holds;
        final int[] val;

        State(int cpus, int... word) {
            this.word = word;
            this.pc = new int[cpus];
            Arrays.fill(pc, -1);
            this.holds = new boolean[cpus];
            this.val = new int[cpus];
        }

        @Override
        public int cpus() {
            return pc.length;
        }

        @Override
        public int word(int field) {
            return word[field];
        }

        @Override
        public int node(int cpu, int field) {
            return 0;
        }

        @Override
        public int pc(int cpu) {
            return pc[cpu];
        }

        @Override
        public int reg(int cpu, int field) {
            return val[cpu];
        }

        @Override
        public boolean holds(int cpu) {
            return holds[cpu];
        }
    }

    @Test
    void aQspinlockTailMustNameACpuQueuedOnTheLock() {
        QSpinlock q = new QSpinlock();
        State s = new State(3, 1, 0, 2);
        s.holds[0] = true;
        assertThat(q.insane(s)).contains("tail names cpu1");
        s.pc[1] = QSpinlock.WAIT_HEAD;
        assertThat(q.insane(s)).isNull();
        s.pc[1] = QSpinlock.NODE_LOCKED_0;
        assertThat(q.insane(s)).contains("not queued");
    }

    @Test
    void aQspinlockPendingBitAndLockedByteNeedAnOwner() {
        QSpinlock q = new QSpinlock();
        State pending = new State(2, 1, 1, 0);
        pending.holds[0] = true;
        assertThat(q.insane(pending)).contains("pending bit");
        pending.pc[1] = QSpinlock.WAIT_OWNER;
        assertThat(q.insane(pending)).isNull();
        assertThat(q.insane(new State(2, 1, 0, 0))).contains("locked byte is set but no CPU holds");
        State heldUnlocked = new State(2, 0, 0, 0);
        heldUnlocked.holds[1] = true;
        assertThat(q.insane(heldUnlocked)).contains("cpu1 holds the lock but the locked byte is 0");
    }

    @Test
    void ticketCountersCountTheTicketsTaken() {
        TicketSpinlock t = new TicketSpinlock();
        State s = new State(2, 2, 0);
        s.holds[0] = true;
        s.pc[1] = TicketSpinlock.WAIT;
        assertThat(t.insane(s)).isNull();
        s.pc[1] = -1;
        assertThat(t.insane(s)).contains("next - serving = 2 but 1 CPU(s)");
    }

    @Test
    void aTestAndSetFlagIsSetExactlyWhileHeld() {
        TasSpinlock t = new TasSpinlock();
        assertThat(t.insane(new State(2, 1))).contains("no CPU holds");
        State held = new State(2, 0);
        held.holds[0] = true;
        assertThat(t.insane(held)).contains("flag is 0");
    }
}
