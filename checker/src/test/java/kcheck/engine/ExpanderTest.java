package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kcheck.model.Deadlock;
import kcheck.model.FieldSink;
import kcheck.model.Invariant;
import kcheck.model.Model;
import kcheck.model.Params;
import kcheck.model.Property;
import kcheck.model.StateSink;
import kcheck.model.StepInfo;
import kcheck.model.StepProperty;
import kcheck.model.StepSink;

/**
 * The expansion of one state: its successors are batched (the batch grows past its first 16),
 * each new one is checked at its own depth (one more than its parent's), and its step at the
 * parent's depth + 1.
 */
class ExpanderTest {

    /** State 0 has {@code fan} successors 1..fan; each of those is final. */
    private static final class Fan implements Model {
        final int fan;
        final int width;
        final List<Property> props;

        Fan(int fan, Property... props) {
            this(fan, 3, props);
        }

        Fan(int fan, int width, Property... props) {
            this.fan = fan;
            this.width = width;
            this.props = List.of(props);
        }

        @Override
        public String name() {
            return "fan";
        }

        @Override
        public String variant() {
            return "test";
        }

        @Override
        public Params params() {
            return Params.resolve("fan", List.of(), Map.of());
        }

        @Override
        public int width() {
            return width;
        }

        @Override
        public void initial(StateSink out) {
            out.state(new long[width]);
        }

        @Override
        public void successors(long[] s, StepSink out) {
            if (s[0] == 0) {
                for (int i = 1; i <= fan; i++) {
                    long[] next = new long[width];
                    next[0] = i;
                    next[1] = -i;
                    next[width - 1] = i * 31L;
                    out.step(i % 7, i, next);
                }
            }
        }

        @Override
        public boolean isFinal(long[] s) {
            return s[0] != 0;
        }

        @Override
        public List<Property> properties() {
            return props;
        }

        @Override
        public List<String> actors() {
            return List.of("a0", "a1", "a2", "a3", "a4", "a5", "a6");
        }

        @Override
        public StepInfo describe(int actor, int action) {
            return new StepInfo("to " + action, "");
        }

        @Override
        public void decode(long[] s, FieldSink out) {
            out.field(FieldSink.SHARED, "v", Long.toString(s[0]));
        }

        @Override
        public Model fork() {
            return this;
        }
    }

    @Test
    void aStateWithManyMoreSuccessorsThanTheFirstBatchKeepsEveryOne() {
        for (int fan : new int[] {15, 16, 17, 40, 100}) {
            RunResult r = Engine.check(new Fan(fan, Deadlock.standard()), Options.defaults().withWorkers(1));
            assertThat(r.stats().states()).as("fan %d", fan).isEqualTo(fan + 1);
            assertThat(r.stats().transitions()).isEqualTo(fan);
            assertThat(r.property("deadlock-free").verdict()).isEqualTo(Verdict.HOLDS);
        }
    }

    @Test
    void theLastOfManySuccessorsIsStoredIntact() {
        Invariant not40 = new Invariant("not-40", "state 40 is never reached") {
            @Override
            public boolean holds(long[] s) {
                return s[0] != 40;
            }
        };
        PropertyResult p = Engine.check(new Fan(40, not40, Deadlock.standard()), Options.defaults().withWorkers(1))
                .property("not-40");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().states().get(1)).containsExactly(40, -40, 40 * 31);
    }

    @Test
    void anInitialViolationIsNotReplacedByItsSuccessorsViolations() {
        /* every state violates "v is never even"... except the odd successors; the initial state is the shallowest */
        Invariant odd = new Invariant("odd", "v is odd") {
            @Override
            public boolean holds(long[] s) {
                return s[0] % 2 != 0;
            }
        };
        PropertyResult p = Engine.check(new Fan(20, odd, Deadlock.standard()), Options.defaults().withWorkers(1)).property("odd");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().length()).isZero();
        /* across partitions: those that do not own the initial state see only successors, at depth 1 */
        PropertyResult q = Partitioned.check(new Fan(20, odd, Deadlock.standard()), Options.defaults().withWorkers(1),
                new InMemoryDriver(3)).property("odd");
        assertThat(q.trace().length()).isZero();
    }

    @Test
    void aStepViolationIsReportedOnTheStepThatMadeIt() {
        StepProperty noStepTo17 = new StepProperty("no-17", "no step goes to 17") {
            @Override
            public boolean holds(long[] from, int actor, int action, long[] to) {
                return to[0] != 17;
            }
        };
        PropertyResult p = Engine.check(new Fan(30, noStepTo17, Deadlock.standard()), Options.defaults().withWorkers(1))
                .property("no-17");
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(p.trace().length()).isEqualTo(1);
        assertThat(p.trace().states().get(1)[0]).isEqualTo(17);
    }

    @Test
    void successorsOfThousandsOfWordsEachFillSeveralChunksOfTheBatchAndAreStoredIntact() {
        /* 20,000 words a state: a chunk of the batch holds 32 of them, so 300 successors take ten chunks */
        int fan = 300;
        int width = 20_000;
        Invariant notLast = new Invariant("not-last", "the last successor is never reached") {
            @Override
            public boolean holds(long[] s) {
                return s[0] != fan;
            }
        };
        RunResult r = Engine.check(new Fan(fan, width, notLast, Deadlock.standard()), Options.defaults().withWorkers(1));
        assertThat(r.stats().states()).isEqualTo(fan + 1);
        assertThat(r.stats().transitions()).isEqualTo(fan);
        long[] last = r.property("not-last").trace().states().get(1);
        assertThat(last[0]).isEqualTo(fan);
        assertThat(last[1]).isEqualTo(-fan);
        assertThat(last[width - 1]).isEqualTo(fan * 31L);
    }
}
