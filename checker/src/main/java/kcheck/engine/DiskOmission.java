package kcheck.engine;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * The disk search's omission estimate: TLC's n * (m - n) / 2^64, taken per comparison set. A
 * state found again can be taken for another only among the keys it is compared with. Without
 * the grading those keys are every state, so the levels built that way count as TLC counts the
 * whole search. A graded level is compared only with its own keys (and the runs of keys found
 * before the search relied on the grading), so it adds keys * (its successors - its new states)
 * / 2^64. A level stopped before its end counts as ungraded.
 */
final class DiskOmission {
    /** Transitions counted when the level being built began: the ones after it are its successors. */
    private long levelTransitions;
    /** The levels built without the grading (with the initial states): their transitions and new states. */
    private long ungradedTransitions;
    private long ungradedStates;
    /** The graded levels' share of the estimate. */
    private double gradedOmission;

    /** The initial states, counted as an ungraded level. */
    void initialStates(long n) {
        ungradedStates = n;
    }

    /** The estimate with {@code states} found and {@code transitions} made so far. */
    double estimate(long states, long transitions) {
        long pending = transitions - levelTransitions;
        return (double) states * Math.max(0, ungradedTransitions + pending - ungradedStates) / 0x1p64 + gradedOmission;
    }

    /**
     * Adds a finished level, {@code transitions} being the count when it ended: its {@code live}
     * new states of {@code keys} it was compared with (graded: the level's records and the runs'
     * keys).
     */
    void levelDone(boolean graded, long transitions, long keys, long live) {
        long generated = transitions - levelTransitions;
        if (graded) {
            gradedOmission += (double) keys * Math.max(0, generated - live) / 0x1p64;
        } else {
            ungradedTransitions += generated;
            ungradedStates += live;
        }
        levelTransitions = transitions;
    }

    void write(DataOutputStream out) throws IOException {
        out.writeLong(levelTransitions);
        out.writeLong(ungradedTransitions);
        out.writeLong(ungradedStates);
        out.writeDouble(gradedOmission);
    }

    void read(DataInputStream in) throws IOException {
        levelTransitions = in.readLong();
        ungradedTransitions = in.readLong();
        ungradedStates = in.readLong();
        gradedOmission = in.readDouble();
    }

    /** A checkpoint written before the estimate was kept per level: all counted as TLC counts the whole search. */
    void beforePerLevel(long transitions, long states) {
        levelTransitions = transitions;
        ungradedTransitions = transitions;
        ungradedStates = states;
    }
}
