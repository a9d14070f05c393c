package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RqLockProgramTest {

    @Test
    void eachProgramCounterKnowsTheLocksHeldAndWhatTheCpuWaitsFor() {
        RqLockProgram p = new RqLockProgram(new DoubleLockBalanceV2627(), "before", 2, true);
        int cpu = 1;
        boolean sawWaitInsideForRq0 = false;
        for (int pc = 0; pc < p.size(cpu); pc++) {
            int g = p.base[cpu] + pc;
            if (p.op[g] == RqLockProgram.WAIT && p.inside[g] && p.lock[g] == 0) {
                sawWaitInsideForRq0 = true;
                assertThat(p.waitsFor[g]).isZero();
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
            RqLockProgram p = new RqLockProgram(v, "v", 3, true);
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
    void testAndSetLockIsOneStepAndTicketLockTwo() {
        RqLockProgram ticket = new RqLockProgram(new DoubleLockBalanceV2628(), "after", 2, true);
        RqLockProgram tas = new RqLockProgram(new DoubleLockBalanceV2628(), "after", 2, false);
        assertThat(ticket.size(0)).isGreaterThan(tas.size(0));
        assertThat(ticket.op[ticket.base[0]]).isEqualTo(RqLockProgram.TAKE);
        assertThat(tas.op[tas.base[0]]).isEqualTo(RqLockProgram.TAS);
    }
}
