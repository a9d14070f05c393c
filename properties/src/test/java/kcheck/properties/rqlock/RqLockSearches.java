package kcheck.properties.rqlock;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.properties.gen.InputSearch;

/**
 * The searches of the rq-lock suites ({@link RqLockScheduleProperties}), for any variant: the
 * suites run them on before and after, the power table ({@code kcheck.properties.power}) on every
 * seeded mutant and real-bug variant.
 */
public final class RqLockSearches {
    public static final String MODEL = "rq-lock";
    public static final List<String> SAFETY = List.of("mutual-exclusion", "deadlock-free", "holds-both-on-return",
            "return-contract");

    private RqLockSearches() {
    }

    public static Model model(String variant, int cpus, int rounds, String lock, List<String> props) {
        ModelFactory f = Models.get(MODEL);
        return f.create(variant, f.params(Map.of("cpus", "" + cpus, "rounds", "" + rounds, "lock", lock)),
                new LinkedHashSet<>(props));
    }

    /** Safety on 40 uniformly random schedules of 50..400 steps, 3 rounds. */
    public static InputSearch safety(String variant, int cpus, String lock) {
        return InputSearch.uniform(model(variant, cpus, 3, lock, SAFETY), 50, 400, 40);
    }

    /**
     * Safety on 300 PCT schedules of depth 3 (two preemptions), 3 rounds: CPUs run in long
     * stretches, so a race needs the preemptions at the right steps.
     */
    public static InputSearch safetyPct(String variant, int cpus, String lock) {
        return InputSearch.pct(model(variant, cpus, 3, lock, SAFETY), 3, 40 * cpus, 300);
    }

    /** fifo-entry on 60 uniformly random schedules of 50..400 steps, 3 rounds, ticket locks. */
    public static InputSearch fifoEntry(String variant, int cpus) {
        return InputSearch.uniform(model(variant, cpus, 3, "ticket", List.of("fifo-entry")), 50, 400, 60);
    }

    /** The mutant that takes this_rq before busiest, deadlock-free, 8 CPUs, one round: {@code schedules} PCT schedules of depth 2. */
    public static InputSearch unorderedDeadlockPct(int schedules) {
        return InputSearch.pct(unorderedModel(), 2, 81, schedules);
    }

    public static Model unorderedModel() {
        return model("mutant-unordered", 8, 1, "ticket", List.of("deadlock-free"));
    }

    /** fifo-entry on before, 2 rounds, {@code cpus} CPUs: 300 uniformly random schedules of 50..300 steps. */
    public static InputSearch fifoEntryFind(int cpus) {
        return InputSearch.uniform(model("before", cpus, 2, "ticket", List.of("fifo-entry")), 50, 300, 300);
    }
}
