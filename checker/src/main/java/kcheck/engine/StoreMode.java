package kcheck.engine;

/** How visited states are remembered. */
public enum StoreMode {
    /** Full packed states: no omission possible. */
    EXACT,
    /** 64-bit fingerprints (hash compaction): less memory, a small stated probability of omitting a state. */
    FINGERPRINT
}
