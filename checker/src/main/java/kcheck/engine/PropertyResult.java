package kcheck.engine;

import kcheck.model.Property;

/**
 * The verdict on one property, with its trace when violated (a counterexample, or a lasso for a
 * progress property) and, for a metric, the maxima and their witnesses.
 */
public record PropertyResult(String id, Property.Kind kind, String description, Verdict verdict, String message,
                             RawTrace trace, MetricResult metric) {
}
