package kcheck.engine;

/** The checkpoint to resume from is missing, damaged or of another search (a usage error, not a verdict). */
public final class CheckpointException extends IllegalArgumentException {
    public CheckpointException(String message) {
        super(message);
    }
}
