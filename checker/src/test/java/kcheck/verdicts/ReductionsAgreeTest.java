package kcheck.verdicts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.gate.Baseline;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;

/**
 * Every reduction is sound on every model: for each (model, variant, quick bounds) of the
 * baseline, the verdict of every property, the metric maxima and the shortest counterexample
 * lengths are the same with all reductions, without partial-order reduction, and with none. And
 * the parallel search is the sequential one: 2 workers give the same distinct-state count and the
 * same verdicts, maxima and shortest-trace lengths as 1. The default build takes every eighth
 * baseline group ({@code -Dkcheck.long=true}, as .ci/run's long tests: all of them), checks those decided
 * within {@link #CAP} states and prints one line naming the others, which
 * {@code -Dkcheck.reductions.full=true} adds.
 */
class ReductionsAgreeTest {
    static final boolean FULL = Boolean.getBoolean("kcheck.reductions.full");
    /** -Dkcheck.long=true (.ci/run's long tests): every group decided within {@link #CAP}; the default build every eighth. */
    static final boolean LONG = Boolean.getBoolean("kcheck.long");
    /** 50,000 states in the default build; 400,000 in the long tests. */
    static final long CAP = LONG ? 400_000 : 50_000;
    private static final Options BASE = Options.defaults().withWorkers(1);

    /** A baseline search: its name, its model, and the search with every reduction (null: run it in the test). */
    record Group(String name, Model model, RunResult all) {
    }

    @TestFactory
    Stream<DynamicTest> everyModelGivesTheSameVerdictsWithAndWithoutEachReduction() {
        Baseline b = Baseline.read(Path.of("..", "kcheck-baseline.json"));
        Map<String, Set<String>> groups = new LinkedHashMap<>();
        Map<String, Baseline.Entry> first = new LinkedHashMap<>();
        for (Baseline.Entry e : b.entries()) {
            String key = e.model() + " " + e.variant() + " " + e.effectiveParams(true);
            groups.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(e.property());
            first.putIfAbsent(key, e);
        }
        /* the default build: every eighth group in baseline order (all four models stay covered); models built only for those */
        int stride = FULL || LONG ? 1 : 8;
        List<Group> all = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, Set<String>> g : groups.entrySet()) {
            if (i++ % stride != 0) {
                continue;
            }
            Baseline.Entry e = first.get(g.getKey());
            ModelFactory f = Models.get(e.model());
            all.add(new Group(g.getKey(), f.create(e.variant(), f.params(e.effectiveParams(true)), g.getValue()), null));
        }
        if (stride > 1) {
            System.out.println("[reductions agree] the default build takes every eighth baseline group, " + all.size() + " of "
                    + groups.size() + "; -Dkcheck.long=true takes all");
        }
        List<Group> chosen = FULL ? all : quick(all);
        return chosen.stream().map(g -> DynamicTest.dynamicTest(g.name(), () -> agree(g)));
    }

    /**
     * The groups the default build checks, chosen up front: those decided within {@link #CAP} states
     * (exhaustive, or every property violated). Four searches of a larger group take minutes, so
     * -Dkcheck.reductions.full=true adds them; one printed line names them.
     */
    static List<Group> quick(List<Group> all) {
        List<Group> quick = new ArrayList<>();
        List<String> more = new ArrayList<>();
        for (Group g : all) {
            RunResult capped = Engine.check(g.model(), BASE.withMaxStates(CAP));
            boolean decided = capped.stats().complete() || capped.properties().stream().allMatch(p -> p.verdict() == Verdict.VIOLATED);
            if (decided) {
                quick.add(new Group(g.name(), g.model(), capped));
            } else {
                more.add(g.name());
            }
        }
        System.out.println("[reductions agree] " + quick.size() + " of " + all.size() + " baseline groups at quick bounds; "
                + "-Dkcheck.reductions.full=true adds the " + more.size() + " over " + CAP + " states: " + String.join("; ", more));
        return quick;
    }

    static void agree(Group g) {
        Model m = g.model();
        RunResult all = g.all() != null ? g.all() : Engine.check(m, BASE);
        RunResult noPor = Engine.check(m, BASE.withPartialOrder(false));
        RunResult none = Engine.check(m, BASE.withReductions(false));
        RunResult twoWorkers = Engine.check(m, BASE.withWorkers(2));
        // a cyclic model's partial-order proviso depends on which worker stores a state first (docs/cluster.md)
        if (all.stats().complete() && !Engine.countDependsOnOrder(m)) {
            assertThat(twoWorkers.stats().states()).as("states with 2 workers").isEqualTo(all.stats().states());
        }
        for (RunResult r : new RunResult[] {noPor, none, twoWorkers}) {
            for (PropertyResult p : all.properties()) {
                PropertyResult q = r.property(p.id());
                assertThat(q.verdict()).as(p.id()).isEqualTo(p.verdict());
                if (p.metric() != null) {
                    assertThat(q.metric().max()).as(p.id() + " maxima").isEqualTo(p.metric().max());
                }
                if (p.trace() != null && p.trace().loopStart() < 0) {
                    assertThat(q.trace().length()).as(p.id() + " shortest trace").isEqualTo(p.trace().length());
                }
            }
        }
        assertThat(all.stats().states()).isLessThanOrEqualTo(none.stats().states());
    }
}
