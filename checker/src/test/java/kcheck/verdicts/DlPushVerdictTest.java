package kcheck.verdicts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.PropertyInfo;

/** The verdicts of dl-push (docs/models/dl-push.md), computed by the engine at small bounds. */
class DlPushVerdictTest {
    private static final ModelFactory F = Models.get("dl-push");
    private static final Set<String> ALL = F.properties().stream().map(PropertyInfo::id).collect(Collectors.toSet());

    private static RunResult run(String variant, String... kv) {
        Map<String, String> p = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            p.put(kv[i], kv[i + 1]);
        }
        Model m = F.create(variant, F.params(p), ALL);
        RunResult r = Engine.check(m, Options.defaults());
        assertThat(r.stats().complete()).as("%s %s searched to the end", variant, p).isTrue();
        return r;
    }

    private static List<String> violated(RunResult r) {
        return ALL.stream().filter(id -> r.property(id).verdict() == Verdict.VIOLATED).sorted().toList();
    }

    private static List<String> labels(String variant, PropertyResult r) {
        Model m = F.create(variant, F.params(Map.of()), ALL);
        return IntStream.range(0, r.trace().length())
                .mapToObj(i -> m.describe(r.trace().actors()[i], r.trace().actions()[i]).label()).toList();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"preempt=y events=3", "preempt=n events=3", "preempt=y events=4 cpus=2", "preempt=y events=2 tasks=3"})
    void theFixedRecheckHoldsEveryProperty(String params) {
        String[] kv = params.replace('=', ' ').split(" ");
        assertThat(violated(run("v6.12-fixed", kv))).isEmpty();
    }

    @Test
    void beforeFeffe5bb274dSetTaskCpuWarnsOnAMigrationDisabledTask() {
        RunResult r = run("bug-feffe5bb274d");
        PropertyResult w = r.property("warn-set-task-cpu-migration-disabled");
        assertThat(w.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(labels("bug-feffe5bb274d", w)).contains("t0: migrate_disable()")
                .anyMatch(l -> l.contains("double_lock_balance = 1")).last().asString().startsWith("deactivate_task");
        assertThat(violated(r)).containsExactly("push-moves-pushable-head", "warn-set-task-cpu-migration-disabled");
    }

    @Test
    void v612AsReleasedMovesATaskThatIsNoLongerTheLeftmostPushableOne() {
        RunResult r = run("bug-8fd5485fb4f3");
        assertThat(violated(r)).containsExactly("push-moves-pushable-head");
        assertThat(labels("bug-8fd5485fb4f3", r.property("push-moves-pushable-head")))
                .anyMatch(l -> l.startsWith("try_to_wake_up(")).last().asString().startsWith("deactivate_task");
    }

    @Test
    void withoutCONFIG_PREEMPTIONBothBugsNeedTheTrylockToFail() {
        RunResult feffe = run("bug-feffe5bb274d", "preempt", "n");
        assertThat(feffe.property("warn-set-task-cpu-migration-disabled").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(run("bug-8fd5485fb4f3", "preempt", "n").property("push-moves-pushable-head").verdict()).isEqualTo(Verdict.VIOLATED);
    }

    @Test
    void withoutEnvironmentEventsNothingIsViolated() {
        assertThat(violated(run("bug-feffe5bb274d", "events", "0"))).isEmpty();
        assertThat(violated(run("mutant-no-recheck", "events", "0"))).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "mutant-no-recheck, push-moves-queued-task",
        "mutant-no-recheck, task-on-one-rq",
        "mutant-running-stays-pushable, warn-pushable-current",
        "mutant-running-stays-pushable, warn-push-next-is-curr",
        "mutant-pinned-pushable, warn-pushable-nr-cpus",
        "mutant-pull-keeps-pushable, warn-pushable-task-cpu",
        "mutant-pull-keeps-pushable, warn-pushable-queued",
    })
    void eachSeededMutantIsCaughtByItsProperty(String variant, String property) {
        assertThat(run(variant).property(property).verdict()).isEqualTo(Verdict.VIOLATED);
    }
}
