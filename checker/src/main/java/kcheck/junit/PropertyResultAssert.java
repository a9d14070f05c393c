package kcheck.junit;

import org.assertj.core.api.AbstractAssert;

import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.report.TraceFactory;
import kcheck.trace.Trace;

/** Assertions on one violated property's counterexample. */
public final class PropertyResultAssert extends AbstractAssert<PropertyResultAssert, PropertyResult> {
    private final RunResult run;

    PropertyResultAssert(RunResult run, PropertyResult actual) {
        super(actual, PropertyResultAssert.class);
        this.run = run;
    }

    /** The counterexample has {@code n} steps and is a shortest one (BFS). */
    public PropertyResultAssert hasShortestTraceOfLength(int n) {
        if (!run.stats().shortestTraces()) {
            failWithMessage("only a BFS run without partial-order reduction gives shortest traces; this was %s with %d "
                    + "ample-set states", run.stats().strategy(), run.stats().ampleStates());
        }
        if (actual.trace().length() != n) {
            failWithMessage("expected a shortest trace of %d steps for %s but it has %d", n, actual.id(), actual.trace().length());
        }
        return this;
    }

    /** The counterexample is a lasso (a non-progress cycle). */
    public PropertyResultAssert isLasso() {
        if (actual.trace().loopStart() < 0) {
            failWithMessage("expected a lasso for %s but the trace has no cycle", actual.id());
        }
        return this;
    }

    /** The violation message contains {@code text}. */
    public PropertyResultAssert withMessageContaining(String text) {
        if (!actual.message().contains(text)) {
            failWithMessage("expected the message of %s to contain <%s> but was <%s>", actual.id(), text, actual.message());
        }
        return this;
    }

    /** The counterexample as a {@link Trace}, for {@code assertThat(trace).replaysOn(...)}. */
    public Trace trace() {
        return TraceFactory.of(run.model(), actual, null, null, false, actual.verdict().name());
    }
}
