package kcheck.properties.rwsem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import kcheck.model.Model;
import kcheck.properties.gen.Failure;
import kcheck.properties.gen.Gens;
import kcheck.properties.gen.Pct;
import kcheck.properties.gen.Schedules;
import kcheck.properties.gen.Seeds;
import kcheck.properties.gen.SequenceProperty;

/**
 * rwsem-owner on random schedules with three readers and three writers (six tasks: one more
 * than the largest exhaustive run, readers=3 writers=2), cyclic and bounded workloads, RT and
 * non-RT writers: {@code exclusion} and {@code owner-sound} hold on both variants, and the
 * schedules do find the seeded exclusion bug.
 */
class RwsemScheduleProperties {
    private static final List<String> SAFETY = RwsemSearches.SAFETY;

    private static Model model(String variant, int readers, int writers, String rt, int rounds, List<String> props) {
        return RwsemSearches.model(variant, readers, writers, rt, rounds, props);
    }

    @Test
    void exclusionAndOwnerSoundnessHoldOnRandomSchedulesOfSixTasks() {
        long seed = Seeds.seed("rwsem-owner safety");
        int k = 0;
        for (String variant : List.of("before", "after")) {
            for (String rt : List.of("none", "w0")) {
                Model cyclic = model(variant, 3, 3, rt, 0, SAFETY);
                SequenceProperty.of("rwsem-owner " + variant + " rt=" + rt + " cyclic", Gens.ints(0, 1 << 20), 200, 800)
                        .seed(seed + k++).examples(40)
                        .check(choices -> Schedules.run(cyclic, choices));
            }
            List<String> withDeadlock = List.of("exclusion", "owner-sound", "deadlock-free");
            Model bounded = model(variant, 3, 3, "none", 3, withDeadlock);
            SequenceProperty.of("rwsem-owner " + variant + " 3 rounds", Gens.ints(0, 1 << 20), 200, 800)
                    .seed(seed + k++).examples(40)
                    .check(choices -> Schedules.run(bounded, choices));
        }
    }

    @Test
    void safetyHoldsOnPctSchedulesOfBothVariants() {
        long seed = Seeds.seed("rwsem-owner safety PCT");
        for (String variant : List.of("before", "after")) {
            assertThat(RwsemSearches.safetyPct(variant).finds(seed)).as("a PCT schedule of %s violates safety (seed %d)", variant, seed)
                    .isFalse();
        }
    }

    /**
     * The seeded exclusion bug (a spinner's unqueued trylock that also takes a reader-held lock)
     * found by a real search: 0.2 % of PCT schedules of depth 3 hit it with three readers and
     * three writers (seed 1, 3,000 schedules; uniformly random schedules hit it about 1 % of the
     * time). The search tries up to 6,000 (a miss probability near 6e-6); the test prints its own
     * seed's rate and the minimised schedule.
     */
    @Test
    void pctSchedulesFindAndMinimiseTheSeededExclusionBug() {
        long seed = Seeds.seed("rwsem-owner mutant exclusion PCT");
        Model m = RwsemSearches.exclusionModel("mutant-trylock-ignores-readers");
        Pct pct = new Pct(m, 3, 400);
        Optional<Failure<Integer>> f = pct.find("exclusion mutant-trylock-ignores-readers", seed, 6000);
        assertThat(f).as("exclusion violation of the mutant with 3 readers and 3 writers").isPresent();
        assertThat(f.get().minimised().size()).isLessThanOrEqualTo(f.get().original().size());
        assertThat(f.get().message()).contains("exclusion");
        System.out.printf("exclusion of mutant-trylock-ignores-readers: %.2f %% of single PCT schedules (2000 from seed %d)%n",
                100 * pct.hitRate(seed, 2000), seed);
        List<String> steps = Schedules.labels(m, f.get().minimised());
        System.out.println(f.get().property() + ": " + f.get().original().size() + " steps minimised to " + steps.size() + ":");
        for (int i = 0; i < steps.size(); i++) {
            System.out.println("  " + (i + 1) + ". " + steps.get(i));
        }
        System.out.println(f.get().message());
    }
}
