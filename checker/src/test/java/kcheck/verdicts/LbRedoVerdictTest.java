package kcheck.verdicts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.ModelInputException;
import kcheck.model.Models;
import kcheck.model.PropertyInfo;
import kcheck.model.StepInfo;

/** The verdicts of docs/spec.md section 4 (lb-redo), the seeded mutants, the race trace and the redo metrics. */
class LbRedoVerdictTest {
    private static final ModelFactory F = Models.get("lb-redo");

    /** docs/spec.md section 4: property -> expected verdict for before, rfc, after. */
    private static final Map<String, Verdict[]> EXPECTED = Map.of(
            "terminates", new Verdict[] {Verdict.HOLDS, Verdict.HOLDS, Verdict.HOLDS},
            "call-returns", new Verdict[] {Verdict.HOLDS, Verdict.HOLDS, Verdict.HOLDS},
            "all-pinned-sound", new Verdict[] {Verdict.VIOLATED, Verdict.VIOLATED, Verdict.HOLDS},
            "no-spurious-redo", new Verdict[] {Verdict.VIOLATED, Verdict.HOLDS, Verdict.HOLDS},
            "pinned-redo-kept", new Verdict[] {Verdict.HOLDS, Verdict.VIOLATED, Verdict.HOLDS});
    private static final List<String> VARIANTS = List.of("before", "rfc", "after");

    private static Map<String, String> params(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static RunResult run(String variant, Map<String, String> params, boolean reductions, String... props) {
        Set<String> selected = props.length > 0 ? Set.of(props)
                : F.properties().stream().filter(p -> !p.optIn()).map(PropertyInfo::id).collect(Collectors.toSet());
        Model m = F.create(variant, F.params(params), selected);
        return Engine.check(m, Options.defaults().withReductions(reductions));
    }

    private static RunResult run(String variant, Map<String, String> params, String... props) {
        return run(variant, params, true, props);
    }

    private static List<String> labels(Model m, PropertyResult r) {
        return IntStream.range(0, r.trace().length())
                .mapToObj(i -> m.describe(r.trace().actors()[i], r.trace().actions()[i]).label()).toList();
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 6})
    void everyVariantGivesTheVerdictsOfKernelMd(int cpus) {
        for (int v = 0; v < VARIANTS.size(); v++) {
            RunResult r = run(VARIANTS.get(v), params("cpus", Integer.toString(cpus)));
            assertThat(r.stats().complete()).isTrue();
            for (Map.Entry<String, Verdict[]> e : EXPECTED.entrySet()) {
                assertThat(r.property(e.getKey()).verdict())
                        .as(VARIANTS.get(v) + " / " + e.getKey() + " at " + cpus + " CPUs").isEqualTo(e.getValue()[v]);
            }
            for (String metric : List.of("redos", "stat-passes", "spurious-redos", "stat-work")) {
                assertThat(r.property(metric).verdict()).isEqualTo(Verdict.HOLDS);
            }
        }
    }

