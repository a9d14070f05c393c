package kcheck.engine;

import java.util.ArrayList;
import java.util.List;

import kcheck.model.Deadlock;
import kcheck.model.Invariant;
import kcheck.model.Metric;
import kcheck.model.Model;
import kcheck.model.Progress;
import kcheck.model.Property;
import kcheck.model.StepProperty;

/**
 * The selected properties of one run, split by kind, with what has been found so far: the
 * first (shallowest) violation of each, and each metric component's maximum and witness.
 * Recording is synchronised; the hot checks read plain arrays.
 */
final class Checks {
    final Invariant[] invariants;
    final StepProperty[] steps;
    final Metric[] metrics;
    final Progress[] progress;
    final Deadlock deadlock;

    final Violation[] invariantViolations;
    final Violation[] stepViolations;
    final Violation[] metricViolations;
    Violation deadlockViolation;
    final ProgressCycles.Lasso[] progressLassos;
    /** Progress properties whose cycle analysis stopped (time limit, stop request) before deciding them. */
    final boolean[] progressUndecided;

    /** [metric][component]: maximum so far, and the id and depth of the first state reaching it. */
    final long[][] max;
    final long[][] witness;
    final int[][] witnessDepth;

    /** Number of properties (not metrics without bound, not progress) still open. */
    private int open;
    private volatile boolean allSafetyViolated;

    Checks(Model model) {
        List<Invariant> inv = new ArrayList<>();
        List<StepProperty> st = new ArrayList<>();
        List<Metric> me = new ArrayList<>();
        List<Progress> pr = new ArrayList<>();
        Deadlock dl = null;
        for (Property p : model.properties()) {
            if (p instanceof Invariant i) {
                inv.add(i);
            } else if (p instanceof StepProperty s) {
                st.add(s);
            } else if (p instanceof Metric m) {
                me.add(m);
            } else if (p instanceof Progress g) {
                pr.add(g);
            } else if (p instanceof Deadlock d) {
                dl = d;
            }
        }
        invariants = inv.toArray(Invariant[]::new);
        steps = st.toArray(StepProperty[]::new);
        metrics = me.toArray(Metric[]::new);
        progress = pr.toArray(Progress[]::new);
        deadlock = dl;
        invariantViolations = new Violation[invariants.length];
        stepViolations = new Violation[steps.length];
        metricViolations = new Violation[metrics.length];
        progressLassos = new ProgressCycles.Lasso[progress.length];
        progressUndecided = new boolean[progress.length];
        max = new long[metrics.length][];
        witness = new long[metrics.length][];
        witnessDepth = new int[metrics.length][];
        for (int m = 0; m < metrics.length; m++) {
            int c = metrics[m].components();
            max[m] = new long[c];
            java.util.Arrays.fill(max[m], Long.MIN_VALUE);
            witness[m] = new long[c];
            witnessDepth[m] = new int[c];
        }
        open = invariants.length + steps.length + (deadlock != null ? 1 : 0);
        allSafetyViolated = open == 0 && metrics.length == 0 && progress.length == 0;
    }

    /** True once every property is decided and nothing is left to measure: the search may stop. */
    boolean done() {
        return allSafetyViolated;
    }

    boolean needsFullGraph() {
        return progress.length > 0;
    }

    /** Checks the invariants and metrics of a newly found state. */
    void onState(long id, long[] s, int depth) {
        for (int i = 0; i < invariants.length; i++) {
            if (invariantViolations[i] == null && !invariants[i].holds(s)) {
                recordInvariant(i, id, depth, invariants[i].explain(s));
            }
        }
        for (int m = 0; m < metrics.length; m++) {
            Metric metric = metrics[m];
            long[] mx = max[m];
            for (int c = 0; c < mx.length; c++) {
                long v = metric.value(s, c);
                if (v > mx[c]) {
                    recordMax(m, c, v, id, depth);
                }
            }
        }
    }

    /** Checks the step properties of one step; returns false if one was newly violated. */
    void onStep(long fromId, int ordinal, long[] from, int actor, int action, long[] to, int depth) {
        for (int i = 0; i < steps.length; i++) {
            if (stepViolations[i] == null && !steps[i].holds(from, actor, action, to)) {
                recordStep(i, fromId, ordinal, depth, steps[i].explain(from, actor, action, to));
            }
        }
    }

    synchronized void recordInvariant(int i, long id, int depth, String msg) {
        if (invariantViolations[i] == null || invariantViolations[i].depth() > depth) {
            if (invariantViolations[i] == null) {
                decided();
            }
            invariantViolations[i] = new Violation(id, -1, depth, msg);
        }
    }

    synchronized void recordStep(int i, long id, int ordinal, int depth, String msg) {
        if (stepViolations[i] == null || stepViolations[i].depth() > depth) {
            if (stepViolations[i] == null) {
                decided();
            }
            stepViolations[i] = new Violation(id, ordinal, depth, msg);
        }
    }

    synchronized void recordDeadlock(long id, int depth, String msg) {
        if (deadlock != null && (deadlockViolation == null || deadlockViolation.depth() > depth)) {
            if (deadlockViolation == null) {
                decided();
            }
            deadlockViolation = new Violation(id, -1, depth, msg);
        }
    }

