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
 * Fair non-progress cycles: with {@link Progress#fair()}, a cycle counts only if every step class
 * owed somewhere on it is taken on it. A toggler (actor 0) flips a bit forever; a worker (actor 1)
 * goes 0 -> 1 -> done, and, with {@code retry}, may also go back from 1 to 0. Progress is the
 * worker finishing.
 */
class FairProgressTest {

    /** State: [bit, worker]. */
    private static final class TogglerAndWorker implements Model {
        final boolean retry;
        final boolean fair;
        final Progress progress;
        /** Set once the cycle analysis asks what a state owes (it runs after the search). */
        volatile boolean analysing;

        TogglerAndWorker(boolean retry, boolean fair) {
            this.retry = retry;
            this.fair = fair;
            this.progress = new Progress("finishes", "the worker finishes") {
                @Override
                public boolean isProgress(long[] from, int actor, int action, long[] to) {
                    return to[1] == 2;
                }

                @Override
                public boolean fair() {
                    return TogglerAndWorker.this.fair;
                }

                @Override
                public long owed(long[] s) {
                    analysing = true;
                    return s[1] < 2 ? 0b11 : 0b01;
                }
            };
        }

        @Override
        public String name() {
            return "toggler-and-worker";
        }

        @Override
        public String variant() {
            return retry ? "retry" : "plain";
        }

        @Override
        public Params params() {
            return Params.resolve("toggler-and-worker", List.of(), java.util.Map.of());
        }

        @Override
        public int width() {
            return 2;
        }

        @Override
        public void initial(StateSink out) {
            out.state(new long[] {0, 0});
        }

        @Override
        public void successors(long[] s, StepSink out) {
            out.step(0, 0, new long[] {1 - s[0], s[1]});
            if (s[1] == 0) {
                out.step(1, 0, new long[] {s[0], 1});
            } else if (s[1] == 1) {
                out.step(1, 1, new long[] {s[0], 2});
                if (retry) {
                    out.step(1, 2, new long[] {s[0], 0});
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
            return List.of("toggler", "worker");
        }

        @Override
        public StepInfo describe(int actor, int action) {
            return new StepInfo(actor == 0 ? "toggle" : new String[] {"start", "finish", "retry"}[action], "");
        }

        @Override
        public void decode(long[] s, FieldSink out) {
            out.field(FieldSink.SHARED, "bit", Long.toString(s[0]));
            out.field(FieldSink.SHARED, "worker", Long.toString(s[1]));
        }

        @Override
        public Model fork() {
            return this;
        }
    }

    private static PropertyResult check(boolean retry, boolean fair) {
        return Engine.check(new TogglerAndWorker(retry, fair), Options.defaults().withWorkers(1)).property("finishes");
    }

    @Test
    void aStopDuringTheCycleAnalysisLeavesTheFairPropertyIncompleteNotHolds() {
        TogglerAndWorker m = new TogglerAndWorker(false, true);
        ProgressListener stopInAnalysis = new ProgressListener() {
            @Override
            public void progress(ProgressListener.Progress p) {
            }

            @Override
            public String stopRequested() {
                return m.analysing ? "stop requested" : null;
            }
        };
        PropertyResult p = Engine.check(m, Options.defaults().withWorkers(1).withListener(stopInAnalysis)).property("finishes");
        assertThat(m.analysing).isTrue();
        assertThat(p.verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(p.message()).contains("cycle analysis").contains("stop requested");
    }

    @Test
    void anUnfairCycleOfTheTogglerAloneIsAViolationOnlyWithoutFairness() {
        assertThat(check(false, false).verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(check(false, true).verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aFairCycleIsReportedWithAStepOfEveryOwedClass() {
        PropertyResult p = check(true, true);
        assertThat(p.verdict()).isEqualTo(Verdict.VIOLATED);
        RawTrace t = p.trace();
        assertThat(t.loopStart()).isNotNegative();
        boolean toggler = false;
        boolean worker = false;
        for (int i = t.loopStart(); i < t.length(); i++) {
            toggler |= t.actors()[i] == 0;
            worker |= t.actors()[i] == 1;
        }
        assertThat(toggler).as("the toggler steps in the cycle").isTrue();
        assertThat(worker).as("the worker steps in the cycle").isTrue();
        assertThat(t.states().get(t.length())).containsExactly(t.states().get(t.loopStart()));
    }
}
