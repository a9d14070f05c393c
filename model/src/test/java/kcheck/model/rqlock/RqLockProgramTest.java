package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RqLockProgramTest {

    @Test
    void eachProgramCounterKnowsTheLocksHeldAndWhatTheCpuWaitsFor() {
        RqLockProgram p = new RqLockProgram(new DoubleLockBalanceV2627(), "before", RqConfig.plain(2), new TicketSpinlock(), 1);
        int cpu = 1;
        boolean sawWaitInsideForRq0 = false;
        for (int pc = 0; pc < p.size(cpu); pc++) {
            int g = p.base[cpu] + pc;
            if (p.op[g] == RqLockProgram.LOCK && p.inside[g] && p.lock[g] == 0) {
                sawWaitInsideForRq0 = true;
                assertThat(p.waitsFor(g, TicketSpinlock.WAIT)).isZero();
                assertThat(p.waitsFor(g, TicketSpinlock.TAKE)).as("taking the ticket is not waiting yet").isEqualTo(-1);
                assertThat(p.held[g]).as("CPU 1 dropped rq1 before queueing on rq0").isZero();
                assertThat(p.dropped[g]).isTrue();
            }
            if (p.op[g] == RqLockProgram.CALL) {
                assertThat(p.held[g]).isEqualTo(1 << cpu);
            }
        }
        assertThat(sawWaitInsideForRq0).isTrue();
    }

    @Test
    void everyPathReturnsExactlyOnce() {
        for (DoubleLockBalance v : new DoubleLockBalance[] {new DoubleLockBalanceV2627(), new DoubleLockBalanceV2628()}) {
            RqLockProgram p = new RqLockProgram(v, "v", RqConfig.plain(3), new TicketSpinlock(), 1);
            for (int cpu = 0; cpu < 3; cpu++) {
                int returns = 0;
                for (int pc = 0; pc < p.size(cpu); pc++) {
                    for (int b = 0; b < p.branches; b++) {
                        if (p.ret[(p.base[cpu] + pc) * p.branches + b] >= 0) {
                            returns++;
                        }
                    }
                }
                int paths = v instanceof DoubleLockBalanceV2627 ? 2 * 2 : 2;
                assertThat(returns).as("returning edges of CPU %d", cpu).isEqualTo(paths);
            }
        }
    }

    @Test
    void everyPrimitiveIsOneInstructionWhateverTheLock() {
        RqLockProgram ticket = new RqLockProgram(new DoubleLockBalanceV2628(), "after", RqConfig.plain(2), new TicketSpinlock(), 1);
        RqLockProgram q = new RqLockProgram(new DoubleLockBalanceV2628(), "after", RqConfig.plain(2), new QSpinlock(), 1);
        assertThat(ticket.size(0)).isEqualTo(q.size(0));
        assertThat(ticket.op[ticket.base[0]]).isEqualTo(RqLockProgram.LOCK);
    }

    @Test
    void coreSchedulingSiblingsShareOneLockAndTheCallerTakesItOnce() {
        // v6.12, core-sched=pairs on 4 CPUs: {0,2} share rq[0]'s core lock, {1,3} rq[1]'s
        RqLockProgram p = new RqLockProgram(new DoubleLockBalanceV612(), "v6.12", new RqConfig(4, true, true),
                new TicketSpinlock(), 1);
        assertThat(p.lock[p.base[2]]).as("CPU 2's caller locks the core lock of rq[0]").isZero();
        assertThat(p.head[p.base[2]]).isEqualTo("raw_spin_rq_lock(rq[2]) [core lock rq[0]]");
    }

    @Test
    void secondCallOfTheUnfairBodyWithoutSubclassResetIsALockdepReport() {
        // 1b12bbc74756: after double_lock_balance took this_rq back at subclass 1, the next call nests busiest at 1 too
        RqLockProgram fixed = new RqLockProgram(new DoubleLockBalanceV2627(), "before", RqConfig.plain(3), new TicketSpinlock(), 2);
        RqLockProgram bug = new RqLockProgram(RqLockFactory.implementation("bug-1b12bbc74756"), "bug", RqConfig.plain(3),
                new TicketSpinlock(), 2);
        assertThat(fixed.lockdep).containsOnly(false);
        assertThat(bug.lockdep).contains(true);
    }
}
