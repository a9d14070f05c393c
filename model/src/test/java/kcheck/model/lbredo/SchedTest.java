package kcheck.model.lbredo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The machine's own rules, driven directly: its masks, its domain levels, the lock discipline it
 * enforces on reference code, the statistics-pass choice and the monitors it keeps.
 */
class SchedTest {
    private static final int[] TWO_GROUPS = {0, 0, 1, 1};

    /** 4 CPUs: an SMT domain {0,1} (one group per CPU) under an MC domain {0,1} {2,3}. */
    private static Sched twoLevels(int tasks) {
        Sched.SchedDomain smt = Sched.SchedDomain.of("SMT", 0b0011, new int[] {0, 1, -1, -1}, true);
        Sched.SchedDomain mc = Sched.SchedDomain.of("MC", 0b1111, TWO_GROUPS, false);
        Sched s = new Sched(4, new Sched.SchedDomain[] {smt, mc}, -1L, tasks);
        s.setSmtCore(0b0011);
        s.setSmtCore(0b1100);
        return s;
    }

    @Test
    void aOneDomainMachineSpansExactlyItsCpus() {
        assertThat(new Sched(4, TWO_GROUPS, -1L, 1).schedDomainSpan()).isEqualTo(0b1111);
        assertThat(new Sched(64, LbDomain.contiguousGroups(64, 2), -1L, 1).schedDomainSpan()).isEqualTo(-1L);
    }

    @Test
    void theActiveMaskIsClippedToTheMachineAndKeepsInactiveCpusOut() {
        assertThat(new Sched(4, TWO_GROUPS, -1L, 1).cpuActiveMask()).isEqualTo(0b1111);
        assertThat(new Sched(4, TWO_GROUPS, 0b0111, 1).cpuActiveMask()).isEqualTo(0b0111);
        assertThat(new Sched(64, LbDomain.contiguousGroups(64, 2), -1L, 1).cpuActiveMask()).isEqualTo(-1L);
    }

    @Test
    void machinesOfOneTo64CpusAreAccepted() {
        assertThat(new Sched(1, new int[] {0}, -1L, 1).nrCpus).isEqualTo(1);
        assertThat(new Sched(64, LbDomain.contiguousGroups(64, 2), -1L, 1).nrCpus).isEqualTo(64);
        assertThatThrownBy(() -> new Sched(0, new int[0], -1L, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Sched(65, new int[65], -1L, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tasksAreNamedByNumberUntilTheDriverNamesThem() {
        Sched s = new Sched(4, TWO_GROUPS, -1L, 3);
        assertThat(s.nrTasks()).isEqualTo(3);
        assertThat(s.taskName(2)).isEqualTo("t2");
        s.setTask(2, 0b1000, 3, "t3.0");
        assertThat(s.taskName(2)).isEqualTo("t3.0");
    }

    @Test
    void withoutSmtEveryCpuIsItsOwnSiblingAndItsCoreIsIdle() {
        Sched s = new Sched(4, TWO_GROUPS, -1L, 1);
        for (int c = 0; c < 4; c++) {
            assertThat(s.cpuSmtMask(c)).isEqualTo(1L << c);
            assertThat(s.isCoreIdle(c)).isTrue();
        }
    }

    @Test
    void aCoreIsIdleOnlyWhileEverySiblingIs() {
        Sched s = twoLevels(1);
        assertThat(s.cpuSmtMask(0)).isEqualTo(0b0011);
        assertThat(s.isCoreIdle(0)).isTrue();
        s.enqueueTail(1, 0);
        assertThat(s.isCoreIdle(0)).isFalse();
        assertThat(s.isCoreIdle(2)).isTrue();
    }

    @Test
    void onlyTheSmtLevelSharesCpuCapacity() {
        Sched s = twoLevels(1);
        assertThat(s.sdShareCpuCapacity()).isTrue();
        s.setLevel(1);
        assertThat(s.sdShareCpuCapacity()).isFalse();
    }

    @Test
    void settingTheParentImbalanceIsRememberedForTheStep() {
        Sched s = twoLevels(1);
        s.resetStep(0);
        assertThat(s.imbalanceSetInStep()).isFalse();
        s.setSdParentGroupImbalance(true);
        s.setSdParentGroupImbalance(false);
        assertThat(s.imbalanceSetInStep()).as("set once in the step, cleared after").isTrue();
        assertThat(s.groupImbalance(1)).isFalse();
        s.resetStep(0);
        assertThat(s.imbalanceSetInStep()).isFalse();
    }

    @Test
    void groupsAndLevelsAreTheOnesGiven() {
        Sched s = twoLevels(1);
        assertThat(s.levels()).isEqualTo(2);
        assertThat(s.domain(1).name()).isEqualTo("MC");
        s.setLevel(1);
        assertThat(s.level()).isEqualTo(1);
        assertThat(s.groupOf(3)).isEqualTo(1);
        assertThat(s.schedGroupSpan(1)).isEqualTo(0b1100);
        assertThatThrownBy(() -> s.setLevel(2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.setLevel(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void runqueueChangesRequireTheRunqueueLock() {
        Sched s = new Sched(4, TWO_GROUPS, -1L, 2);
        s.enqueueTail(2, 0);
        Rq rq = s.cpuRq(2);
        assertThatThrownBy(() -> s.deactivateTask(rq, 0)).isInstanceOf(LbCheck.Failed.class)
                .hasMessageContaining("lock not held");
        assertThatThrownBy(() -> s.activateTask(rq, 1)).isInstanceOf(LbCheck.Failed.class)
                .hasMessageContaining("lock not held");
        assertThatThrownBy(() -> s.rqUnlock(rq)).isInstanceOf(LbCheck.Failed.class).hasMessageContaining("lock not held");
        assertThat(rq.length()).isEqualTo(1);
    }

    private static LbEnv env(long cpus) {
        LbEnv env = new LbEnv();
        env.dstCpu = 0;
        env.cpus = cpus;
        return env;
    }

    @Test
    void aSecondStatisticsPassInOneStepIsRefusedEvenAfterABalancedOne() {
        Sched s = new Sched(4, TWO_GROUPS, -1L, 1);
        s.resetStep(0);
        assertThat(s.updateSdLbStats(env(0b1111))).isEqualTo(-1);
        assertThatThrownBy(() -> s.updateSdLbStats(env(0b1111))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("two statistics passes");
    }

    @Test
    void aChoiceBeyondTheCandidatesTakesTheLastOne() {
        Sched s = Machines.machine(4, 2, null, null, Machines.tasks(2, Machines.ALL), Machines.tasks(2, Machines.ALL));
        s.resetStep(5);
        assertThat(s.updateSdLbStats(env(0b1111))).isEqualTo(3);
        assertThat(s.eligibleCount()).isEqualTo(2);
    }

    @Test
    void resetRqsClearsEveryLevelsImbalanceFlag() {
        Sched s = twoLevels(1);
        s.setGroupImbalance(0, true);
        s.setGroupImbalance(1, true);
        s.resetRqs();
        assertThat(s.groupImbalance(0)).isFalse();
        assertThat(s.groupImbalance(1)).isFalse();
    }
}
