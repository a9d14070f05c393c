package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The lasso behind a progress violation, on hand-drawn graphs ({@link HandGraph}) whose store ids
 * are chosen: which cycle is reported (the one entered nearest the start, ties to the lower id),
 * where it is entered, and that its steps are exactly the graph's, in order, back to where it
 * started. Many cases put the state with id 0, or two neighbouring ids, at the spot where an
 * off-by-one in the analysis would show. (PIT found these behaviours unchecked.)
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProgressLassoTest {

    private static final int PROGRESS = 1;

    /** Asserts a violation whose trace visits {@code nodes} and loops back to {@code nodes[loopStart]}. */
    private static void assertLasso(HandGraph g, int loopStart, Integer... nodes) {
        PropertyResult p = g.check();
        assertThat(p.verdict()).as(p.message()).isEqualTo(Verdict.VIOLATED);
        RawTrace t = p.trace();
        assertThat(g.nodes(t)).containsExactly(nodes);
        assertThat(t.loopStart()).isEqualTo(loopStart);
        assertThat(t.states().get(t.length())).containsExactly(t.states().get(t.loopStart()));
    }

    // ---- unfair progress: any cycle without progress ----

    @Test
    void aSelfLoopAtTheStateWithIdZeroIsACycle() {
        /* node 0 (id 5) -> node 1 (id 0), which loops */
        HandGraph g = new HandGraph(HandGraph.ids(5, 0), new int[][] {{0, 1, 0}, {1, 1, 0}}, null, false);
        assertLasso(g, 1, 0, 1, 1);
    }

    @Test
    void aStepIntoTheTwinOfAStoredStateIsAnEdgeOfTheGraph() {
        /* 0 -> 2, a twin of 1 (canonical form 1), and 1 -> 0: the cycle is 0 -> 1 -> 0 */
        HandGraph g = new HandGraph(HandGraph.plain(3), new int[][] {{0, 2, 0}, {1, 0, 0}, {2, 0, 0}}, null, false,
                new int[] {0, 1, 1});
        PropertyResult p = g.check();
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().length() - p.trace().loopStart()).isEqualTo(2);
    }

    @Test
    void aStopRequestedAsTheCycleAnalysisStartsLeavesAnUnfairPropertyIncomplete() {
        HandGraph g = new HandGraph(HandGraph.plain(2), new int[][] {{0, 1, 0}, {1, 0, 0}}, null, false);
        boolean[] analysing = new boolean[1];
        g.onAnalysis = () -> analysing[0] = true;
        ProgressListener stop = new ProgressListener() {
            @Override
            public void progress(ProgressListener.Progress p) {
            }

            @Override
            public String stopRequested() {
                return analysing[0] ? "stop requested" : null;
            }
        };
        PropertyResult p;
        EdgeLog.enabled = false; /* the hook is the analysis forking the model to expand again: the fallback without logs */
        try {
            p = Engine.check(g, Options.defaults().withWorkers(1).withListener(stop)).property("progress");
        } finally {
            EdgeLog.enabled = true;
        }
        assertThat(analysing[0]).isTrue();
        assertThat(p.verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(p.message()).contains("cycle analysis").contains("stop requested");
    }

    /** A chain of {@code stem} nodes into a ring of {@code ring} nodes, each with a step of +1 and of +2 round the ring. */
    private static HandGraph chainIntoRing(int stem, int ring, boolean fair) {
        List<int[]> e = new ArrayList<>();
        for (int i = 0; i < stem; i++) {
            e.add(new int[] {i, i + 1, 0});
        }
        for (int i = 0; i < ring; i++) {
            e.add(new int[] {stem + i, stem + (i + 1) % ring, 0});
            e.add(new int[] {stem + i, stem + (i + 2) % ring, 1});
        }
        return new HandGraph(HandGraph.plain(stem + ring), e.toArray(new int[0][]), null, fair);
    }

    @Test
    void aLongStemIntoALargeRingIsFollowedToItsEnd() {
        /* 80 steps of stem (deeper than the depth walk's first buffer), 1280 edges, a DFS 680 deep */
        for (boolean fair : new boolean[] {false, true}) {
            PropertyResult p = chainIntoRing(80, 600, fair).check();
            assertThat(p.verdict()).as("fair %s", fair).isEqualTo(Verdict.VIOLATED);
            assertThat(p.trace().loopStart()).as("fair %s", fair).isEqualTo(80);
            assertThat(p.trace().length() - 80).as("fair %s: 300 steps of +2", fair).isEqualTo(300);
        }
    }

    @Test
    void aRingOfSixteenStatesIsOneCycle() {
        /* sixteen states fill Tarjan's stack exactly when the component is popped */
        List<int[]> e = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            e.add(new int[] {i, (i + 1) % 16, 0});
        }
        HandGraph g = new HandGraph(HandGraph.plain(16), e.toArray(new int[0][]), null, false);
        PropertyResult p = g.check();
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().loopStart()).isZero();
        assertThat(p.trace().length()).isEqualTo(16);
    }

    @Test
    void theShallowestCycleIsReportedAlsoWhenADeeperOneIsFoundAfterTheStateWithIdZero() {
        /* 0 (id 5) -> 1 (id 0, loops); 0 -> 2 (id 7) -> 3 (id 9, loops); the search meets id 0 first */
        HandGraph g = new HandGraph(HandGraph.ids(5, 0, 7, 9),
                new int[][] {{0, 1, 0}, {1, 1, 0}, {0, 2, 0}, {2, 3, 0}, {3, 3, 0}}, null, false);
        assertLasso(g, 1, 0, 1, 1);
    }

    @Test
    void amongEquallyShallowCyclesTheOneEnteredAtTheLowerIdIsReported() {
        /* 0 (id 1) -> 1 (id 10, loops) and -> 2 (id 20, loops) */
        HandGraph g = new HandGraph(HandGraph.ids(1, 10, 20), new int[][] {{0, 1, 0}, {0, 2, 0}, {1, 1, 0}, {2, 2, 0}},
                null, false);
        assertLasso(g, 1, 0, 1, 1);
    }

    @Test
    void insideOneComponentTheLowerIdOfTwoEquallyShallowStatesStartsTheCycle() {
        /* 0 (id 1) -> 1 (id 20) and -> 2 (id 10); 1 <-> 2: the search enters at 1, the cycle starts at 2 */
        HandGraph g = new HandGraph(HandGraph.ids(1, 20, 10), new int[][] {{0, 1, 0}, {0, 2, 0}, {1, 2, 0}, {2, 1, 0}},
                null, false);
        assertLasso(g, 1, 0, 2, 1, 2);
    }

    @Test
    void depthsAreCountedThroughTheStateWithIdZero() {
        /* 0 (id 3) -> 1 (id 0) -> 2 (id 9, loops, depth 2); 0 -> 3 (id 7, loops, depth 1) */
        HandGraph g = new HandGraph(HandGraph.ids(3, 0, 9, 7),
                new int[][] {{0, 1, 0}, {0, 3, 0}, {1, 2, 0}, {2, 2, 0}, {3, 3, 0}}, null, false);
        assertLasso(g, 1, 0, 3, 3);
    }

    @Test
    void aCycleIsClosedByItsOwnStatesEdgesNotByTheNextIdsEdges() {
        /*
         * 0 (id 40) -> 1 (id 10) -> 2 (id 20) -> 3 (id 30) -> 1, and 0 -> 4 (id 21) -> 1: the state
         * after 2 in id order has an edge into 1, which is not an edge of 2
         */
        HandGraph g = new HandGraph(HandGraph.ids(40, 10, 20, 30, 21),
                new int[][] {{0, 1, 0}, {0, 4, 0}, {1, 2, 0}, {2, 3, 0}, {3, 1, 0}, {4, 1, 0}}, null, false);
        assertLasso(g, 1, 0, 1, 2, 3, 1);
    }

    /**
     * 0 (id 5) -> 1 (id 0) -> 2 (id 7) -> 3 (id 9) -> 4 (id 11) -> 0, and 3 -> 2 as well (3's first
     * step, so 3 -> 4 is its second). Step 0 -> 1 is of class 1, the others of class 0; node 0 owes
     * class 1.
     */
    private static HandGraph roundThroughIdZero(boolean fair) {
        return new HandGraph(HandGraph.ids(5, 0, 7, 9, 11),
                new int[][] {{0, 1, 1}, {1, 2, 0}, {2, 3, 0}, {3, 2, 0}, {3, 4, 0}, {4, 0, 0}},
                new long[] {0b10, 0, 0, 0, 0}, fair);
    }

    @Test
    void aCycleThroughTheStateWithIdZeroIsRebuiltStepByStep() {
        assertLasso(roundThroughIdZero(false), 0, 0, 1, 2, 3, 4, 0);
    }

    // ---- fair progress ----

    @Test
    void theWayHomeAfterTheOwedStepsIsAShortestPathStepByStep() {
        /* the owed step 0 -> 1 ends at id 0; the way home from there has an inner loop to ignore */
        assertLasso(roundThroughIdZero(true), 0, 0, 1, 2, 3, 4, 0);
    }

    @Test
    void aFairCycleThroughTheInitialStateWithIdZeroHasNoStem() {
        /* 0 (id 0) -> 1 (id 7); 1 -> 0 and -> 2 (id 9); 2 -> 0 of class 1, which 0 owes */
        HandGraph g = new HandGraph(HandGraph.ids(0, 7, 9), new int[][] {{0, 1, 0}, {1, 0, 0}, {1, 2, 0}, {2, 0, 1}},
                new long[] {0b10, 0, 0}, true);
        assertLasso(g, 0, 0, 1, 2, 0);
    }

    @Test
    void amongEquallyShallowStatesOfAFairCycleTheLowerIdStartsIt() {
        /* 0 (id 1) -> 1 (id 20) and -> 2 (id 10); 1 <-> 2, owing nothing: the cycle starts at 2 */
        HandGraph g = new HandGraph(HandGraph.ids(1, 20, 10), new int[][] {{0, 1, 0}, {0, 2, 0}, {1, 2, 0}, {2, 1, 0}},
                null, true);
        assertLasso(g, 1, 0, 2, 1, 2);
    }

    @Test
    void anAcyclicGraphHasNoFairCycleAlsoWhereIdZeroReachesNothing() {
        /* 0 (id 3) -> 1 (id 0) and -> 2 (id 7): ids 0 and 7 are not reachable from each other */
        HandGraph g = new HandGraph(HandGraph.ids(3, 0, 7), new int[][] {{0, 1, 0}, {0, 2, 0}}, null, true);
        assertThat(g.check().verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aStepOfTheNextIdIntoAStateDoesNotMakeThatStateCyclic() {
        /* 0 (id 1) -> 1 (id 0): the only edge is the one after id 0's (empty) edges */
        HandGraph g = new HandGraph(HandGraph.ids(1, 0), new int[][] {{0, 1, 0}}, null, true);
        assertThat(g.check().verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void splittingIntoComponentsFollowsOnlyEachStatesOwnEdges() {
        /* 0 (id 6) -> 1 (id 7) -> 2 (id 5): id 6's edge follows id 5's (none), and leads to 7, which leads to 5 */
        HandGraph g = new HandGraph(HandGraph.ids(6, 7, 5), new int[][] {{0, 1, 0}, {1, 2, 0}}, null, true);
        assertThat(g.check().verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aStateReachedAgainByASecondPathDoesNotMergeComponents() {
        /* a diamond 0 -> 1 -> 3, 0 -> 2 -> 3 (ids 1, 2, 3, 4): no cycle */
        HandGraph g = new HandGraph(HandGraph.ids(1, 2, 3, 4), new int[][] {{0, 1, 0}, {0, 2, 0}, {1, 3, 0}, {2, 3, 0}},
                null, true);
        assertThat(g.check().verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aFairCycleOwingNothingStillTakesAStep() {
        HandGraph g = new HandGraph(HandGraph.plain(2), new int[][] {{0, 1, 0}, {1, 0, 0}}, null, true);
        assertLasso(g, 0, 0, 1, 0);
    }

    @Test
    void aFairCycleReturnsHomeAfterItsLastOwedStep() {
        /* 0 -> 1 of class 0, which 0 owes; 1 -> 0 of class 1 */
        HandGraph g = new HandGraph(HandGraph.plain(2), new int[][] {{0, 1, 0}, {1, 0, 1}}, new long[] {0b01, 0}, true);
        assertLasso(g, 0, 0, 1, 0);
    }

    @Test
    void theOwedStepFurthestAlongTheCycleIsReachedByAShortestPathStepByStep() {
        /*
         * 0 -> 1 -> 2 -> 0, class 1 (owed by 0) only on the last step; 1 and 2 first make a
         * progress step to 3, so the cycle's steps are successors 0, 1 and 1 of their states
         */
        HandGraph g = new HandGraph(HandGraph.plain(4),
                new int[][] {{0, 1, 0}, {1, 3, 0, PROGRESS}, {1, 2, 0}, {2, 3, 0, PROGRESS}, {2, 0, 1}},
                new long[] {0b10, 0, 0, 0}, true);
        assertLasso(g, 0, 0, 1, 2, 0);
    }

    @Test
    void theCycleTakesEachOwedClassOnceInOneShortestRound() {
        /* 0 -> 1 -> 2 of class 0, 2 -> 0 of class 1; 0 owes both: one round of three steps does */
        HandGraph g = new HandGraph(HandGraph.plain(3), new int[][] {{0, 1, 0}, {1, 2, 0}, {2, 0, 1}},
                new long[] {0b11, 0, 0}, true);
        assertLasso(g, 0, 0, 1, 2, 0);
    }

    @Test
    void theSearchForAnOwedStepUsesOnlyEachStatesOwnEdges() {
        /*
         * 0 (id 40) -> 1 (id 10) and -> 3 (id 11); 1 -> 2 (id 20) of class 0, 2 -> 1 of class 1
         * (owed by 1); 3's first step is progress (to 4, id 50), its second is 3 -> 2 of class 1:
         * that edge follows 1's in id order and must not be taken for one of 1's
         */
        HandGraph g = new HandGraph(HandGraph.ids(40, 10, 20, 11, 50),
                new int[][] {{0, 1, 0}, {0, 3, 0}, {1, 2, 0}, {2, 1, 1}, {3, 4, 0, PROGRESS}, {3, 2, 1}},
                new long[] {0, 0b10, 0, 0, 0}, true);
        assertLasso(g, 1, 0, 1, 2, 1);
    }

    @Test
    void theWayHomeUsesOnlyEachStatesOwnEdges() {
        /*
         * 0 (id 40) -> 1 (id 10) and -> 4 (id 21); 1 -> 2 (id 20) of class 0 (owed by 1), 2 -> 3
         * (id 30) -> 1 of class 1; 4 -> 1 follows 2's edges in id order
         */
        HandGraph g = new HandGraph(HandGraph.ids(40, 10, 20, 30, 21),
                new int[][] {{0, 1, 0}, {0, 4, 0}, {1, 2, 0}, {2, 3, 1}, {3, 1, 1}, {4, 1, 0}},
                new long[] {0, 0b01, 0, 0, 0}, true);
        assertLasso(g, 1, 0, 1, 2, 3, 1);
    }

    @Test
    void stepClass63IsTheLastValidClass() {
        HandGraph g = new HandGraph(HandGraph.plain(2), new int[][] {{0, 1, 63}, {1, 0, 63}},
                new long[] {1L << 63, 0}, true);
        assertLasso(g, 0, 0, 1, 0);
    }
}
