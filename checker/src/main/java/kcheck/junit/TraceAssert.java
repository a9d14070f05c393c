package kcheck.junit;

import org.assertj.core.api.AbstractAssert;

import kcheck.engine.Options;
import kcheck.report.Replay;
import kcheck.trace.Trace;

/**
 * Assertions on a trace: replay it on a variant. On its own variant a trace must reproduce (a
 * refusal there means the trace is stale or was edited, and fails every assertion). On another
 * variant, {@link ReplayAssert#isRefused()} is a fact about this one run;
 * {@link #isRegressionProofOn(String)} is the proof: refused, and the property holds on that
 * variant exhaustively at the trace's bounds.
 */
public final class TraceAssert extends AbstractAssert<TraceAssert, Trace> {

    TraceAssert(Trace actual) {
        super(actual, TraceAssert.class);
    }

    /** Replays the trace on {@code variant}; assert on the outcome next. */
    public ReplayAssert replaysOn(String variant) {
        isNotNull();
        return new ReplayAssert(actual, Replay.run(actual, variant), Replay.isOwn(actual, variant));
    }

    /** Replaying on its own variant reproduces the violation (else the trace is stale or edited). */
    public TraceAssert reproduces() {
        replaysOn(actual.variant()).reproduces();
        return this;
    }

    /**
     * The regression proof of {@code variant} against this counterexample: the trace reproduces
     * on its own variant, {@code variant} refuses it, and the trace's property HOLDS on
     * {@code variant} exhaustively at the trace's bounds (checked here).
     */
    public TraceAssert isRegressionProofOn(String variant) {
        isNotNull();
        if (Replay.isOwn(actual, variant)) {
            failWithMessage("a regression proof needs another variant than the trace's own (%s)", actual.variant());
        }
        Replay.Proof p = Replay.prove(actual, Replay.model(actual, variant),
                Options.defaults().withWorkers(Runtime.getRuntime().availableProcessors()));
        if (p.own() != null && !p.own().reproduced()) {
            failWithMessage("%s", Replay.stale("trace", actual, p.own()));
        }
        if (!p.proven()) {
            failWithMessage("expected a regression proof on %s: %s", variant, p.sentence());
        }
        return this;
    }

    /** The outcome of a replay. */
    public static final class ReplayAssert extends AbstractAssert<ReplayAssert, Replay.Outcome> {
        private final Trace trace;
        private final boolean own;

        ReplayAssert(Trace trace, Replay.Outcome actual, boolean own) {
            super(actual, ReplayAssert.class);
            this.trace = trace;
            this.own = own;
        }

        /**
         * The variant refuses the trace: a step is not possible, or it completes without violating.
         * A fact about this one run, not a proof (see {@link TraceAssert#isRegressionProofOn}); on
         * the trace's own variant a refusal is a failure (stale or edited trace).
         */
        public ReplayAssert isRefused() {
            if (own && !actual.reproduced()) {
                failWithMessage("%s", Replay.stale("trace", trace, actual));
            }
            if (own) {
                failWithMessage("expected %s, the trace's own variant, to refuse its %s trace: a trace always reproduces on its own "
                        + "variant; replay it on another one", actual.variant(), trace.property());
            }
            if (actual.reproduced()) {
                failWithMessage("expected %s to refuse the %s trace of %s but it reproduces: %s", actual.variant(),
                        trace.property(), trace.variant(), actual.detail());
            }
            return this;
        }

        /** The variant reproduces the recorded violation. */
        public ReplayAssert reproduces() {
            if (!actual.reproduced()) {
                if (own) {
                    failWithMessage("%s", Replay.stale("trace", trace, actual));
                }
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
