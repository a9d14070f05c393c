package kcheck.properties.power;

import java.util.List;
import java.util.function.Supplier;
import java.util.function.Function;

import kcheck.properties.cpudl.CpudlSearches;
import kcheck.properties.gen.InputSearch;
import kcheck.properties.lbredo.LbRedoSearches;
import kcheck.properties.rqlock.RqLockSearches;
import kcheck.properties.rwsem.RwsemSearches;

/**
 * The generated-input searches of the suites that claim a property holds, each as one run of the
 * suite does it, for any variant of its model. The power table runs each on {@code before} and on
 * every seeded mutant and real-bug variant the model's catalogue lists (so variants added later
 * are measured without touching this list); a new suite adds a line here.
 *
 * @param model   the model whose variants the search runs on
 * @param name    the search in words (properties, scenario, generator)
 * @param suite   the suite test that runs it on the fixed and unfixed variants
 * @param samples single inputs checked for the per-input rate (fewer where one input is itself a search)
 * @param search  the search for a variant (may throw if the variant cannot run the scenario)
 */
record GeneratedSuites(String model, String name, String suite, int samples, Function<String, InputSearch> search) {

    GeneratedSuites(String model, String name, String suite, Function<String, InputSearch> search) {
        this(model, name, suite, 200, search);
    }

    static final List<GeneratedSuites> ALL = List.of(
            new GeneratedSuites(RqLockSearches.MODEL, "safety, uniform schedules, 5 CPUs", "RqLockScheduleProperties",
                    v -> RqLockSearches.safety(v, 5, "ticket")),
            new GeneratedSuites(RqLockSearches.MODEL, "safety, PCT depth 3, 5 CPUs", "RqLockScheduleProperties",
                    v -> RqLockSearches.safetyPct(v, 5, "ticket")),
            new GeneratedSuites(RqLockSearches.MODEL, "fifo-entry, uniform schedules, 5 CPUs", "RqLockScheduleProperties",
                    v -> RqLockSearches.fifoEntry(v, 5)),
            new GeneratedSuites(CpudlSearches.MODEL, "heap checks vs a plain map, 16 CPUs, any clock", "CpudlSequenceProperties",
                    CpudlSearches::invariants),
            new GeneratedSuites(CpudlSearches.MODEL, "model safety, uniform schedules, 8 CPUs", "CpudlModelScheduleProperties",
                    CpudlSearches::modelSchedules),
            new GeneratedSuites(LbRedoSearches.MODEL, "terminates, generated domains", "LbRedoGeneratedDomainProperties",
                    v -> LbRedoSearches.onGeneratedDomains(v, 20, "terminates")),
            new GeneratedSuites(LbRedoSearches.MODEL, "no-spurious-redo + all-pinned-sound, generated domains",
                    "LbRedoGeneratedDomainProperties",
                    v -> LbRedoSearches.onGeneratedDomains(v, 30, "no-spurious-redo", "all-pinned-sound")),
            new GeneratedSuites(LbRedoSearches.MODEL, "six properties, exhaustive on small domains of any idle type",
                    "LbRedoGeneratedDomainProperties", 30,
                    v -> LbRedoSearches.exhaustiveOnSmallDomains(v, 30, "terminates", "no-spurious-redo", "all-pinned-sound",
                            "call-returns", "newidle-pulls-here", "scan-bounded")),
            new GeneratedSuites(RwsemSearches.MODEL, "exclusion + owner-sound, uniform schedules, cyclic", "RwsemScheduleProperties",
                    RwsemSearches::safety),
            new GeneratedSuites(RwsemSearches.MODEL, "exclusion + owner-sound + deadlock-free, uniform schedules, 3 rounds",
                    "RwsemScheduleProperties", RwsemSearches::safetyBounded),
            new GeneratedSuites(RwsemSearches.MODEL, "exclusion + owner-sound + deadlock-free, PCT depth 3, 3 rounds",
                    "RwsemScheduleProperties", RwsemSearches::safetyPct));

    /**
     * The searches of the suites' "finds the bug" tests, each on the variant it must find.
     *
     * @param real presented as a real search: single inputs hit the bug less than 1 % of the time,
     *             and (nearly) every run finds it
     */
    record Find(String model, String variant, String name, String test, boolean real, Supplier<InputSearch> search) {
    }

    static final List<Find> FINDS = List.of(
            new Find(CpudlSearches.MODEL, "before", "heap checks, deadlines rarely reaching 2^63, 3000 sequences",
                    "CpudlSequenceProperties#aSearchFindsTheWrapAroundInsertOfBeforeWhenDeadlinesRarelyReach2To63", true,
                    () -> CpudlSearches.rareCrossing("before")),
            new Find(LbRedoSearches.MODEL, "before", "no-spurious-redo, 16-CPU race domain, 5000 PCT schedules of depth 2",
                    "LbRedoGeneratedDomainProperties#pctSchedulesFindAndMinimiseTheRaceRedoOfBefore", true,
                    () -> LbRedoSearches.raceSearch("before", 5000)),
            new Find(RwsemSearches.MODEL, "mutant-trylock-ignores-readers", "exclusion, 3 readers and 3 writers, 6000 PCT schedules of depth 3",
                    "RwsemScheduleProperties#pctSchedulesFindAndMinimiseTheSeededExclusionBug", true,
                    () -> RwsemSearches.exclusionPct("mutant-trylock-ignores-readers", 6000)),
            new Find(RqLockSearches.MODEL, "mutant-unordered", "deadlock-free, 8 CPUs, 2000 PCT schedules of depth 2",
                    "RqLockScheduleProperties#pctSchedulesFindAndMinimiseTheLockOrderDeadlockOfTheUnorderedMutant", false,
                    () -> RqLockSearches.unorderedDeadlockPct(2000)),
            new Find(RqLockSearches.MODEL, "before", "fifo-entry, 2 rounds, 3 CPUs, 300 uniformly random schedules",
                    "RqLockScheduleProperties#randomSchedulesFindAndMinimiseTheFifoEntryViolationOfBefore", false,
                    () -> RqLockSearches.fifoEntryFind(3)),
            new Find(CpudlSearches.MODEL, "before", "model safety, 8 CPUs, edge keys, 200 uniformly random schedules",
                    "CpudlModelScheduleProperties#randomSchedulesOfBeforeFindAViolationAndMinimiseIt", false,
                    () -> CpudlSearches.modelFind()));
}
