package kcheck.junit;

import java.util.stream.Collectors;

import org.assertj.core.api.AbstractAssert;

import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.report.TraceFactory;
import kcheck.trace.TimelineRenderer;

/** Assertions on a {@link RunResult}; failures show the verdicts and, for violations, the timeline. */
public final class RunResultAssert extends AbstractAssert<RunResultAssert, RunResult> {

    RunResultAssert(RunResult actual) {
        super(actual, RunResultAssert.class);
    }

    private String verdicts() {
        return actual.properties().stream().map(p -> p.id() + "=" + p.verdict()).collect(Collectors.joining(", "));
    }

    private static String timeline(RunResult r, PropertyResult p) {
        return p.trace() == null ? p.message()
                : TimelineRenderer.render(TraceFactory.of(r.model(), p, null, null, false, p.verdict().name()));
    }

    /** Every checked property HOLDS (an exhaustive search found nothing). */
    public RunResultAssert holds() {
        isNotNull();
        for (PropertyResult p : actual.properties()) {
            if (p.verdict() != Verdict.HOLDS) {
                failWithMessage("expected every property to hold on %s/%s but %s is %s:%n%s", actual.model().name(),
                        actual.model().variant(), p.id(), p.verdict(), timeline(actual, p));
            }
        }
        return this;
    }

    /** Property {@code id} HOLDS. */
    public RunResultAssert holds(String id) {
        return hasVerdict(id, Verdict.HOLDS);
    }

    /** Property {@code id} has {@code verdict}. */
    public RunResultAssert hasVerdict(String id, Verdict verdict) {
        isNotNull();
        PropertyResult p = find(id);
        if (p.verdict() != verdict) {
            failWithMessage("expected %s to be %s but was %s (%s)%n%s", id, verdict, p.verdict(), p.message(), timeline(actual, p));
        }
        return this;
    }

    /** Property {@code id} is VIOLATED, with a trace; continue with assertions on that result. */
    public PropertyResultAssert isViolatedBy(String id) {
        isNotNull();
        PropertyResult p = find(id);
        if (p.verdict() != Verdict.VIOLATED) {
            failWithMessage("expected %s to be VIOLATED but was %s (%s); verdicts: %s", id, p.verdict(), p.message(), verdicts());
        }
        return new PropertyResultAssert(actual, p);
    }

    /** Some property is INCOMPLETE (a limit was hit). */
    public RunResultAssert isIncomplete() {
        isNotNull();
        if (actual.properties().stream().noneMatch(p -> p.verdict() == Verdict.INCOMPLETE)) {
            failWithMessage("expected an INCOMPLETE verdict but got %s", verdicts());
        }
        return this;
    }

    /** The search was exhaustive with exactly {@code n} distinct states. */
    public RunResultAssert exploredExactly(long n) {
        isNotNull();
        if (!actual.stats().complete() || actual.stats().states() != n) {
            failWithMessage("expected an exhaustive search of %d states but got %d (complete: %s)", n,
                    actual.stats().states(), actual.stats().complete());
        }
        return this;
    }

    /** Metric {@code id}'s maximum for {@code component} (e.g. "CPU 1") is {@code value}. */
    public RunResultAssert hasMetricMax(String id, String component, long value) {
        isNotNull();
        PropertyResult p = find(id);
        if (p.metric() == null) {
            failWithMessage("%s is not a metric", id);
        }
        int c = p.metric().components().indexOf(component);
        if (c < 0) {
            failWithMessage("%s has no component %s (has %s)", id, component, p.metric().components());
        }
        if (p.metric().max()[c] != value) {
            failWithMessage("expected %s of %s to be %d but was %d", id, component, value, p.metric().max()[c]);
        }
        return this;
    }

    private PropertyResult find(String id) {
        return actual.properties().stream().filter(p -> p.id().equals(id)).findFirst().orElseThrow(
                () -> new AssertionError("property " + id + " was not checked; checked: " + verdicts()));
    }
}
