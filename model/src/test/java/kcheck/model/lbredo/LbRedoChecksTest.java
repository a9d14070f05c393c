package kcheck.model.lbredo;

import static kcheck.model.lbredo.Explore.params;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The kernel checks and sanity rules of {@link LbCheck}: each trips on its seeded mutant or real
 * bug with a short trace, none trips on the fixed ports, and the open-world environment
 * (overlapping groups, cache-hot tasks) keeps the fixed ports clean.
 */
class LbRedoChecksTest {
    private static final Set<String> CHECKS = Arrays.stream(LbCheck.values()).map(c -> c.id).collect(Collectors.toSet());

    private static Explore.Result run(String variant, Map<String, String> params) {
        return Explore.run(Explore.model(variant, params, CHECKS));
    }

    @ParameterizedTest
    @CsvSource({"mutant-detach-unlocked, warn-rq-held, 3", "mutant-lock-twice, warn-rq-lock-recursion, 3",
        "mutant-busiest-is-dst, warn-busiest-is-dst, 1", "mutant-attach-to-src, warn-attach-task-rq, 3",
        "mutant-detach-to-self, no-self-migration, 3", "mutant-detach-twice, no-task-after-left, 3",
        "mutant-no-parent-test, no-null-sd-parent, 4", "mutant-cpus-setall, cpus-exist, 1"})
    void eachCheckTripsOnItsMutantAsAVerdictNotAnException(String variant, String check, int steps) {
        Explore.Result r = run(variant, params());
        assertThat(r.shortestViolation()).containsEntry(check, steps);
    }

    @Test
    void theReselectedDstCpuOf7aff2e3a56b7IsOutsideEnvCpus() {
        Map<String, String> p = params("masks", "local", "idle", "idle");
        assertThat(run("bug-7aff2e3a56b7", p).shortestViolation()).containsEntry("dst-in-cpus", 4);
        assertThat(run("v6.12", p).shortestViolation()).isEmpty();
    }

    @Test
    void aBusyFirstCpuBalancesBesideItsIdleSiblingOnlyWith6d7e4782bcf5Undone() {
        Map<String, String> llc = params("topology", "smt-llc", "cpus", "6", "idle", "not-idle", "scenario", "race",
                "pulls", "0", "hot", "none");
        assertThat(run("bug-6d7e4782bcf5", llc).shortestViolation()).containsEntry("busy-defers-to-idle", 2);
        assertThat(run("v6.12", llc).shortestViolation()).isEmpty();
        assertThat(run("after", llc).shortestViolation()).as("v5.13's first-idle-CPU election").isEmpty();
        assertThat(run("bug-6d7e4782bcf5", params("topology", "smt", "idle", "not-idle", "hot", "none")).shortestViolation())
                .as("with topology=smt CPU 0's sibling never starts idle").isEmpty();
    }

    @Test
    void anIdleCpuThatPulledATaskBalancesTheNextLevelAsABusyOne() {
        Map<String, String> llc = params("topology", "smt-llc", "cpus", "6", "idle", "idle", "scenario", "race",
                "pulls", "0", "hot", "none");
        assertThat(run("bug-6d7e4782bcf5", llc).shortestViolation()).containsEntry("busy-defers-to-idle", 6);
        assertThat(run("v6.12", llc).shortestViolation()).isEmpty();
    }

    @Test
    void overlappingGroupsLetTheSpanBasedDstGrpmaskOf52c3a18973d0PickBusiest() {
        Map<String, String> overlap = params("topology", "overlap", "idle", "idle");
        assertThat(run("bug-52c3a18973d0", overlap).shortestViolation()).containsEntry("dst-in-balance-mask", 3);
        assertThat(run("v6.12", overlap).shortestViolation()).isEmpty();
        assertThat(run("bug-52c3a18973d0", params("idle", "idle")).shortestViolation())
                .as("without overlap the span is the balance mask").isEmpty();
    }

    @Test
    void cacheHotTasksAreAChoiceThatGrowsTheStateSpaceAndTripNoCheck() {
        Explore.Result cold = run("v6.12", params("hot", "none"));
        Explore.Result hot = run("v6.12", params("hot", "some"));
        assertThat(hot.states()).isGreaterThan(cold.states());
        assertThat(hot.shortestViolation()).isEmpty();
    }

    @Test
    void noTaskIsCacheHotAtAnSmtLevel() {
        Sched s = LbDomain.of(new LbDomain.Spec(4, 2, LbDomain.ALL, 2, 0, LbDomain.SMT, LbDomain.MASKS_OWN,
                LbEnv.CPU_IDLE, 32, 32, true)).newSched();
        s.setTaskHot(0, true);
        s.setLevel(0);
        assertThat(s.taskHot(0)).as("SD_SHARE_CPUCAPACITY: SMT siblings share cache").isZero();
        s.setLevel(1);
        assertThat(s.taskHot(0)).isOne();
    }
}