    @Test
    void beforeRaceIsBusiestWithTwoTasksThenAPullThenAnEmptyDetachThenRedo() {
        RunResult r = run("before", params("scenario", "race"), "no-spurious-redo");
        PropertyResult p = r.property("no-spurious-redo");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().actors()).containsExactly(0, 0, 1, 0, 0);
        List<String> labels = labels(r.model(), p);
        assertThat(labels.get(0)).startsWith("load_balance: find_busiest_queue = CPU ");
        assertThat(labels.get(1)).isEqualTo("busiest->nr_running = 2 (unlocked)");
        assertThat(labels.get(2)).startsWith("pull t");
        assertThat(labels.get(3)).contains("detach_tasks");
        assertThat(labels.get(4)).isEqualTo("goto redo");
        assertThat(p.message()).contains("no task of busiest was examined");
    }

    @Test
    void afterVariantRefusesTheRaceRedoThatBeforeTakes() {
        RunResult before = run("before", params("scenario", "race", "cpus", "6", "pulls", "2"), "redos", "spurious-redos");
        RunResult after = run("after", params("scenario", "race", "cpus", "6", "pulls", "2"), "redos", "spurious-redos");
        assertThat(before.property("spurious-redos").metric().overall()).isEqualTo(2);
        assertThat(after.property("redos").metric().overall()).isZero();
    }

    @Test
    void rfcAsPostedReturnsAtTheFirstAllPinnedBusiestAlthoughAnotherCpuHasAMovableTask() {
        RunResult r = run("rfc", params("scenario", "pinned"), "pinned-redo-kept", "redos");
        PropertyResult p = r.property("pinned-redo-kept");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        List<String> labels = labels(r.model(), p);
        assertThat(labels.get(labels.size() - 1)).isEqualTo("goto out_all_pinned");
        assertThat(r.property("redos").metric().overall()).isZero();
        StepInfo last = r.model().describe(0, p.trace().actions()[p.trace().length() - 1]);
        assertThat(last.kernelFunction()).contains("RFC");
    }

    @Test
    void mutantKeepingBusiestInCpusBreaksTerminates() {
        RunResult r = run("mutant-keeps-busiest", params("scenario", "pinned"), "terminates");
        assertThat(r.property("terminates").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.property("terminates").message()).contains("more than |cpus0 \\ local group| - 1 = 1");
    }

    @Test
    void mutantKeepingBusiestInCpusLoopsForEverThroughRedo() {
        RunResult r = run("mutant-keeps-busiest", params("scenario", "pinned"), "call-returns");
        PropertyResult p = r.property("call-returns");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().loopStart()).isGreaterThanOrEqualTo(0);
        List<String> labels = labels(r.model(), p);
        assertThat(labels.subList(p.trace().loopStart(), labels.size())).contains("goto redo")
                .anyMatch(l -> l.startsWith("redo: find_busiest_queue = CPU"));
    }

    @Test
    void mutantWithoutLoopResetBreaksAllPinnedSoundAndNoSpuriousRedoWithoutAnyRace() {
        RunResult four = run("mutant-no-loop-reset", params("scenario", "pinned", "cpus", "4"),
                "all-pinned-sound", "no-spurious-redo");
        assertThat(four.property("all-pinned-sound").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(four.property("no-spurious-redo").verdict()).as("one redo at most: the spurious pass is the last")
                .isEqualTo(Verdict.HOLDS);
        RunResult six = run("mutant-no-loop-reset", params("scenario", "pinned", "cpus", "6"), "no-spurious-redo");
        assertThat(six.property("no-spurious-redo").verdict()).isEqualTo(Verdict.VIOLATED);
    }

    @ParameterizedTest
    @CsvSource({"4,2", "6,2", "8,2", "6,3", "8,8"})
    void pinnedChainsRedoUpToTheCpusOutsideTheLocalGroupMinusOneExceptInTheRfc(int cpus, int groups) {
        int local = (cpus + groups - 1) / groups;
        int bound = cpus - local - 1;
        for (String v : VARIANTS) {
            RunResult r = run(v, params("scenario", "pinned", "cpus", Integer.toString(cpus), "groups",
                    Integer.toString(groups)), "terminates", "redos", "stat-passes");
            assertThat(r.property("terminates").verdict()).isEqualTo(Verdict.HOLDS);
            long redos = r.property("redos").metric().overall();
            assertThat(redos).as(v).isEqualTo(v.equals("rfc") ? 0 : bound);
            assertThat(redos).as("|cpus0| - 1 is not reached").isLessThan(cpus - 1);
            assertThat(r.property("stat-passes").metric().overall()).isEqualTo(redos + 1);
        }
    }

    @ParameterizedTest
    @CsvSource({"8,1", "8,2", "8,3", "8,5"})
    void raceRedoesAtMostOncePerPullUpToTheBoundBeforeTheFixAndNeverAfter(int cpus, int pulls) {
        int bound = cpus / 2 - 1;
        Map<String, String> p = params("scenario", "race", "cpus", Integer.toString(cpus), "pulls", Integer.toString(pulls));
        for (String v : VARIANTS) {
            RunResult r = run(v, p, "redos", "spurious-redos", "stat-passes");
            long expected = v.equals("before") ? Math.min(pulls, bound) : 0;
            assertThat(r.property("redos").metric().overall()).as(v).isEqualTo(expected);
            assertThat(r.property("spurious-redos").metric().overall()).as(v).isEqualTo(expected);
            assertThat(r.property("stat-passes").metric().overall()).as(v).isEqualTo(expected + 1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"before", "rfc", "after", "mutant-keeps-busiest", "mutant-no-loop-reset"})
    void symmetryReductionChangesNoVerdictAndNoMaximum(String variant) {
        Map<String, String> p = params("cpus", "7", "groups", "3", "pulls", "2");
        RunResult reduced = run(variant, p, true);
        RunResult full = run(variant, p, false);
        assertThat(reduced.stats().states()).isLessThan(full.stats().states());
        for (PropertyResult r : full.properties()) {
            PropertyResult q = reduced.property(r.id());
            assertThat(q.verdict()).as(r.id()).isEqualTo(r.verdict());
            if (r.trace() != null) {
                assertThat(q.trace().length()).as(r.id()).isEqualTo(r.trace().length());
            }
            if (r.metric() != null) {
                assertThat(q.metric().max()).as(r.id()).containsExactly(r.metric().max());
            }
        }
    }

    /**
     * The new dimensions (topology, idle, masks, nr-migrate, nr-migrate-break) keep their defaults'
     * state spaces: distinct states and transitions as measured on the build before them (commit
     * f579743), with every default property selected; {@code hot=none zero-imbalance=off} (no cache-hot task and imbalance always one task, the
     * model before issue 30; the default {@code hot=some} adds the environment's task_hot choice)
     * and the kernel-check properties (which trip on no fixed port) keep them too.
     */
    @ParameterizedTest
    @CsvSource({"before, 4, 2, all, 199, 270", "rfc, 4, 2, all, 140, 205", "after, 4, 2, all, 165, 236",
        "before, 6, 2, all, 814, 1221", "rfc, 6, 2, all, 456, 771", "after, 6, 2, all, 620, 1007",
        "before, 8, 8, pinned, 6336, 9247", "rfc, 8, 8, pinned, 2851, 4369", "mutant-keeps-busiest, 6, 2, all, 2149, 3332"})
    void theDefaultsOfTheNewDimensionsKeepTheStateCountsOfBefore(String variant, int cpus, int groups, String scenario,
                                                                 long states, long transitions) {
        RunResult r = run(variant, params("cpus", Integer.toString(cpus), "groups", Integer.toString(groups),
                "scenario", scenario, "hot", "none", "zero-imbalance", "off"));
        assertThat(r.stats().complete()).isTrue();
        assertThat(r.stats().states()).isEqualTo(states);
        assertThat(r.stats().transitions()).isEqualTo(transitions);
    }

    @Test
    void badParameterCombinationsAreOneLineInputErrors() {
        assertThatThrownBy(() -> F.create("after", F.params(params("cpus", "4", "groups", "5")), Set.of("terminates")))
                .isInstanceOf(ModelInputException.class).hasMessageContaining("groups");
        assertThatThrownBy(() -> F.create("after", F.params(params("scenario", "pinned", "pulls", "1")), Set.of("terminates")))
                .isInstanceOf(ModelInputException.class).hasMessageContaining("scenario=pinned has no concurrent pulls");
        assertThatThrownBy(() -> F.params(params("pulls", "many"))).isInstanceOf(ModelInputException.class);
    }
}
