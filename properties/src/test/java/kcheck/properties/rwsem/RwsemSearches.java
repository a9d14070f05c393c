package kcheck.properties.rwsem;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.properties.gen.InputSearch;

/**
 * The searches of the rwsem-owner suite ({@link RwsemScheduleProperties}), for any variant: the
 * suite runs them on before and after, the power table on every seeded mutant and real-bug
 * variant.
 */
public final class RwsemSearches {
    public static final String MODEL = "rwsem-owner";
    public static final List<String> SAFETY = List.of("exclusion", "owner-sound");

    private RwsemSearches() {
    }

    public static Model model(String variant, int readers, int writers, String rt, int rounds, List<String> props) {
        ModelFactory f = Models.get(MODEL);
        return f.create(variant, f.params(Map.of("readers", "" + readers, "writers", "" + writers, "rt", rt,
                "rounds", "" + rounds)), new LinkedHashSet<>(props));
    }

    /** exclusion and owner-sound, three readers and three writers looping for ever: 40 uniformly random schedules of 200..800 steps. */
    public static InputSearch safety(String variant) {
        return InputSearch.uniform(model(variant, 3, 3, "none", 0, SAFETY), 200, 800, 40);
    }

    /** The same, three rounds each and deadlock-free too. */
    public static InputSearch safetyBounded(String variant) {
        return InputSearch.uniform(model(variant, 3, 3, "none", 3, List.of("exclusion", "owner-sound", "deadlock-free")), 200, 800,
                40);
    }

    /** exclusion, owner-sound and deadlock-free (three rounds) on 300 PCT schedules of depth 3 and 600 steps. */
    public static InputSearch safetyPct(String variant) {
        return InputSearch.pct(model(variant, 3, 3, "none", 3, List.of("exclusion", "owner-sound", "deadlock-free")), 3, 600, 300);
    }

    /**
     * exclusion alone, cyclic workload, {@code schedules} PCT schedules of depth 3 and 400 steps:
     * the seeded-bug search (a spinner's unqueued trylock must come while readers hold the lock).
     */
    public static InputSearch exclusionPct(String variant, int schedules) {
        return InputSearch.pct(exclusionModel(variant), 3, 400, schedules);
    }

    public static Model exclusionModel(String variant) {
        return model(variant, 3, 3, "none", 0, List.of("exclusion"));
    }
}
