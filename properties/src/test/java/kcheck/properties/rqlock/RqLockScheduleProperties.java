package kcheck.properties.rqlock;

import static kcheck.properties.rqlock.RqLockSearches.SAFETY;
import static kcheck.properties.rqlock.RqLockSearches.model;
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
 * rq-lock on random schedules, 3 to 8 CPUs and several rounds: sizes exhaustive search does not
 * reach at every bound. Safety holds on both variants, on uniformly random and on PCT schedules;
 * fifo-entry holds on after and is found broken on before. What these searches catch on the
 * seeded mutants and real-bug variants is measured in docs/power.md.
 */
class RqLockScheduleProperties {

    @Test
    void safetyHoldsOnRandomSchedulesOfBothVariantsAndLockKinds() {
        long seed = Seeds.seed("rq-lock safety");
        for (String variant : List.of("before", "after")) {
            for (String lock : List.of("ticket", "tas")) {
                for (int cpus = 3; cpus <= 8; cpus++) {
                    Model m = model(variant, cpus, 3, lock, SAFETY);
                    SequenceProperty.of("rq-lock " + variant + " " + lock + " cpus=" + cpus, Gens.ints(0, 1 << 20), 50, 400)
                            .seed(seed + cpus).examples(40)
                            .check(choices -> Schedules.run(m, choices));
                }
            }
        }
    }

    @Test
    void safetyHoldsOnPctSchedulesOfBothVariants() {
        long seed = Seeds.seed("rq-lock safety PCT");
        for (String variant : List.of("before", "after")) {
            for (int cpus : new int[] {3, 5, 8}) {
                assertThat(RqLockSearches.safetyPct(variant, cpus, "ticket").finds(seed + cpus))
                        .as("a PCT schedule of %s with %d CPUs violates safety (seed %d)", variant, cpus, seed + cpus).isFalse();
            }
        }
    }

    @Test
    void fifoEntryHoldsOnRandomSchedulesOfAfterWithTicketLocks() {
        long seed = Seeds.seed("rq-lock after fifo-entry");
        for (int cpus = 3; cpus <= 8; cpus++) {
            Model m = model("after", cpus, 3, "ticket", List.of("fifo-entry"));
            SequenceProperty.of("fifo-entry after cpus=" + cpus, Gens.ints(0, 1 << 20), 50, 400)
                    .seed(seed + cpus).examples(60)
                    .check(choices -> Schedules.run(m, choices));
        }
    }

    /**
     * Not a search: the unfair entry of 2.6.27 is shallow. 37 % (3 CPUs) to 64 % (8 CPUs) of
     * single uniformly random schedules of 2 rounds violate fifo-entry, and 13 to 26 % of PCT
     * schedules of depth 2 (measured with seed 1 on 1,000 to 2,000 schedules; the test prints
     * the rate of its own seed). What the test shows is the minimisation: the failing schedule
     * shrinks to the post's scenario, and its message names the property.
     */
    @Test
    void randomSchedulesFindAndMinimiseTheFifoEntryViolationOfBefore() {
        long seed = Seeds.seed("rq-lock before fifo-entry");
        for (int cpus = 3; cpus <= 8; cpus++) {
            Model m = model("before", cpus, 2, "ticket", List.of("fifo-entry"));
            SequenceProperty<Integer> search = SequenceProperty.of("fifo-entry before cpus=" + cpus, Gens.ints(0, 1 << 20), 50, 300)
                    .seed(seed + cpus).examples(300);
            Optional<Failure<Integer>> f = search.find(choices -> Schedules.run(m, choices));
            assertThat(f).as("fifo-entry violation on before with %d CPUs", cpus).isPresent();
            assertThat(f.get().minimised().size()).isLessThanOrEqualTo(f.get().original().size());
            assertThat(f.get().message()).contains("fifo-entry");
            if (cpus == 3) {
                System.out.printf("fifo-entry before, 3 CPUs: %.0f %% of single schedules violate (200 from seed %d)%n",
                        100 * search.hitRate(200, choices -> Schedules.run(m, choices)), seed + cpus);
                List<String> steps = Schedules.labels(m, f.get().minimised());
                System.out.println(f.get().property() + " (seed " + f.get().seed() + "): " + f.get().original().size()
                        + " steps minimised to " + steps.size() + ":");
                for (int i = 0; i < steps.size(); i++) {
                    System.out.println("  " + (i + 1) + ". " + steps.get(i));
                }
                System.out.println(f.get().message());
            }
        }
    }

    /**
     * PCT finds the lock-order deadlock of the seeded mutant that takes this_rq before busiest:
     * two CPUs must each be preempted between their two lock steps with the right busiest
     * choices. 1.8 % of PCT schedules of depth 2 at 8 CPUs and one round deadlock (seed 1, 3,000
     * schedules), so the search tries hundreds; the test measures its own seed's rate and shows
     * the minimised schedule.
     */
    @Test
    void pctSchedulesFindAndMinimiseTheLockOrderDeadlockOfTheUnorderedMutant() {
        long seed = Seeds.seed("rq-lock mutant-unordered deadlock PCT");
        Model m = model("mutant-unordered", 8, 1, "ticket", List.of("deadlock-free"));
        Pct pct = new Pct(m, 2, 81);
        Optional<Failure<Integer>> f = pct.find("deadlock-free mutant-unordered cpus=8", seed, 2000);
        assertThat(f).as("a PCT schedule deadlocks the unordered mutant").isPresent();
        assertThat(f.get().message()).contains("deadlock-free");
        System.out.printf("deadlock of mutant-unordered, 8 CPUs: %.2f %% of single PCT schedules (1000 from seed %d)%n",
                100 * pct.hitRate(seed, 1000), seed);
        List<String> steps = Schedules.labels(m, f.get().minimised());
        System.out.println(f.get().property() + ": " + f.get().original().size() + " steps minimised to " + steps.size() + ":");
        for (int i = 0; i < steps.size(); i++) {
            System.out.println("  " + (i + 1) + ". " + steps.get(i));
        }
        System.out.println(f.get().message());
    }
}
