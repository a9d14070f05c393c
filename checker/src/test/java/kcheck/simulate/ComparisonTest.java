package kcheck.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import kcheck.model.SimulationProfile;

/** The before / after ratio of a post's figure, and the interval printed with it. */
class ComparisonTest {
    private static final long[] SEEDS = {7, 2008, 2021, 1};

    private static List<Comparison> compare(String model, String workload, int cpus, int runs, long seed) {
        SimulationProfile p = Simulation.profile(model);
        CostModel c = CostModel.resolve(model, p.costs(), null, List.of());
        Simulation.Result[] r = new Simulation.Result[2];
        String[] variants = {"before", "after"};
        for (int i = 0; i < 2; i++) {
            r[i] = Simulation.run(p, new Simulation.Config(model, variants[i], workload, cpus, Map.of(), runs, seed, 2, c,
                    Simulation.DEFAULT_MAX_STEPS), Simulation.Listener.NONE);
        }
        return Comparison.of(r[0], r[1], 0.05);
    }

    @ParameterizedTest
    @CsvSource({"lb-redo, race, 8, 2000", "cpudl, post, 8, 2000", "rq-lock, uniform, 4, 400"})
    void everyIntervalCoversItsRatioAndTheOtherSeedsIntervalsAndMaximaHaveNone(String model, String workload, int cpus, int runs) {
        List<List<Comparison>> bySeed = new ArrayList<>();
        for (long seed : SEEDS) {
            bySeed.add(compare(model, workload, cpus, runs, seed));
        }
        int claims = bySeed.get(0).size();
        for (int k = 0; k < claims; k++) {
            for (int s = 0; s < SEEDS.length; s++) {
                Comparison c = bySeed.get(s).get(k);
                String what = model + " " + c.claim().measure() + " " + c.claim().statistic() + ", seed " + SEEDS[s] + ": " + c.ratioText();
                if (c.claim().statistic().equals("max")) {
                    assertThat(c.ratioHalfWidth()).as(what + ": a ratio of maxima has no interval").isNaN();
                    assertThat(c.ratioText()).as(what).endsWith(" (no interval: a maximum)");
                    continue;
                }
                assertThat(c.ratioHalfWidth()).as(what).isPositive();
                assertThat(c.ratio()).as(what + " lies in its interval").isBetween(low(c), high(c));
                for (int t = 0; t < SEEDS.length; t++) {
                    Comparison o = bySeed.get(t).get(k);
                    assertThat(low(c) <= high(o) && low(o) <= high(c)).as(what + " overlaps seed " + SEEDS[t] + "'s " + o.ratioText())
                            .isTrue();
                }
            }
        }
    }

    private static double low(Comparison c) {
        return c.ratio() - c.ratioHalfWidth();
    }

    private static double high(Comparison c) {
        return c.ratio() + c.ratioHalfWidth();
    }
}
