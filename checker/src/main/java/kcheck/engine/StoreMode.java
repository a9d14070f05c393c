package kcheck.engine;

/** How visited states are remembered. */
public enum StoreMode {
    /** Full packed states: no omission possible. */
    EXACT,
    /** 64-bit fingerprints (hash compaction): less memory, a small stated probability of omitting a state. */
    FINGERPRINT,
    /** Compressed 64-bit fingerprints in at most 8 bytes a state (6-byte slots, quotiented tables); trace links in RAM. */
    COMPACT,
    /**
     * Compressed fingerprints in RAM, trace links and BFS levels streamed to sequential files, and
     * the fingerprints moved to sorted runs on disk when RAM runs short (checked per level): for
     * state spaces beyond RAM. Checkpoints and resume ({@link Options.Disk}).
     */
    DISK
}
