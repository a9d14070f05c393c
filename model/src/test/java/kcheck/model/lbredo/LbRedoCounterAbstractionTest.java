package kcheck.model.lbredo;

import static kcheck.model.lbredo.Explore.params;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The loop-counter abstraction (LbRedoLayout: {@code env.loop} exact up to the horizon H,
 * {@code loop_break} and {@code loop_max} from H up one class; {@code sysctl_sched_nr_migrate}
 * only through {@code loop_max = min(nr_migrate, nr_running)}) keeps the search exact: on small
 * cases it gives the same verdicts, shortest counterexample lengths and metric maxima as the
 * unabstracted counters, and merges states only where the counters differ inside one class.
 */
class LbRedoCounterAbstractionTest {
    private static final Set<String> PROPS = Set.of("terminates", "call-returns", "all-pinned-sound", "no-spurious-redo",
            "pinned-redo-kept", "scan-bounded", "imbalance-kept", "newidle-pulls-here", "redos", "stat-passes",
            "spurious-redos", "stat-work");

    private static void sameAsUnabstracted(String variant, LoadBalance impl, Map<String, String> params, boolean sameStates) {
        Explore.Result abs = Explore.run(Explore.model(variant, impl, params, PROPS));
        Explore.Result exact = Explore.run(Explore.exactCounters(variant, impl, params, PROPS));
        assertThat(abs.shortestViolation()).as("%s %s: violations and their shortest lengths", variant, params)
                .isEqualTo(exact.shortestViolation());
        assertThat(abs.maxima()).as("%s %s: metric maxima", variant, params).isEqualTo(exact.maxima());
        if (sameStates) {
            assertThat(abs.states()).as("%s %s: states", variant, params).isEqualTo(exact.states());
        } else {
            assertThat(abs.states()).as("%s %s: the class merges states", variant, params).isLessThan(exact.states());
        }
    }

    @ParameterizedTest
    @CsvSource({
        "before, all, 4, 32, newly-idle", "after, all, 4, 32, newly-idle", "v6.12, all, 4, 32, newly-idle",
        "before, pinned, 6, 32, not-idle", "v6.12, pinned, 6, 8, idle", "bug-2feab2492deb, pinned, 4, 32, newly-idle",
        "bug-2feab2492deb, pinned, 4, 8, not-idle", "mutant-no-loop-reset, pinned, 6, 32, newly-idle",
        "mutant-scan-one-past, pinned, 4, 32, idle", "rfc, all, 4, 32, newly-idle"})
    void builtInVariantsGiveTheSameResultsAsWithUnabstractedCounters(String variant, String scenario, String cpus,
                                                                     String migrateBreak, String idle) {
        sameAsUnabstracted(variant, LbRedoFactory.implementation(variant),
                params("scenario", scenario, "cpus", cpus, "nr-migrate-break", migrateBreak, "idle", idle), true);
    }

    @Test
    void aVariantWhoseLoopBreakRunsAwayHasItsValuesMergedIntoOneClassWithTheSameVerdicts() {
        // at the unlocked read, loop_break becomes 100 x (1 + the tasks on the other CPUs): a value
        // that remembers whether a pull came before or after the read, far above the horizon where
        // loop never reaches: the unabstracted counters keep both histories apart, the class merges them
        LoadBalanceV511 runaway = new LoadBalanceV511() {
            @Override
            public int loadBalance(LoadBalanceCall lb, Sched s) {
                int ret = super.loadBalance(lb, s);
                if (ret == MORE_BALANCE && lb.env.loop == 0) {
                    int tasks = 0;
                    for (int c = 2; c < s.nrCpus; c++) {
                        tasks += s.cpuRq(c).nrRunning;
                    }
                    lb.env.loopBreak = 100 * (1 + tasks);
                }
                return ret;
            }
        };
        sameAsUnabstracted("runaway", runaway, params("scenario", "all", "cpus", "6"), false);
    }

    @Test
    void everySysctlNrMigrateFromTheLargestRunqueueUpIsOneClass() {
        // loop_max = min(sysctl_sched_nr_migrate, nr_running) and nr_running <= tasks = 2 here
        long states = -1;
        for (String nr : new String[] {"2", "3", "32", "1024"}) {
            Explore.Result r = Explore.run(Explore.model("after", params("cpus", "6", "nr-migrate", nr), PROPS));
            if (states < 0) {
                states = r.states();
            }
            assertThat(r.states()).as("nr-migrate=" + nr).isEqualTo(states);
            assertThat(r.violated("all-pinned-sound")).isFalse();
        }
        // below the largest runqueue it is a different machine: detach_tasks looks at the tail task only
        Explore.Result one = Explore.run(Explore.model("after", params("cpus", "6", "nr-migrate", "1"), PROPS));
        assertThat(one.states()).isNotEqualTo(states);
    }

    @Test
    void theHorizonGrowsWithTheBreakTheTasksAndTheCandidates() {
        LbRedoModel four = (LbRedoModel) Explore.model("after", params(), Set.of("terminates"));
        LbRedoModel wide = (LbRedoModel) Explore.model("after", params("cpus", "12", "groups", "12", "tasks", "4",
                "scenario", "race"), Set.of("terminates"));
        assertThat(four.counterHorizon()).isEqualTo(32 + 2 + 3 + 2 + 2);
        assertThat(wide.counterHorizon()).isEqualTo(32 + 4 + 3 + 11 + 2);
    }
}
