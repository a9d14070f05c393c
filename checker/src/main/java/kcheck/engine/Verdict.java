package kcheck.engine;

/**
 * The outcome for one property: {@link #HOLDS} only after an exhaustive search found nothing,
 * {@link #VIOLATED} with a trace, {@link #INCOMPLETE} when a limit was hit first. INCOMPLETE is
 * never reported as HOLDS.
 */
public enum Verdict {
    HOLDS, VIOLATED, INCOMPLETE
}
