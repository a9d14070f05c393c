package kcheck.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kcheck.model.SimulationProfile;

/** The simulation's contract: seeded and repeatable with any number of workers, and measuring what the posts describe. */
class SimulationTest {

    private static Simulation.Result run(String model, String variant, String workload, int cpus, int runs, long seed, int workers,
                                         String... costs) {
        SimulationProfile p = Simulation.profile(model);
        CostModel c = CostModel.resolve(model, p.costs(), null, List.of(costs));
        return Simulation.run(p, new Simulation.Config(model, variant, workload, cpus, Map.of(), runs, seed, workers, c,
                Simulation.DEFAULT_MAX_STEPS), Simulation.Listener.NONE);
    }

    private static double[] means(Simulation.Result r, int m) {
        double[] out = new double[r.data()[m].length];
        for (int k = 0; k < out.length; k++) {
            out[k] = r.data()[m][k].mean();
        }
        return out;
    }

    @Test
    void theSameSeedGivesTheSameNumbersWithOneOrTwoWorkers() {
        for (String model : SimulationProfile.simulatable()) {
            int cpus = model.equals("rwsem-owner") ? 4 : model.equals("lb-redo") ? 6 : 4;
            String[] costs = model.equals("rwsem-owner") ? new String[] {"horizon = 20000"} : new String[0];
            Simulation.Result a = run(model, "before", Simulation.profile(model).workloads().get(0).name(), cpus, 40, 99, 1, costs);
            Simulation.Result b = run(model, "before", Simulation.profile(model).workloads().get(0).name(), cpus, 40, 99, 2, costs);
            Simulation.Result c = run(model, "before", Simulation.profile(model).workloads().get(0).name(), cpus, 40, 100, 2, costs);
            assertThat(b.steps()).as(model).isEqualTo(a.steps());
            boolean differs = false;
            for (int m = 0; m < a.data().length; m++) {
                assertThat(means(b, m)).as(model + " measure " + m).containsExactly(means(a, m));
                for (int k = 0; k < a.data()[m].length; k++) {
                    assertThat(b.data()[m][k].quantile(0.99)).isEqualTo(a.data()[m][k].quantile(0.99));
                }
                differs |= !java.util.Arrays.equals(means(c, m), means(a, m));
            }
            assertThat(differs || c.steps() != a.steps()).as(model + ": another seed, other runs").isTrue();
        }
    }

    @Test
    void unfairDoubleLockBalanceMakesHighCpusWaitLongerAndTheFixFlattensIt() {
        /* high pressure (a pass every microsecond), 300 runs of 8 CPUs x 4 passes: mean wait per CPU id */
        double[] before = means(run("rq-lock", "before", "uniform", 8, 300, 11, 2, "think = 500"), 0);
        double[] after = means(run("rq-lock", "after", "uniform", 8, 300, 11, 2, "think = 500"), 0);
        assertThat(before[7] + before[6]).as("before: CPUs 6-7 wait longer than CPUs 0-1").isGreaterThan(1.15 * (before[0] + before[1]));
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (double v : after) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        assertThat(hi / lo).as("after: flat across CPU ids").isLessThan(1.15);
    }

    @Test
    void theRedoRaceLengthensSomeCallsOfBeforeOnly() {
        Simulation.Result before = run("lb-redo", "before", "race", 8, 400, 5, 2);
        Simulation.Result after = run("lb-redo", "after", "race", 8, 400, 5, 2);
        assertThat(before.data()[1][0].max()).as("before: a redo pass").isGreaterThanOrEqualTo(2);
        assertThat(after.data()[1][0].max()).as("after: one pass").isEqualTo(1);
        assertThat(before.data()[0][0].quantile(0.99)).isGreaterThan(after.data()[0][0].quantile(0.99));
    }

    @Test
    void everyRunOfAFiniteWorkloadEndsInItsFinalState() {
        for (String model : List.of("rq-lock", "lb-redo", "cpudl")) {
            Simulation.Result r = run(model, "after", Simulation.profile(model).workloads().get(0).name(), 4, 30, 1, 1);
            assertThat(r.ends()).as(model).containsOnlyKeys("final");
        }
        Simulation.Result rw = run("rwsem-owner", "after", "randrw", 4, 5, 1, 1, "horizon = 20000");
        assertThat(rw.ends()).containsOnlyKeys("horizon");
        assertThat(rw.simulatedNs()).isEqualTo(5 * 20000.0);
    }
}
