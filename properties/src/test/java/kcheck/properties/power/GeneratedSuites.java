package kcheck.properties.power;

import java.util.List;
import java.util.function.Function;

import kcheck.properties.cpudl.CpudlSearches;
import kcheck.properties.gen.InputSearch;
import kcheck.properties.lbredo.LbRedoSearches;
import kcheck.properties.rqlock.RqLockSearches;
import kcheck.properties.rwsem.RwsemSearches;

/**
 * The generated-input searches of the suites, each as one run of the suite does it, for any
 * variant of its model. The power table runs each on every variant the model's catalogue lists
 * (so variants added later are measured without touching this list); a new suite adds a line
 * here.
 *
 * @param model  the model whose variants the search runs on
 * @param name   the search in words (properties, scenario, generator)
 * @param suite  the suite test that runs it on the fixed and unfixed variants
 * @param search the search for a variant (may throw if the variant cannot run the scenario)
 */
record GeneratedSuites(String model, String name, String suite, Function<String, InputSearch> search) {

    static final List<GeneratedSuites> ALL = List.of(
            new GeneratedSuites(RqLockSearches.MODEL, "safety, uniform schedules, 5 CPUs", "RqLockScheduleProperties",
                    v -> RqLockSearches.safety(v, 5, "ticket")),
            new GeneratedSuites(RqLockSearches.MODEL, "safety, PCT depth 3, 5 CPUs", "RqLockScheduleProperties",
                    v -> RqLockSearches.safetyPct(v, 5, "ticket")),
            new GeneratedSuites(RqLockSearches.MODEL, "fifo-entry, uniform schedules, 5 CPUs", "RqLockScheduleProperties",
                    v -> RqLockSearches.fifoEntry(v, 5)),
            new GeneratedSuites(CpudlSearches.MODEL, "heap checks vs a plain map, 16 CPUs, any clock", "CpudlSequenceProperties",
                    CpudlSearches::invariants),
            new GeneratedSuites(CpudlSearches.MODEL, "heap checks, deadlines rarely reaching 2^63", "CpudlSequenceProperties",
                    CpudlSearches::rareCrossing),
            new GeneratedSuites(CpudlSearches.MODEL, "model safety, uniform schedules, 8 CPUs", "CpudlModelScheduleProperties",
                    CpudlSearches::modelSchedules),
            new GeneratedSuites(LbRedoSearches.MODEL, "terminates, generated domains", "LbRedoGeneratedDomainProperties",
                    v -> LbRedoSearches.onGeneratedDomains(v, 20, "terminates")),
            new GeneratedSuites(LbRedoSearches.MODEL, "no-spurious-redo + all-pinned-sound, generated domains",
                    "LbRedoGeneratedDomainProperties",
                    v -> LbRedoSearches.onGeneratedDomains(v, 30, "no-spurious-redo", "all-pinned-sound")),
            new GeneratedSuites(LbRedoSearches.MODEL, "six properties, exhaustive on small domains of any idle type",
                    "LbRedoGeneratedDomainProperties",
                    v -> LbRedoSearches.exhaustiveOnSmallDomains(v, 30, "terminates", "no-spurious-redo", "all-pinned-sound",
                            "call-returns", "newidle-pulls-here", "scan-bounded")),
            new GeneratedSuites(LbRedoSearches.MODEL, "no-spurious-redo, PCT depth 2, 16-CPU race domain",
                    "LbRedoGeneratedDomainProperties", v -> LbRedoSearches.raceSearch(v, 3000)),
            new GeneratedSuites(RwsemSearches.MODEL, "exclusion + owner-sound, uniform schedules, cyclic", "RwsemScheduleProperties",
                    RwsemSearches::safety),
            new GeneratedSuites(RwsemSearches.MODEL, "exclusion + owner-sound + deadlock-free, uniform schedules, 3 rounds",
                    "RwsemScheduleProperties", RwsemSearches::safetyBounded),
            new GeneratedSuites(RwsemSearches.MODEL, "exclusion + owner-sound + deadlock-free, PCT depth 3, 3 rounds",
                    "RwsemScheduleProperties", RwsemSearches::safetyPct),
            new GeneratedSuites(RwsemSearches.MODEL, "exclusion, PCT depth 3, cyclic, 2000 per run", "RwsemScheduleProperties",
                    v -> RwsemSearches.exclusionPct(v, 2000)));
}
