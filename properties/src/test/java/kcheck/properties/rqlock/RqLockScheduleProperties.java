package kcheck.properties.rqlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import kcheck.model.Model;
import kcheck.model.Models;
import kcheck.properties.gen.Failure;
import kcheck.properties.gen.Gens;
import kcheck.properties.gen.Schedules;
import kcheck.properties.gen.Seeds;
import kcheck.properties.gen.SequenceProperty;

/**
 * rq-lock on random schedules, 3 to 8 CPUs and several rounds: sizes exhaustive search does not
 * reach at every bound. Safety holds on both variants; fifo-entry is found broken on before.
 */
class RqLockScheduleProperties {
    private static final List<String> SAFETY = List.of("mutual-exclusion", "deadlock-free", "holds-both-on-return",
            "return-contract");

    private static Model model(String variant, int cpus, int rounds, String lock, List<String> props) {
        var f = Models.get("rq-lock");
        return f.create(variant, f.params(Map.of("cpus", "" + cpus, "rounds", "" + rounds, "lock", lock)),
                new java.util.LinkedHashSet<>(props));
    }

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
    void fifoEntryHoldsOnRandomSchedulesOfAfterWithTicketLocks() {
        long seed = Seeds.seed("rq-lock after fifo-entry");
        for (int cpus = 3; cpus <= 8; cpus++) {
            Model m = model("after", cpus, 3, "ticket", List.of("fifo-entry"));
            SequenceProperty.of("fifo-entry after cpus=" + cpus, Gens.ints(0, 1 << 20), 50, 400)
                    .seed(seed + cpus).examples(60)
                    .check(choices -> Schedules.run(m, choices));
        }
    }

    @Test
    void randomSchedulesFindAndMinimiseTheFifoEntryViolationOfBefore() {
        long seed = Seeds.seed("rq-lock before fifo-entry");
        for (int cpus = 3; cpus <= 8; cpus++) {
            Model m = model("before", cpus, 2, "ticket", List.of("fifo-entry"));
            Optional<Failure<Integer>> f = SequenceProperty.of("fifo-entry before cpus=" + cpus, Gens.ints(0, 1 << 20), 50, 300)
                    .seed(seed + cpus).examples(300)
                    .find(choices -> Schedules.run(m, choices));
            assertThat(f).as("fifo-entry violation on before with %d CPUs", cpus).isPresent();
            assertThat(f.get().minimised().size()).isLessThanOrEqualTo(f.get().original().size());
            assertThat(f.get().message()).contains("fifo-entry");
            if (cpus == 3) {
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
}
