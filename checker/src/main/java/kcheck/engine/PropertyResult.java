package kcheck.engine;

import kcheck.model.Property;

/**
 * The verdict on one property, with its trace when violated (a counterexample, or a lasso for a
 * progress property) and, for a metric, the maxima and their witnesses.
 */
public record PropertyResult(String id, Property.Kind kind, String description, Verdict verdict, String message,
                             RawTrace trace, MetricResult metric) {

    /**
     * A metric without a bound: a figure (its maxima), not a claim about the code. Its verdict only
     * says whether the maxima are final ({@link Verdict#HOLDS}: taken over every reachable state)
     * or the search stopped first ({@link Verdict#INCOMPLETE}); reports print no verdict word for
     * it. A metric with a bound is checked against it and has the bound's verdict.
     */
    public boolean figure() {
        return metric != null && metric.bound() == Long.MAX_VALUE;
    }
}
