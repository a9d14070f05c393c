package kcheck.model;

/**
 * Receives the enabled steps of a state. {@code next} is the model's scratch array, valid only
 * during the call. {@code action} is a model-defined code that, with {@code actor}, identifies
 * the step for {@link Model#describe}.
 */
@FunctionalInterface
public interface StepSink {
    void step(int actor, int action, long[] next);
}
