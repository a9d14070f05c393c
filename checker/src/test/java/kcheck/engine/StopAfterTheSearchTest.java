package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kcheck.model.Invariant;

/**
 * A run's deadline (its time limit, or a stop asked for by SIGINT/SIGTERM) covers the phases
 * after the search, not only the search: the cycle analysis of progress properties, the second
 * search that makes counterexamples shortest, the minimisation of a random walk's
 * counterexample. Time is a fake clock driven by the model's own steps ({@link HandGraph} counts
 * them), so each case puts the deadline exactly where it wants it, with no waiting.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StopAfterTheSearchTest {

    /** States in the ring: several of the analysis' polling periods (4,096 states). */
    private static final int RING = 20_000;

    /** A ring of non-progress steps: a cycle without progress (VIOLATED) if the analysis ends. */
    private static HandGraph ring() {
        List<int[]> e = new ArrayList<>();
        for (int i = 0; i < RING; i++) {
            e.add(new int[] {i, (i + 1) % RING, 0});
        }
        return new HandGraph(HandGraph.plain(RING), e.toArray(new int[0][]), null, false);
    }

    /**
     * The model's steps since the cycle analysis started (0 before it). The analysis expands states
     * only where the search's edges were not recorded ({@link EdgeLog}): these cases switch the logs
     * off (the fallback, and the clock they drive); {@link #theAnalysisFromTheLogsStopsPartWayThroughTheGraph} stops the logs' path.
     */
    private static LongSupplier stepsInTheAnalysis(HandGraph g) {
        long[] start = {-1};
        g.onAnalysis = () -> start[0] = g.successorCalls.get();
        return () -> start[0] < 0 ? 0 : g.successorCalls.get() - start[0];
    }

    private static ProgressListener stopWhen(Supplier<Boolean> stop) {
        return new ProgressListener() {
            @Override
            public void progress(Progress p) {
            }

            @Override
            public String stopRequested() {
                return stop.get() ? "stop requested" : null;
            }
        };
    }

    @Test
    void theTimeLimitPassingWhileTheCycleGraphIsBuiltLeavesTheProgressPropertyIncomplete() {
        EdgeLog.enabled = false;
        try {
            HandGraph g = ring();
            LongSupplier analysed = stepsInTheAnalysis(g);
            /* one millisecond per state the analysis looks at: 10 s pass half-way through the graph */
            Deadline tenSeconds = new Deadline(Duration.ofSeconds(10), () -> null, () -> TimeUnit.MILLISECONDS.toNanos(analysed.getAsLong()));
            PropertyResult p = Engine.check(g, Options.defaults().withWorkers(1), tenSeconds).property("progress");
            assertThat(p.verdict()).as(p.message()).isEqualTo(Verdict.INCOMPLETE);
            assertThat(p.message()).contains("cycle analysis").contains("time limit 10s");
            assertThat(analysed.getAsLong()).as("states the analysis looked at").isLessThan(RING);
        } finally {
            EdgeLog.enabled = true;
        }
    }

    @Test
    void aStopRequestedOnceTheCycleGraphIsBuiltEndsTheComponentSearch() {
        EdgeLog.enabled = false;
        try {
            HandGraph g = ring();
            LongSupplier analysed = stepsInTheAnalysis(g);
            /* asked for after the last state's steps: only the strongly connected components are left to find */
            Options o = Options.defaults().withWorkers(1).withListener(stopWhen(() -> analysed.getAsLong() >= RING));
            PropertyResult p = Engine.check(g, o).property("progress");
            assertThat(p.verdict()).as(p.message()).isEqualTo(Verdict.INCOMPLETE);
            assertThat(p.message()).contains("cycle analysis").contains("stop requested");
        } finally {
            EdgeLog.enabled = true;
        }
    }

    @Test
    void theAnalysisFromTheLogsStopsPartWayThroughTheGraph() {
        HandGraph g = ring();
        Bfs b = new Bfs(g, Options.defaults().withWorkers(1));
        b.keepEdgeLogs = true;
        b.run();
        assertThat(b.edgeLogs.usable()).isTrue();
        int[] polls = {0};
        class Stop extends RuntimeException {
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> b.edgeLogs.graph(g.properties().stream()
                .filter(p -> p instanceof kcheck.model.Progress).map(p -> (kcheck.model.Progress) p).findFirst().orElseThrow(),
                (int) ((kcheck.engine.store.ExactStore) b.store).idBound(), (kcheck.engine.store.ExactStore) b.store,
                new long[b.w], () -> {
                    if (++polls[0] == 3) {
                        throw new Stop();
                    }
                })).isInstanceOf(Stop.class);
        assertThat(polls[0]).as("polls before the graph was whole: every 4,096 of the ring's 20,000 states").isEqualTo(3);
    }

    @Test
    void aStopRequestedAsTheAnalysisFromTheLogsStartsLeavesTheProgressPropertyIncomplete() {
        HandGraph g = ring();
        boolean[] analysing = {false};
        ProgressListener l = new ProgressListener() {
            @Override
            public void progress(Progress p) {
            }

            @Override
            public void phase(String what) {
                analysing[0] |= what.startsWith("cycle analysis");
            }

            @Override
            public String stopRequested() {
                return analysing[0] ? "stop requested" : null;
            }
        };
        PropertyResult p = Engine.check(g, Options.defaults().withWorkers(1).withListener(l)).property("progress");
        assertThat(analysing[0]).isTrue();
        assertThat(p.verdict()).as(p.message()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(p.message()).contains("cycle analysis").contains("stop requested");
        assertThat(g.successorCalls.get()).as("no state expanded again: the graph came from the logs").isEqualTo(RING);
    }

    /** A chain of {@code n} nodes; the invariant "last" fails at its end. */
    private static HandGraph chain(int n) {
        List<int[]> e = new ArrayList<>();
        for (int i = 0; i + 1 < n; i++) {
            e.add(new int[] {i, i + 1, 0});
        }
        HandGraph g = new HandGraph(HandGraph.plain(n), e.toArray(new int[0][]), null, false);
        long last = g.value(n - 1);
        return g.with(new Invariant("last", "the chain never ends") {
            @Override
            public boolean holds(long[] s) {
                return s[0] != last;
            }
        });
    }

    @Test
    void aStopRequestedOnceTheSearchHasFoundItsViolationEndsTheRunWithoutSearchingAgainForAShorterOne() {
        int n = 5_000;
        HandGraph probe = chain(n);
        new Bfs(probe, Options.defaults().withWorkers(1)).run();
        long search = probe.successorCalls.get();
        HandGraph full = chain(n);
        RunResult unstopped = Engine.check(full, Options.defaults().withWorkers(1));
        assertThat(unstopped.stats().shortestRecheck()).as("without a stop, the violation is searched again").isTrue();

        HandGraph g = chain(n);
        RunResult r = Engine.check(g, Options.defaults().withWorkers(1).withListener(stopWhen(() -> g.successorCalls.get() > search)));
        PropertyResult p = r.property("last");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().length()).isEqualTo(n - 1);
        assertThat(r.stats().shortestRecheck()).as("searched again after the stop").isFalse();
        assertThat(g.successorCalls.get()).as("steps of the run, against %d without the stop", full.successorCalls.get())
                .isLessThan(full.successorCalls.get() - n / 2);
    }

    /** Nodes 0..k, each with a step on (actor 0) and a self-loop (actor 1); "reached" fails at node k. */
    private static HandGraph ladder(int k, boolean[] found) {
        List<int[]> e = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            e.add(new int[] {i, i + 1, 0});
            e.add(new int[] {i, i, 1});
        }
        e.add(new int[] {k, k, 1});
        HandGraph g = new HandGraph(HandGraph.plain(k + 1), e.toArray(new int[0][]), null, false);
        long end = g.value(k);
        return g.with(new Invariant("reached", "node k is never reached") {
            @Override
            public boolean holds(long[] s) {
                found[0] |= s[0] == end;
                return s[0] != end;
            }
        });
    }

    @Test
    void aStopRequestedOnceARandomWalkFindsAViolationReportsItUnminimised() {
        int k = 40;
        Options walk = Options.defaults().withStrategy(Strategy.RANDOM).withSeed(7).withWorkers(1);
        RawTrace minimal = Engine.check(ladder(k, new boolean[1]), walk).property("reached").trace();
        assertThat(minimal.length()).as("minimised: the self-loops go").isEqualTo(k);

        boolean[] found = new boolean[1];
        RunResult r = Engine.check(ladder(k, found), walk.withListener(stopWhen(() -> found[0])));
        PropertyResult p = r.property("reached");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().length()).as("the walk as found, self-loops and all").isGreaterThan(k);
    }

    @Test
    void theTimeLimitPassingWhileOneStatesSuccessorsAreEnumeratedEndsTheSearchWithoutWaitingForTheRest() {
        /* a star: the initial state has FAN successors (as cpudl's cpudl_find steps at --cpus 1024, each
           taking milliseconds): the deadline is polled within one state's enumeration, not only between states */
        int fan = 50_000;
        List<int[]> e = new ArrayList<>();
        for (int i = 1; i <= fan; i++) {
            e.add(new int[] {0, i, 0});
        }
        HandGraph star = new HandGraph(HandGraph.plain(fan + 1), e.toArray(new int[0][]), null, false);
        long[] polls = {0};
        /* one millisecond per poll of the clock: 20 ms pass after a few polls */
        Deadline soon = new Deadline(Duration.ofMillis(20), () -> null, () -> TimeUnit.MILLISECONDS.toNanos(++polls[0]));
        RunResult r = Engine.check(star, Options.defaults().withWorkers(1), soon);
        assertThat(r.stats().complete()).isFalse();
        assertThat(r.properties()).allSatisfy(p -> assertThat(p.verdict()).isNotEqualTo(Verdict.HOLDS));
        assertThat(r.stats().states()).as("states stored before the search stopped").isLessThan(fan / 10);
    }

    @Test
    void aMetricsWitnessIsNotRebuiltOnceTheDeadlineHasPassedButItsMaximumIsReported() {
        int fan = 50_000;
        List<int[]> e = new ArrayList<>();
        for (int i = 1; i <= fan; i++) {
            e.add(new int[] {0, i, 0});
        }
        HandGraph star = new HandGraph(HandGraph.plain(fan + 1), e.toArray(new int[0][]), null, false)
                .with(new kcheck.model.Metric("value", "the node's value") {
                    @Override
                    public long value(long[] s, int c) {
                        return s[0];
                    }
                });
        long[] polls = {0};
        Deadline soon = new Deadline(Duration.ofMillis(20), () -> null, () -> TimeUnit.MILLISECONDS.toNanos(++polls[0]));
        PropertyResult p = Engine.check(star, Options.defaults().withWorkers(1), soon).property("value");
        assertThat(p.verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(p.metric().max()[0]).as("the maximum so far").isPositive();
        assertThat(p.metric().witnesses()[0]).as("the witness, once the deadline has passed").isNull();

        PropertyResult unlimited = Engine.check(star, Options.defaults().withWorkers(1)).property("value");
        assertThat(unlimited.metric().witnesses()[0]).as("the witness of a run within its limit").isNotNull();
    }
}
