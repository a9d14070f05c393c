package kcheck.model;

/**
 * Receives the enabled steps of a state. {@code next} is the model's scratch array, valid only
 * during the call. {@code action} is a model-defined code that, with {@code actor}, identifies
 * the step for {@link Model#describe}.
 *
 * <p>A sink may end the enumeration early by throwing {@link Stop} (the engine does when its
 * time limit passes, or a stop is asked for, while one state has thousands of successors): a
 * model lets it pass, and the state counts as not expanded.
 */
@FunctionalInterface
public interface StepSink {
    void step(int actor, int action, long[] next);

    /** Thrown by a sink to end {@link Model#successors} early; preallocated, without a stack trace. */
    final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;
        public static final Stop INSTANCE = new Stop();

        private Stop() {
            super("the successor enumeration was ended by its sink", null, false, false);
        }
    }
}
