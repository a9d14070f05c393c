package kcheck.model;

/** Receives packed states. The array is the caller's scratch space: copy what you keep. */
@FunctionalInterface
public interface StateSink {
    void state(long[] state);
}
