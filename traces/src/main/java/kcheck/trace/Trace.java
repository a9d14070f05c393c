package kcheck.trace;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A counterexample (or metric witness) as kcheck writes it: format version, what was checked,
 * and the steps, each with the actor, the action, the kernel function it mirrors and the fields
 * it changed. Independent of the model classes: a trace can be read, rendered and replayed
 * without knowing how it was produced.
 *
 * @param format        {@link #FORMAT}; readers refuse newer formats
 * @param kind          property kind: invariant, step, metric, progress, deadlock
 * @param actors        column names, one per actor
 * @param initial       every field of the initial state
 * @param steps         the steps, 1-based {@link Step#index()}
 * @param loopStart     for a lasso: the step count of the stem (the cycle starts after it); else null
 * @param violationStep the step that violates, or the last step for a violating state; 0 for an initial state
 * @param minimisedFrom for a minimised random-walk trace: its length before minimisation
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Trace(int format, String model, String variant, Map<String, String> params, String property,
                    String kind, String verdict, String message, Long seed, List<String> actors,
                    List<Field> initial, List<Step> steps, Integer loopStart, int violationStep,
                    Integer minimisedFrom, String variantFile) {

    /** Current format version. */
    public static final int FORMAT = 1;

    /** One step: who did what, in which kernel function, and what changed. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Step(int index, int actor, String action, String function, List<Field> changes, List<Field> state) {
    }

    /**
     * A named field of the state: its owner actor (null for shared data such as a lock word)
     * and value.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Field(String name, Integer actor, String value) {
    }
}
