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
 * @param variantFile   for a variant checked from a source file: {@code "path (sha256 HEX)"}
 * @param legend        the model's notation, one line each (printed under timelines); may be null
 * @param initialLocks  who holds and who waits for each lock initially (the lock lane chart); null if
 *                      the model does not describe its locks
 * @param variantSha256 SHA-256 of the variant's source: the variant file, or the reference
 *                      implementation's source file of a built-in variant; null if unknown
 * @param kcheck        the kcheck version (and git revision) that wrote the trace; may be null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Trace(int format, String model, String variant, Map<String, String> params, String property,
                    String kind, String verdict, String message, Long seed, List<String> actors,
                    List<Field> initial, List<Step> steps, Integer loopStart, int violationStep,
                    Integer minimisedFrom, String variantFile, List<String> legend, List<Lock> initialLocks,
                    String variantSha256, String kcheck) {

    /** Current format version (the fields added since are optional: readers of format 1 ignore them). */
    public static final int FORMAT = 1;

    /** A trace without legend, locks, source hash or version (as format 1 was first written). */
    public Trace(int format, String model, String variant, Map<String, String> params, String property,
                 String kind, String verdict, String message, Long seed, List<String> actors,
                 List<Field> initial, List<Step> steps, Integer loopStart, int violationStep,
                 Integer minimisedFrom, String variantFile) {
        this(format, model, variant, params, property, kind, verdict, message, seed, actors, initial, steps, loopStart,
                violationStep, minimisedFrom, variantFile, null, null, null, null);
    }

    /** This trace with {@code legend}, {@code initialLocks}, {@code variantSha256} and {@code kcheck} replaced. */
    public Trace with(List<String> legend, List<Lock> initialLocks, String variantSha256, String kcheck) {
        return new Trace(format, model, variant, params, property, kind, verdict, message, seed, actors, initial, steps,
                loopStart, violationStep, minimisedFrom, variantFile, legend, initialLocks, variantSha256, kcheck);
    }

    /** This trace recording the variant file it was produced on. */
    public Trace withVariantFile(String file) {
        return new Trace(format, model, variant, params, property, kind, verdict, message, seed, actors, initial, steps,
                loopStart, violationStep, minimisedFrom, file, legend, initialLocks, variantSha256, kcheck);
    }

    /** True if the model described its locks (a lock lane chart can be drawn). */
    public boolean hasLocks() {
        return initialLocks != null && !initialLocks.isEmpty();
    }

    /**
     * One step: who did what, in which kernel function, what changed, and (if the model
     * describes its locks) who holds and who waits for each lock after it.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Step(int index, int actor, String action, String function, List<Field> changes, List<Field> state,
                       List<Lock> locks) {
        public Step(int index, int actor, String action, String function, List<Field> changes, List<Field> state) {
            this(index, actor, action, function, changes, state, null);
        }
    }

    /**
     * One lock in one state: its holders and its waiters (actor indices); {@code ordered}: the
     * waiters are in the order the lock serves them (ticket lock), else in no particular order.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Lock(String name, List<Integer> holders, List<Integer> waiters, boolean ordered) {
    }

    /**
     * A named field of the state: its owner actor (null for shared data such as a lock word)
     * and value.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Field(String name, Integer actor, String value) {
    }
}
