package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TicketSpinlockTest {

    @Test
    void servesTicketsInTheOrderTheyWereTaken() {
        TicketSpinlock l = new TicketSpinlock(4);
        int a = l.takeTicket();
        int b = l.takeTicket();
        int c = l.takeTicket();
        assertThat(l.isServed(a)).isTrue();
        assertThat(l.isServed(b)).isFalse();
        l.unlock();
        assertThat(l.isServed(b)).isTrue();
        assertThat(l.isServed(c)).isFalse();
        l.unlock();
        assertThat(l.isServed(c)).isTrue();
    }

    @Test
    void trylockFailsWhileAnyoneHoldsOrQueuesAndDoesNotQueue() {
        TicketSpinlock l = new TicketSpinlock(4);
        assertThat(l.trylock()).isTrue();
        int next = l.next();
        assertThat(l.trylock()).isFalse();
        assertThat(l.next()).as("a failed trylock takes no ticket").isEqualTo(next);
        int waiter = l.takeTicket();
        l.unlock();
        assertThat(l.trylock()).as("free but a waiter is queued").isFalse();
        assertThat(l.isServed(waiter)).isTrue();
        l.unlock();
        assertThat(l.isFree()).isTrue();
        assertThat(l.trylock()).isTrue();
    }

    @Test
    void countersWrapLikeTheKernelsByteCounters() {
        TicketSpinlock l = new TicketSpinlock(4);
        for (int i = 0; i < 20; i++) {
            int t = l.takeTicket();
            assertThat(l.isServed(t)).isTrue();
            l.unlock();
        }
        assertThat(l.next()).isEqualTo(20 % 16);
        assertThat(l.owner()).isEqualTo(20 % 16);
    }

    @Test
    void isFreeOnlyWhenNobodyHoldsOrQueues() {
        // __ticket_spin_is_locked: locked while next != owner (held, or held with waiters)
        TicketSpinlock l = new TicketSpinlock(4);
        assertThat(l.isFree()).isTrue();
        int held = l.takeTicket();
        assertThat(l.isServed(held)).isTrue();
        assertThat(l.isFree()).as("held").isFalse();
        l.takeTicket();
        l.unlock();
        assertThat(l.isFree()).as("the waiter now holds it").isFalse();
        l.unlock();
        assertThat(l.isFree()).isTrue();
    }

    @Test
    void loadKeepsTheCountersInTheirBits() {
        // the kernel's counters are bytes: a value past the width wraps
        TicketSpinlock l = new TicketSpinlock(2);
        l.load(5, 7);
        assertThat(l.next()).isEqualTo(1);
        assertThat(l.owner()).isEqualTo(3);
        assertThat(l.takeTicket()).isEqualTo(1);
        assertThat(l.next()).isEqualTo(2);
    }
}
