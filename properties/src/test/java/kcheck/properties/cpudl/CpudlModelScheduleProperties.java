package kcheck.properties.cpudl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import kcheck.model.Model;
import kcheck.properties.gen.Failure;
import kcheck.properties.gen.Gens;
import kcheck.properties.gen.Schedules;
import kcheck.properties.gen.Seeds;
import kcheck.properties.gen.SequenceProperty;

/**
 * The explicit-state cpudl model itself (packing, guards, monitors) on random schedules with CPU
 * counts exhaustive search does not reach: after keeps every property, before is caught.
 */
class CpudlModelScheduleProperties {
    private static Model model(String variant, int cpus, String keys) {
        return CpudlSearches.model(variant, cpus, keys);
    }

    @Test
    void afterKeepsEveryPropertyOnRandomSchedulesUpTo64Cpus() {
        long seed = Seeds.seed("cpudl model after schedules");
        for (int cpus : new int[] {5, 8, 16, 64}) {
            for (String keys : List.of("edge", "wrap")) {
                Model m = model("after", cpus, keys);
                SequenceProperty.of("cpudl model after cpus=" + cpus + " keys=" + keys, Gens.ints(0, 1 << 20), 12, 40)
                        .seed(seed + cpus).examples(cpus >= 64 ? 5 : 25)
                        .check(choices -> Schedules.run(m, choices));
            }
        }
    }

    /**
     * Not a search: with the edge keys half the deadlines are at or above 2^63, and 58 % of single
     * schedules of 8 CPUs break a property of before (seed 1, 1,000 schedules). It shows the
     * model's monitors fire at a size exhaustive search does not reach, and the minimisation;
     * the search for the same bug is in CpudlSequenceProperties (deadlines that rarely reach 2^63).
     */
    @Test
    void randomSchedulesOfBeforeFindAViolationAndMinimiseIt() {
        long seed = Seeds.seed("cpudl model before schedules");
        Model m = model("before", 8, "edge");
        Optional<Failure<Integer>> f = SequenceProperty.of("cpudl model before cpus=8", Gens.ints(0, 1 << 20), 12, 40)
                .seed(seed).examples(200).find(choices -> Schedules.run(m, choices));
        assertThat(f).isPresent();
        List<String> steps = Schedules.labels(m, f.get().minimised());
        System.out.println(f.get().property() + " (seed " + f.get().seed() + "): minimised to " + steps.size() + " steps: " + steps
                + "\n" + f.get().message());
    }
}
