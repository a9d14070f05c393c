package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.engine.store.ExactStore;
import kcheck.engine.store.MemoryBudget;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.Progress;
import kcheck.model.Property;

/**
 * The graphs the cycle analysis takes from the edges a search recorded are the graphs it builds by
 * expanding every state again, edge for edge, on one worker and two; the verdicts and lassos are the
 * same with the logs and without; logs that do not fit half the budget, or that a store needs the
 * memory of, are dropped and the analysis rebuilds.
 */
class EdgeLogTest {

    private static Model model(String model, String variant, Map<String, String> params, Set<String> props) {
        ModelFactory f = Models.get(model);
        return f.create(variant, f.params(params), props);
    }

    private static void assertLoggedGraphsAreRebuiltGraphs(String model, String variant, Map<String, String> params,
            Set<String> props, int workers) {
        Bfs b = new Bfs(model(model, variant, params, props), Options.defaults().withWorkers(workers));
        b.keepEdgeLogs = true;
        b.run();
        assertThat(b.edgeLogs).as("logs recorded").isNotNull();
        assertThat(b.edgeLogs.usable()).as("logs kept to the end").isTrue();
        ExactStore store = (ExactStore) b.store;
        int n = (int) store.idBound();
        int checked = 0;
        for (Property p : b.model.properties()) {
            if (!(p instanceof Progress pr)) {
                continue;
            }
            checked++;
            NonProgressGraph rebuilt = NonProgressGraph.buildInParts(b, store, pr, n, 1, () -> { });
            NonProgressGraph logged = b.edgeLogs.graph(pr, n, store, new long[b.w], () -> { });
            String what = variant + " " + p.id() + ", " + workers + " workers";
            assertThat(logged.edges).as("%s: edges", what).isPositive();
            NonProgressGraphTest.assertSameGraph(logged, rebuilt, pr.fair(), what);
        }
        assertThat(checked).isPositive();
    }

    @Test
    void rwsemPlainAndFairGraphsFromTheLogsAreTheRebuiltGraphsOnOneWorkerAndTwo() {
        Set<String> props = Set.of("no-spin-on-readers", "no-writer-starvation", "sleeping-writer-woken",
                "no-spin-on-preempted-owner");
        for (int workers : new int[] {1, 2}) {
            assertLoggedGraphsAreRebuiltGraphs("rwsem-owner", "v6.12", Map.of("readers", "1", "writers", "2"), props, workers);
        }
    }

    @Test
    void rqLockStarvationGraphFromTheLogsIsTheRebuiltGraph() {
        assertLoggedGraphsAreRebuiltGraphs("rq-lock", "after", Map.of("cpus", "2", "lock", "qspinlock"),
                Set.of("starvation-free"), 2);
    }

    @Test
    void verdictsAndLassosAreTheSameWithTheLogsAndWithout() {
        Map<String, String> params = Map.of("readers", "1", "writers", "2");
        Set<String> props = Set.of("no-spin-on-readers", "no-writer-starvation", "no-spin-on-preempted-owner", "exclusion");
        for (String variant : new String[] {"mutant-no-reader-owned", "v6.12", "mutant-no-handoff-request"}) {
            RunResult logged = Engine.check(model("rwsem-owner", variant, params, props), Options.defaults().withWorkers(1));
            RunResult rebuilt;
            EdgeLog.enabled = false;
            try {
                rebuilt = Engine.check(model("rwsem-owner", variant, params, props), Options.defaults().withWorkers(1));
            } finally {
                EdgeLog.enabled = true;
            }
            assertThat(logged.stats().states()).isEqualTo(rebuilt.stats().states());
            for (String p : props) {
                PropertyResult a = logged.property(p);
                PropertyResult b = rebuilt.property(p);
                assertThat(a.verdict()).as("%s %s", variant, p).isEqualTo(b.verdict());
                assertThat(a.message()).as("%s %s", variant, p).isEqualTo(b.message());
                if (b.trace() != null) {
                    assertThat(a.trace().loopStart()).as("%s %s", variant, p).isEqualTo(b.trace().loopStart());
                    assertThat(a.trace().length()).as("%s %s", variant, p).isEqualTo(b.trace().length());
                }
            }
        }
    }

    @Test
    void logsThatDoNotFitHalfTheBudgetAreDroppedAndTheAnalysisRebuildsWithTheSameVerdicts() {
        Set<String> props = Set.of("no-writer-starvation", "no-spin-on-preempted-owner");
        Map<String, String> params = Map.of("readers", "1", "writers", "2");
        /* 30 MB: the store fits, but a chunk of edges (10 MB) and one of rows (8 MB) pass half of it */
        Bfs b = new Bfs(model("rwsem-owner", "mutant-no-reader-owned", params, props),
                Options.defaults().withWorkers(1).withMemoryBytes(30L << 20));
        b.keepEdgeLogs = true;
        RunResult small = b.run();
        assertThat(b.edgeLogs.usable()).isFalse();
        RunResult big = Engine.check(model("rwsem-owner", "mutant-no-reader-owned", params, props), Options.defaults().withWorkers(1));
        assertThat(small.stats().complete()).isTrue();
        for (String p : props) {
            assertThat(small.property(p).verdict()).as(p).isEqualTo(big.property(p).verdict());
        }
    }

    @Test
    void aStoresRefusedReservationDropsTheLogsAndIsGrantedTheirMemory() {
        long mb = 1L << 20;
        MemoryBudget budget = new MemoryBudget(100 * mb);
        Checks checks = new Checks(model("rwsem-owner", "v6.12", Map.of("readers", "1", "writers", "1"),
                Set.of("no-spin-on-readers")));
        EdgeLog.Set logs = new EdgeLog.Set(checks.progress, budget);
        EdgeLog log = logs.part();
        assertThat(log.row(0)).isTrue();
        assertThat(log.edge(1, 0, 0)).isTrue();
        long held = budget.used();
        assertThat(held).as("a chunk of rows and one of edges").isGreaterThan(10 * mb);
        assertThat(budget.reserve(95 * mb)).as("granted once the logs gave their memory back").isTrue();
        assertThat(logs.usable()).isFalse();
        assertThat(budget.used()).isEqualTo(95 * mb);
        assertThat(log.row(1)).as("the worker stops logging").isFalse();
        assertThat(budget.reserve(10 * mb)).as("no reclaimer left: refused").isFalse();
    }
}
