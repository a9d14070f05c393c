package kcheck.junit;

import org.assertj.core.api.AbstractAssert;

import kcheck.report.Replay;
import kcheck.trace.Trace;

/** Assertions on a trace: replay it on a variant. */
public final class TraceAssert extends AbstractAssert<TraceAssert, Trace> {

    TraceAssert(Trace actual) {
        super(actual, TraceAssert.class);
    }

    /** Replays the trace on {@code variant}; assert on the outcome next. */
    public ReplayAssert replaysOn(String variant) {
        isNotNull();
        return new ReplayAssert(actual, Replay.run(actual, variant));
    }

    /** Replaying on its own variant reproduces the violation. */
    public TraceAssert reproduces() {
        replaysOn(actual.variant()).reproduces();
        return this;
    }

    /** The outcome of a replay. */
    public static final class ReplayAssert extends AbstractAssert<ReplayAssert, Replay.Outcome> {
        private final Trace trace;

        ReplayAssert(Trace trace, Replay.Outcome actual) {
            super(actual, ReplayAssert.class);
            this.trace = trace;
        }

        /** The variant refuses the trace: a step is not possible, or it completes without violating. */
        public ReplayAssert isRefused() {
            if (actual.reproduced()) {
                failWithMessage("expected %s to refuse the %s trace of %s but it reproduces: %s", actual.variant(),
                        trace.property(), trace.variant(), actual.detail());
            }
            return this;
        }

        /** The variant reproduces the recorded violation. */
        public ReplayAssert reproduces() {
            if (!actual.reproduced()) {
                failWithMessage("expected %s to reproduce the %s trace but it refuses it: %s", actual.variant(),
                        trace.property(), actual.detail());
            }
            return this;
        }

        /** The first impossible step is {@code step}. */
        public ReplayAssert divergesAt(int step) {
            if (actual.divergedAt() != step) {
                failWithMessage("expected the replay on %s to diverge at step %d but it %s", actual.variant(), step,
                        actual.divergedAt() < 0 ? "did not diverge (" + actual.detail() + ")" : "diverged at " + actual.divergedAt());
            }
            return this;
        }
    }
}
