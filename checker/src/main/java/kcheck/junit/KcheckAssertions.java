package kcheck.junit;

import kcheck.engine.RunResult;
import kcheck.trace.Trace;

/**
 * AssertJ entry points for kcheck results and traces:
 * {@code assertThat(result).holds()}, {@code .isViolatedBy("fifo-entry").hasShortestTraceOfLength(10)},
 * {@code assertThat(trace).replaysOn("after").isRefused()}.
 */
public final class KcheckAssertions {
    private KcheckAssertions() {
    }

    public static RunResultAssert assertThat(RunResult actual) {
        return new RunResultAssert(actual);
    }

    public static TraceAssert assertThat(Trace actual) {
        return new TraceAssert(actual);
    }
}