    synchronized void recordMax(int m, int c, long v, long id, int depth) {
        if (v > max[m][c] || (v == max[m][c] && depth < witnessDepth[m][c])) {
            max[m][c] = v;
            witness[m][c] = id;
            witnessDepth[m][c] = depth;
            if (v > metrics[m].bound() && (metricViolations[m] == null || metricViolations[m].depth() > depth)) {
                metricViolations[m] = new Violation(id, -1, depth,
                        metrics[m].id() + " of " + metrics[m].componentName(c) + " reaches " + v + " > bound " + metrics[m].bound());
            }
        }
    }

    private void decided() {
        open--;
        if (open == 0 && metrics.length == 0 && progress.length == 0) {
            allSafetyViolated = true;
        }
    }

    /** Writes what was found so far (a checkpoint of the disk search). */
    synchronized void write(java.io.DataOutputStream out) throws java.io.IOException {
        writeAll(out, invariantViolations);
        writeAll(out, stepViolations);
        writeAll(out, metricViolations);
        writeOne(out, deadlockViolation);
        for (int m = 0; m < metrics.length; m++) {
            for (int c = 0; c < max[m].length; c++) {
                out.writeLong(max[m][c]);
                out.writeLong(witness[m][c]);
                out.writeInt(witnessDepth[m][c]);
            }
        }
        out.writeInt(open);
        out.writeBoolean(allSafetyViolated);
    }

    /** Restores what {@link #write} wrote (same model and properties). */
    synchronized void read(java.io.DataInputStream in) throws java.io.IOException {
        readAll(in, invariantViolations);
        readAll(in, stepViolations);
        readAll(in, metricViolations);
        deadlockViolation = readOne(in);
        for (int m = 0; m < metrics.length; m++) {
            for (int c = 0; c < max[m].length; c++) {
                max[m][c] = in.readLong();
                witness[m][c] = in.readLong();
                witnessDepth[m][c] = in.readInt();
            }
        }
        open = in.readInt();
        allSafetyViolated = in.readBoolean();
    }

    private static void writeAll(java.io.DataOutputStream out, Violation[] vs) throws java.io.IOException {
        out.writeInt(vs.length);
        for (Violation v : vs) {
            writeOne(out, v);
        }
    }

    private static void writeOne(java.io.DataOutputStream out, Violation v) throws java.io.IOException {
        out.writeBoolean(v != null);
        if (v != null) {
            out.writeLong(v.stateId());
            out.writeInt(v.ordinal());
            out.writeInt(v.depth());
            out.writeUTF(v.message().length() > 20_000 ? v.message().substring(0, 20_000) : v.message());
        }
    }

    private static void readAll(java.io.DataInputStream in, Violation[] vs) throws java.io.IOException {
        if (in.readInt() != vs.length) {
            throw new java.io.IOException("checkpoint was written for other properties");
        }
        for (int i = 0; i < vs.length; i++) {
            vs[i] = readOne(in);
        }
    }

    private static Violation readOne(java.io.DataInputStream in) throws java.io.IOException {
        if (!in.readBoolean()) {
            return null;
        }
        return new Violation(in.readLong(), in.readInt(), in.readInt(), in.readUTF());
    }

    /**
     * Adds what another search of the same model found (a partition of a partitioned search):
     * the shallower violation of each property (on a tie, the smaller id), the larger maximum of
     * each metric component (on a tie, the shallower witness).
     */
    synchronized void merge(Checks o) {
        for (int i = 0; i < invariantViolations.length; i++) {
            invariantViolations[i] = first(invariantViolations[i], o.invariantViolations[i]);
        }
        for (int i = 0; i < stepViolations.length; i++) {
            stepViolations[i] = first(stepViolations[i], o.stepViolations[i]);
        }
        for (int i = 0; i < metricViolations.length; i++) {
            metricViolations[i] = first(metricViolations[i], o.metricViolations[i]);
        }
        deadlockViolation = first(deadlockViolation, o.deadlockViolation);
        for (int m = 0; m < metrics.length; m++) {
            for (int c = 0; c < max[m].length; c++) {
                long v = o.max[m][c];
                if (v > max[m][c] || (v == max[m][c] && v != Long.MIN_VALUE && (o.witnessDepth[m][c] < witnessDepth[m][c]
                        || (o.witnessDepth[m][c] == witnessDepth[m][c] && o.witness[m][c] < witness[m][c])))) {
                    max[m][c] = v;
                    witness[m][c] = o.witness[m][c];
                    witnessDepth[m][c] = o.witnessDepth[m][c];
                }
            }
        }
        int violated = 0;
        for (Violation v : invariantViolations) {
            violated += v != null ? 1 : 0;
        }
        for (Violation v : stepViolations) {
            violated += v != null ? 1 : 0;
        }
        violated += deadlock != null && deadlockViolation != null ? 1 : 0;
        open = invariants.length + steps.length + (deadlock != null ? 1 : 0) - violated;
        allSafetyViolated = open == 0 && metrics.length == 0 && progress.length == 0;
    }

    private static Violation first(Violation a, Violation b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        if (b.depth() != a.depth()) {
            return b.depth() < a.depth() ? b : a;
        }
        return b.stateId() < a.stateId() ? b : a;
    }
}
