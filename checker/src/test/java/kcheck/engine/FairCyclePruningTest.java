package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import kcheck.model.FieldSink;
import kcheck.model.Model;
import kcheck.model.Params;
import kcheck.model.Progress;
import kcheck.model.Property;
import kcheck.model.StateSink;
import kcheck.model.StepInfo;
import kcheck.model.StepSink;

/**
 * The fair-cycle search prunes a component of every state that owes a class no edge inside it
 * takes, then looks again at what is left, which may no longer be one component, or no longer
 * cyclic, or owe more than it now takes. Hand-drawn graphs of three or four states, no progress
 * step anywhere: the verdict is VIOLATED exactly when a fair cycle exists. (PIT found the
 * second look uncovered by the engine's tests.)
 */
class FairCyclePruningTest {

    /** A graph given as edges {from, actor, to}; the state is the node; node v owes {@code owed[v]}. */
    private static final class Graph implements Model {
        private final int[][] edges;
        private final long[] owed;
        private final Progress progress;

        Graph(int[][] edges, long[] owed) {
            this.edges = edges;
            this.owed = owed;
            this.progress = new Progress("progress", "some step makes progress") {
                @Override
                public boolean isProgress(long[] from, int actor, int action, long[] to) {
                    return false;
                }

                @Override
                public boolean fair() {
                    return true;
                }

                @Override
                public long owed(long[] s) {
                    return Graph.this.owed[(int) s[0]];
                }
            };
        }

        @Override
        public String name() {
            return "graph";
        }

        @Override
        public String variant() {
            return "hand-drawn";
        }

        @Override
        public Params params() {
            return Params.resolve("graph", List.of(), java.util.Map.of());
        }

        @Override
        public int width() {
            return 1;
        }

        @Override
        public void initial(StateSink out) {
            out.state(new long[] {0});
        }

        @Override
        public void successors(long[] s, StepSink out) {
            for (int[] e : edges) {
                if (e[0] == s[0]) {
                    out.step(e[1], 0, new long[] {e[2]});
                }
            }
        }

        @Override
        public boolean isFinal(long[] s) {
            return false;
        }

        @Override
        public List<Property> properties() {
            return List.of(progress);
        }

        @Override
        public List<String> actors() {
            return List.of("a0", "a1", "a2");
        }

        @Override
        public StepInfo describe(int actor, int action) {
            return new StepInfo("step of a" + actor, "");
        }

        @Override
        public void decode(long[] s, FieldSink out) {
            out.field(FieldSink.SHARED, "node", Long.toString(s[0]));
        }

        @Override
        public Model fork() {
            return this;
        }
    }

    private static PropertyResult check(Graph g) {
        return Engine.check(g, Options.defaults().withWorkers(1)).property("progress");
    }

    @Test
    void pruningTheOnlyStateThatClosesTheCycleLeavesNoFairCycle() {
        /* 0 -a0-> 1 -a1-> 2 -a0-> 0; node 2 owes a2, which no edge takes */
        Graph g = new Graph(new int[][] {{0, 0, 1}, {1, 1, 2}, {2, 0, 0}}, new long[] {0b001, 0b011, 0b100});
        assertThat(check(g).verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void whatIsLeftAfterPruningIsSearchedAgainAndItsFairCycleReported() {
        /* 0 <-a0-> 1, 1 -a1-> 2 -a0-> 0; node 2 owes a2: the fair cycle is 0 -> 1 -> 0 */
        Graph g = new Graph(new int[][] {{0, 0, 1}, {1, 0, 0}, {1, 1, 2}, {2, 0, 0}}, new long[] {0b001, 0b001, 0b100});
        PropertyResult p = check(g);
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        RawTrace t = p.trace();
        assertThat(t.loopStart()).isNotNegative();
        for (int i = t.loopStart(); i <= t.length(); i++) {
            assertThat(t.states().get(i)[0]).as("state %d of the cycle", i).isNotEqualTo(2L);
        }
    }

    @Test
    void aComponentThatShrinksCanOweMoreThanItStillTakesAndIsPrunedAgain() {
        /*
         * 0 <-a0-> 1 and 0 <-a1-> 2; node 2 owes a2 and goes; then {0, 1} takes only a0 but node 0
         * owes a1 as well: pruned in the second look, and nothing fair is left
         */
        Graph g = new Graph(new int[][] {{0, 0, 1}, {1, 0, 0}, {0, 1, 2}, {2, 1, 0}}, new long[] {0b011, 0b001, 0b100});
        assertThat(check(g).verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void withoutAnyPruningTheWholeComponentIsTheFairCycle() {
        Graph g = new Graph(new int[][] {{0, 0, 1}, {1, 1, 2}, {2, 0, 0}}, new long[] {0b001, 0b011, 0b001});
        PropertyResult p = check(g);
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().loopStart()).as("the initial state is on the cycle: the shortest lasso has no stem").isZero();
        assertThat(p.trace().length()).isEqualTo(3);
    }
}
