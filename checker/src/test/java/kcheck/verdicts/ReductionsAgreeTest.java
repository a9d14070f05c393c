package kcheck.verdicts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.gate.Baseline;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;

/**
 * Every reduction is sound on every model: for each (model, variant, quick bounds) of the
 * baseline, the verdict of every property, the metric maxima and the shortest counterexample
 * lengths are the same with all reductions, without partial-order reduction, and with none. And
 * the parallel search is the sequential one: 2 workers give the same distinct-state count and the
 * same verdicts, maxima and shortest-trace lengths as 1.
 */
class ReductionsAgreeTest {
    static final boolean FULL = Boolean.getBoolean("kcheck.reductions.full");
    static final long CAP = 400_000;

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
        return groups.entrySet().stream().map(g -> DynamicTest.dynamicTest(g.getKey(), () -> {
            Baseline.Entry e = first.get(g.getKey());
            ModelFactory f = Models.get(e.model());
            Model m = f.create(e.variant(), f.params(e.effectiveParams(true)), g.getValue());
            Options base = Options.defaults().withWorkers(1);
            RunResult all = Engine.check(m, FULL ? base : base.withMaxStates(CAP));
            // four searches of a group over CAP states take minutes: the default build leaves them to -Dkcheck.reductions.full=true
            Assumptions.assumeTrue(FULL || all.stats().complete() || all.properties().stream().allMatch(p -> p.verdict() == kcheck.engine.Verdict.VIOLATED),
                    () -> g.getKey() + ": over " + CAP + " states at quick bounds; checked with -Dkcheck.reductions.full=true");
            RunResult noPor = Engine.check(m, base.withPartialOrder(false));
            RunResult none = Engine.check(m, base.withReductions(false));
            RunResult twoWorkers = Engine.check(m, base.withWorkers(2));
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
        }));
    }
}
