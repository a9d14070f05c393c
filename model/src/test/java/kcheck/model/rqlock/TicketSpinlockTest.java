package kcheck.model.rqlock;

import static kcheck.model.rqlock.RqSpinlock.BLOCKED;
import static kcheck.model.rqlock.RqSpinlock.DONE;
import static kcheck.model.rqlock.RqSpinlock.FAILED;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import kcheck.model.rqlock.RqSpinlock.Op;

class TicketSpinlockTest {

    @Test
    void servesTicketsInTheOrderTheyWereTaken() {
        SpinlockHarness h = new SpinlockHarness(new TicketSpinlock(), 3);
        for (int c = 0; c < 3; c++) {
            h.start(c, Op.LOCK);
            assertThat(h.step(c)).as("CPU %d takes a ticket", c).isEqualTo(TicketSpinlock.WAIT);
        }
        assertThat(h.step(2)).isEqualTo(BLOCKED);
        assertThat(h.step(1)).isEqualTo(BLOCKED);
        assertThat(h.step(0)).isEqualTo(DONE);
        assertThat(h.run(0, Op.UNLOCK)).isEqualTo(DONE);
        assertThat(h.step(2)).as("ticket 2 is not served before ticket 1").isEqualTo(BLOCKED);
        assertThat(h.step(1)).isEqualTo(DONE);
        assertThat(h.run(1, Op.UNLOCK)).isEqualTo(DONE);
        assertThat(h.step(2)).isEqualTo(DONE);
    }

    @Test
    void trylockFailsWhileAnyoneHoldsOrQueuesAndDoesNotQueue() {
        SpinlockHarness h = new SpinlockHarness(new TicketSpinlock(), 3);
        assertThat(h.run(0, Op.TRYLOCK)).isEqualTo(DONE);
        int next = h.word("next");
        assertThat(h.run(1, Op.TRYLOCK)).isEqualTo(FAILED);
        assertThat(h.word("next")).as("a failed trylock takes no ticket").isEqualTo(next);
        h.start(2, Op.LOCK);
        h.step(2);
        h.run(0, Op.UNLOCK);
        assertThat(h.run(1, Op.TRYLOCK)).as("free but a waiter is queued").isEqualTo(FAILED);
        assertThat(h.step(2)).isEqualTo(DONE);
        h.run(2, Op.UNLOCK);
        assertThat(h.run(1, Op.TRYLOCK)).isEqualTo(DONE);
    }

    @Test
    void countersWrapLikeTheKernelsByteCounters() {
        SpinlockHarness h = new SpinlockHarness(new TicketSpinlock(), 2);
        for (int i = 0; i < 20; i++) {
            assertThat(h.run(i % 2, Op.LOCK)).isEqualTo(DONE);
            h.run(i % 2, Op.UNLOCK);
        }
        assertThat(h.word("next")).isEqualTo(20 % 16);
        assertThat(h.word("serving")).isEqualTo(20 % 16);
    }

    @Test
    void stepFunctionsCompareModuloTheCounterWidth() {
        // the kernel's counters are bytes: a value past the width wraps
        int mask = TicketSpinlock.mask(2);
        assertThat(TicketSpinlock.advance(3, mask)).isZero();
        assertThat(TicketSpinlock.served(5, 1, mask)).isTrue();
        assertThat(TicketSpinlock.free(7, 3, mask)).isTrue();
        assertThat(TicketSpinlock.free(7, 2, mask)).isFalse();
    }

    @Test
    void ticketShiftKeepsOnlyDifferences() {
        int[][] w = {{7, 5}};
        int[] ticket = {6};
        new TicketSpinlock().canonicalize(waitingOnOwnLock(w, ticket));
        assertThat(w[0]).containsExactly(2, 0);
        assertThat(ticket[0]).isEqualTo(1);
    }

    @Test
    void ticketShiftLeavesACanonicalStateAloneAndShiftsEveryLockThatIsNotYetShifted() {
        // two locks, two CPUs waiting (CPU 0 for rq0, CPU 1 for rq1): words {next, serving}
        int[][] w = {{3, 0}, {6, 4}};
        int[] ticket = {2, 5};
        new TicketSpinlock().canonicalize(waitingOnOwnLock(w, ticket));
        assertThat(w[0]).containsExactly(3, 0);
        assertThat(w[1]).containsExactly(2, 0);
        assertThat(ticket).containsExactly(2, 1);

        int[][] shifted = {{3, 0}, {2, 0}};
        int[] tickets = {2, 1};
        new TicketSpinlock().canonicalize(waitingOnOwnLock(shifted, tickets));
        assertThat(shifted[0]).containsExactly(3, 0);
        assertThat(shifted[1]).containsExactly(2, 0);
        assertThat(tickets).containsExactly(2, 1);
    }

    /** Lock words {@code w} ({next, serving} each) and one CPU per lock, CPU c at WAIT on lock c with ticket {@code ticket[c]}. */
    private static RqSpinlock.Canonical waitingOnOwnLock(int[][] w, int[] ticket) {
        return new RqSpinlock.Canonical() {
            public int locks() {
                return w.length;
            }

            public int cpus() {
                return ticket.length;
            }

            public int word(int lock, int field) {
                return w[lock][field];
            }

            public void setWord(int lock, int field, int value) {
                w[lock][field] = value;
            }

            public int node(int cpu, int field) {
                return 0;
            }

            public void setNode(int cpu, int field, int value) {
            }

            public int opLock(int cpu) {
                return cpu;
            }

            public int pc(int cpu) {
                return TicketSpinlock.WAIT;
            }

            public int reg(int cpu, int field) {
                return ticket[cpu];
            }

            public void setReg(int cpu, int field, int value) {
                ticket[cpu] = value;
            }
        };
    }
}
