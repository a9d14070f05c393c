package kcheck.verdicts;

import static kcheck.verdicts.Checks.params;
import static kcheck.verdicts.Checks.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RawTrace;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.Model;
import kcheck.model.ModelInputException;

/**
 * The rwsem-owner verdicts of docs/spec.md section 3 and docs/models/rwsem-owner.md, computed by the engine. The safety runs are shared by the
 * tests of one instance (one per class run), never across runs: mutation testing swaps the
 * reference code between runs in the same JVM.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RwsemOwnerVerdictTest {
    private static final String[] SAFETY = {"exclusion", "owner-sound", "spin-on-running-writer", "deadlock-free",
        "reader-owned-no-writer", "null-owner-no-writer"};
    private static final Map<String, String> R2W2 = params("readers", "2", "writers", "2");
    private static final Map<String, String> R1W2 = params("readers", "1", "writers", "2");

    private static List<String> steps(Model m, RawTrace t, int from) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < t.length(); i++) {
            out.add(m.actors().get(t.actors()[i]) + ": " + m.describe(t.actors()[i], t.actions()[i]).label());
        }
        return out;
    }

    @ParameterizedTest(name = "{0}: {1} {2}")
    @CsvSource({
        "before, exclusion, HOLDS", "after, exclusion, HOLDS",
        "before, owner-sound, HOLDS", "after, owner-sound, HOLDS",
        "before, spin-on-running-writer, VIOLATED", "after, spin-on-running-writer, HOLDS",
        "before, deadlock-free, HOLDS", "after, deadlock-free, HOLDS",
        "before, reader-owned-no-writer, HOLDS", "after, reader-owned-no-writer, VIOLATED",
        "before, null-owner-no-writer, VIOLATED", "after, null-owner-no-writer, VIOLATED"})
    void safetyVerdictsAtTwoReadersAndTwoWritersMatchKernelMd(String variant, String property, Verdict expected) {
        RunResult r = cached(variant);
        assertThat(r.stats().complete()).isTrue();
        assertThat(r.property(property).verdict()).isEqualTo(expected);
    }

    private final Map<String, RunResult> safetyRuns = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * One search per variant for the twelve verdicts, except under PIT
     * ({@code -Dkcheck.test.cache=false}): PIT runs for a mutant only the tests whose coverage
     * reached its line, and with a shared search only the first of them executes the monitors, so
     * a mutant of the null-owner monitor would be tested by the exclusion case only.
     */
    private RunResult cached(String variant) {
        if (!Boolean.parseBoolean(System.getProperty("kcheck.test.cache", "true"))) {
            return run("rwsem-owner", variant, R2W2, SAFETY);
        }
        return safetyRuns.computeIfAbsent(variant, v -> run("rwsem-owner", v, R2W2, SAFETY));
    }

    @Test
    void beforeSpinsForeverOnAReaderHeldLockAndAfterStops() {
        RunResult before = run("rwsem-owner", "before", R2W2, "no-spin-on-readers");
        PropertyResult p = before.property("no-spin-on-readers");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        RawTrace t = p.trace();
        assertThat(t.loopStart()).isNotNegative();
        List<String> cycle = steps(before.model(), t, t.loopStart());
        assertThat(cycle).isNotEmpty().allMatch(s -> s.startsWith("writer") && (s.contains("rwsem_optimistic_spin: load owner = NULL")
                || s.contains("rwsem_try_write_lock_unqueued: load count = 1")));
        assertThat(steps(before.model(), t, 0)).contains("writer 0: rwsem_optimistic_spin: osq_lock = 1 (holds the osq: the spinner)");

        RunResult after = run("rwsem-owner", "after", R2W2, "no-spin-on-readers");
        assertThat(after.property("no-spin-on-readers").verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(after.stats().complete()).isTrue();
    }

    @Test
    void theStrictFormCatchesTheV48GapOfAReaderBetweenItsCountStepAndItsOwnerStore() {
        Map<String, String> small = params("readers", "1", "writers", "1");
        for (String v : List.of("before", "after")) {
            RunResult r = run("rwsem-owner", v, small, "no-spin-on-readers", "no-spin-on-readers-strict");
            assertThat(r.property("no-spin-on-readers-strict").verdict()).as(v).isEqualTo(Verdict.VIOLATED);
            assertThat(r.property("no-spin-on-readers-strict").trace().loopStart()).isNotNegative();
        }
        RunResult after = run("rwsem-owner", "after", small, "no-spin-on-readers-strict");
        RawTrace t = after.property("no-spin-on-readers-strict").trace();
        List<String> stem = steps(after.model(), t, 0);
        assertThat(stem).contains("reader 0: __down_read: count += 1 = 1");
        assertThat(stem).noneMatch(s -> s.startsWith("reader 0: rwsem_set_reader_owned"));
    }

    @Test
    void kernelMdCountOfSpinsOnReadersExceedsTwoOnlyBefore() {
        RunResult before = run("rwsem-owner", "before", R1W2, "no-spin-on-readers-k2");
        assertThat(before.property("no-spin-on-readers-k2").verdict()).isEqualTo(Verdict.VIOLATED);
        RunResult after = run("rwsem-owner", "after", R1W2, "no-spin-on-readers-k2");
        assertThat(after.property("no-spin-on-readers-k2").verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(after.property("no-spin-on-readers-k2").metric().max()).containsExactly(1L);
    }

    @Test
    void beforeDeclinesToSpinOnAWriterThatHasNotSetOwnerYet() {
        RunResult r = cached("before");
        RawTrace t = r.property("spin-on-running-writer").trace();
        List<String> s = steps(r.model(), t, 0);
        assertThat(s).containsSubsequence(
                "writer 0: __down_write: count += WB+1 = WB+1",
                "writer 1: __down_write: count += WB+1 = 2WB+2",
                "writer 1: rwsem_can_spin_on_owner: load owner = NULL",
                "writer 1: rwsem_can_spin_on_owner: load count = WB+1");
        assertThat(t.length()).isEqualTo(5);
        assertThat(r.property("spin-on-running-writer").message()).contains("returned false");
    }

    @Test
    void theStickyMarkerRefutesReaderOwnedMeansNoWriterOnAfter() {
        RunResult r = cached("after");
        List<String> s = steps(r.model(), r.property("reader-owned-no-writer").trace(), 0);
        assertThat(s).containsSubsequence("reader 0: rwsem_set_reader_owned: owner = READER_OWNED",
                "reader 0: __up_read: count -= 1 = 0", "writer 0: __down_write: count += WB+1 = WB+1");
    }

    @Test
    void metricsBeforeAndAfter() {
        String[] m = {"wasted-spins", "missed-spins"};
        RunResult before = run("rwsem-owner", "before", R1W2, m);
        RunResult after = run("rwsem-owner", "after", R1W2, m);
        assertThat(before.property("wasted-spins").metric().max()).containsExactly(3L, 3L);
        assertThat(after.property("wasted-spins").metric().max()).containsExactly(3L, 1L);
        assertThat(before.property("missed-spins").metric().max()).containsExactly(1L, 0L);
        assertThat(after.property("missed-spins").metric().max()).containsExactly(0L, 1L);
    }

    @ParameterizedTest(name = "{0} breaks {1}")
    @CsvSource({
        "mutant-early-release, owner-sound, 0",
        "mutant-no-reader-owned, no-spin-on-readers, 0",
        "mutant-trylock-ignores-readers, exclusion, 0",
        "mutant-up-read-no-wake, deadlock-free, 1"})
    void eachPropertyCatchesItsSeededMutant(String mutant, String property, int rounds) {
        RunResult r = run("rwsem-owner", mutant, params("readers", "1", "writers", "2", "rounds", "" + rounds), property);
        assertThat(r.property(property).verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.property(property).trace()).isNotNull();
        RunResult ok = run("rwsem-owner", mutant.equals("mutant-up-read-no-wake") ? "before" : "after",
                params("readers", "1", "writers", "2", "rounds", "" + rounds), property);
        assertThat(ok.property(property).verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void rtSpinnersStopOnANullOwnerSoBeforeNoLongerSpinsForever() {
        RunResult r = run("rwsem-owner", "before", params("readers", "1", "writers", "2", "rt", "all"), "no-spin-on-readers");
        assertThat(r.property("no-spin-on-readers").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void symmetryReductionsKeepEveryVerdictAndMaximum() {
        String[] safety = {"exclusion", "owner-sound", "spin-on-running-writer", "missed-spins", "reader-owned-no-writer"};
        String[] progress = {"no-spin-on-readers", "no-spin-on-readers-strict"};
        for (String v : List.of("before", "after")) {
            compareReductions(Checks.model("rwsem-owner", v, R1W2, safety), safety);
            compareReductions(Checks.model("rwsem-owner", v, R1W2, progress), progress);
        }
    }

    private static void compareReductions(Model m, String[] props) {
        RunResult on = Engine.check(m, Options.defaults().withWorkers(2));
        RunResult off = Engine.check(m, Options.defaults().withWorkers(2).withReductions(false));
        for (String p : props) {
            assertThat(on.property(p).verdict()).as(m.variant() + " " + p).isEqualTo(off.property(p).verdict());
            if (on.property(p).metric() != null) {
                assertThat(on.property(p).metric().max()).isEqualTo(off.property(p).metric().max());
            }
        }
        assertThat(on.stats().states()).isLessThan(off.stats().states());
    }

    @Test
    void anRtFlagForAWriterThatDoesNotExistIsAnInputError() {
        assertThatThrownBy(() -> Checks.model("rwsem-owner", "after", params("writers", "2", "rt", "w2"), "exclusion"))
                .isInstanceOf(ModelInputException.class).hasMessage("rwsem-owner: parameter 'rt' names writer 2 but writers=2");
    }
}
