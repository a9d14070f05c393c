package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import kcheck.model.Model;

/**
 * Initial states go through the same two steps as every successor, whatever the search: the
 * canonical form (several initial states may be one class) and the property checks (an initial
 * state may already violate). Each search enters them on its own path, apart from the expansion
 * of successors, and PIT found that path unchecked in the exact, disk and partitioned searches.
 */
class InitialStatesTest {

    static Stream<Arguments> searches() {
        Options one = Options.defaults().withWorkers(1);
        return Stream.of(
                Arguments.of("bfs, exact store", (Function<Model, RunResult>) m -> Engine.check(m, one)),
                Arguments.of("bfs, two workers", (Function<Model, RunResult>) m -> Engine.check(m, one.withWorkers(2))),
                Arguments.of("bfs, fingerprints", (Function<Model, RunResult>) m -> Engine.check(m, one.withStore(StoreMode.FINGERPRINT))),
                Arguments.of("bfs, disk", (Function<Model, RunResult>) m -> Engine.check(m, one.withStore(StoreMode.DISK))),
                Arguments.of("dfs", (Function<Model, RunResult>) m -> Engine.check(m, one.withStrategy(Strategy.DFS))),
                Arguments.of("3 partitions", (Function<Model, RunResult>) m -> Partitioned.check(m, one, new InMemoryDriver(3))));
    }

    /** Three counters to 4, sorted (a symmetric model), starting from (0,0,0), (0,0,1) and (1,0,0). */
    private static Counters symmetricWithThreeStarts() {
        Counters c = new Counters(3, 4);
        c.symmetric = true;
        c.moreInitial.add(new long[] {0, 0, 1});
        c.moreInitial.add(new long[] {1, 0, 0});
        return c;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("searches")
    void initialStatesOfOneClassAreStoredOnce(String search, Function<Model, RunResult> check) {
        RunResult r = check.apply(symmetricWithThreeStarts().deadlockFree());
        /* the multisets of three values in 0..4: C(7, 3) */
        assertThat(r.stats().states()).isEqualTo(35);
        assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("searches")
    void anInitialStateThatViolatesIsReportedWithAnEmptyTrace(String search, Function<Model, RunResult> check) {
        RunResult r = check.apply(new Counters(3, 4).sumIsNever(0).deadlockFree());
        assertThat(r.property("sum-is-not-0").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.property("sum-is-not-0").trace().length()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("searches")
    void anInitialStateIsMeasuredByTheMetrics(String search, Function<Model, RunResult> check) {
        Counters c = new Counters(2, 1).perCounterMetric();
        c.moreInitial.add(new long[] {5, 0});
        RunResult r = check.apply(c);
        assertThat(r.property("value").metric().max()).containsExactly(5, 1);
    }
}
