package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.engine.store.ExactStore;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.Progress;
import kcheck.model.Property;

/**
 * The non-progress graph built in parts, by several threads, is the graph one thread builds, edge
 * for edge (targets, ordinals, step classes, owed classes), on real models with plain and fair
 * progress properties; and the verdicts and stems of a search with two workers, which builds its
 * graphs in parallel (here from 1,000 states), are those of one.
 */
class NonProgressGraphTest {

    private static Bfs searched(String model, String variant, Map<String, String> params, Set<String> props, int workers) {
        ModelFactory f = Models.get(model);
        Model m = f.create(variant, f.params(params), props);
        Bfs b = new Bfs(m, Options.defaults().withWorkers(workers));
        b.run();
        return b;
    }

    /** {@code a} is {@code b} edge for edge: targets, ordinals and, if {@code fair}, step classes and owed classes. */
    static void assertSameGraph(NonProgressGraph a, NonProgressGraph b, boolean fair, String what) {
        assertThat(a.edges).as("%s: edges", what).isEqualTo(b.edges);
        assertThat(a.offset).as(what).isEqualTo(b.offset);
        assertThat(Arrays.copyOf(a.target, a.edges)).as(what).isEqualTo(Arrays.copyOf(b.target, b.edges));
        assertThat(Arrays.copyOf(a.ordinal, a.edges)).as(what).isEqualTo(Arrays.copyOf(b.ordinal, b.edges));
        if (fair) {
            assertThat(Arrays.copyOf(a.cls, a.edges)).as(what).isEqualTo(Arrays.copyOf(b.cls, b.edges));
            assertThat(a.owed).as(what).isEqualTo(b.owed);
        }
    }

    private static void assertSameGraphs(String model, String variant, Map<String, String> params, Set<String> props) {
        Bfs b = searched(model, variant, params, props, 1);
        ExactStore store = (ExactStore) b.store;
        int n = (int) store.idBound();
        int progressChecked = 0;
        for (Property p : b.model.properties()) {
            if (!(p instanceof Progress pr)) {
                continue;
            }
            progressChecked++;
            NonProgressGraph one = NonProgressGraph.buildInParts(b, store, pr, n, 1, () -> { });
            for (int parts : new int[] {2, 3, 7}) {
                NonProgressGraph many = NonProgressGraph.buildInParts(b, store, pr, n, parts, () -> { });
                assertSameGraph(many, one, pr.fair(), String.format("%s %s, %d parts", variant, p.id(), parts));
            }
        }
        assertThat(progressChecked).as("progress properties of %s %s", model, variant).isPositive();
    }

    @Test
    void rwsemFairAndPlainProgressGraphsBuiltInPartsAreTheOneThreadGraphs() {
        assertSameGraphs("rwsem-owner", "v6.12", Map.of("readers", "1", "writers", "2"),
                Set.of("no-spin-on-readers", "no-writer-starvation", "no-spin-on-preempted-owner"));
    }

    @Test
    void rqLockStarvationGraphsBuiltInPartsAreTheOneThreadGraphs() {
        assertSameGraphs("rq-lock", "after", Map.of("cpus", "2", "lock", "qspinlock"), Set.of("starvation-free"));
    }

    @Test
    void twoWorkersBuildingTheGraphInParallelGiveOneWorkersVerdictsAndLassos() {
        Map<String, String> params = Map.of("readers", "1", "writers", "2");
        Set<String> props = Set.of("no-spin-on-readers", "no-writer-starvation", "no-spin-on-preempted-owner");
        ModelFactory f = Models.get("rwsem-owner");
        RunResult one = Engine.check(f.create("mutant-no-reader-owned", f.params(params), props), Options.defaults().withWorkers(1));
        RunResult two;
        NonProgressGraph.parallelMinStates = 1_000;
        try {
            two = Engine.check(f.create("mutant-no-reader-owned", f.params(params), props), Options.defaults().withWorkers(2));
        } finally {
            NonProgressGraph.parallelMinStates = NonProgressGraph.PARALLEL_MIN_STATES;
        }
        assertThat(one.stats().states()).isGreaterThan(1_000);
        for (String p : props) {
            PropertyResult a = one.property(p);
            PropertyResult b = two.property(p);
            assertThat(b.verdict()).as(p).isEqualTo(a.verdict());
            if (a.trace() != null) {
                /* ids differ between the runs, so a cycle entered at the same depth may be another one: the stems agree */
                assertThat(b.trace().loopStart()).as(p).isEqualTo(a.trace().loopStart());
            }
        }
    }
}
