package kcheck.model.rqlock;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import kcheck.model.FieldSink;
import kcheck.model.Model;
import kcheck.model.Params;
import kcheck.model.Property;
import kcheck.model.StateSink;
import kcheck.model.StepInfo;
import kcheck.model.StepSink;

/**
 * The rq-lock model (docs/models/rq-lock.md): N CPUs, each running {@code rounds} balancing passes
 * around {@code double_lock_balance()}, over the variant's runqueue spinlock. The concerns live in
 * their own classes: {@link RqLockProgram} (the recorded reference code), {@link RqLockLayout}
 * (state packing), {@link RqLockSteps} (step enumeration, partial-order footprints, canonical form),
 * {@link RqLockProperties} (property monitors), {@link RqLockDecoder} (traces).
 */
final class RqLockModel implements Model {
    private final String variant;
    private final Params params;
    private final RqLockLayout lay;
    private final RqLockSteps steps;
    private final RqLockDecoder decoder;
    /** Null if the step counts depend on the path taken (a spinlock with loops or uneven paths). */
    private final RqLockRank rank;
    private final List<Property> properties;

    RqLockModel(String variant, Params params, RqLockProgram prog, Set<String> selected) {
        this.variant = variant;
        this.params = params;
        this.lay = new RqLockLayout(prog, params, selected);
        this.steps = new RqLockSteps(lay, selected.contains("mutual-exclusion"));
        this.rank = lay.forever ? null : RqLockRank.of(lay);
        RqLockProperties props = new RqLockProperties(lay, steps);
        this.properties = props.build(selected);
        this.decoder = new RqLockDecoder(lay, steps, props);
    }

    private RqLockModel(RqLockModel m) {
        this.variant = m.variant;
        this.params = m.params;
        this.lay = m.lay;
        this.rank = m.rank;
        this.steps = m.steps.fork();
        this.decoder = m.decoder;
        this.properties = m.properties;
    }

    @Override
    public Model fork() {
        return new RqLockModel(this);
    }

    @Override
    public String name() {
        return RqLockFactory.NAME;
    }

    @Override
    public String variant() {
        return variant;
    }

    @Override
    public Params params() {
        return params;
    }

    @Override
    public int width() {
        return lay.width;
    }

    @Override
    public void initial(StateSink out) {
        steps.initial(out);
    }

    @Override
    public void successors(long[] s, StepSink out) {
        steps.successors(s, out);
    }

    @Override
    public boolean isFinal(long[] s) {
        return steps.isFinal(s);
    }

    @Override
    public List<String> reductions() {
        List<String> out = new ArrayList<>();
        if (lay.spinlock.reduction() != null) {
            out.add(lay.spinlock.reduction());
        }
        out.add("partial-order (ample sets of one CPU's invisible steps on lock words no other CPU will touch)");
        if (lay.watchOne) {
            out.add("fifo-monitor=one (fifo-entry's monitor keeps the waiting-at-entry set of one call, the one the search chose"
                    + " to watch, not of every call; the parameter, not --no-reduction, switches it)");
        }
        return out;
    }

    @Override
    public boolean partialOrder() {
        return true;
    }

    /** The program is a tree per pass; only a spinlock with a retry loop (virt_spin_lock) can revisit a state. */
    @Override
    public boolean acyclic() {
        return !lay.forever && !lay.spinlock.hasLoops();
    }

    /** The CPUs' steps taken: every step is one CPU's and advances its place in a tree-shaped program. */
    @Override
    public long rank(long[] s) {
        return rank == null ? -1 : rank.of(s);
    }

    @Override
    public void footprints(long[] s, long[] step, long[] future) {
        steps.footprints(s, step, future);
    }

    @Override
    public void canonicalize(long[] s) {
        steps.canonicalize(s);
    }

    @Override
    public List<String> actors() {
        List<String> out = new ArrayList<>();
        for (int c = 0; c < lay.n; c++) {
            out.add("CPU " + c);
        }
        return out;
    }

    @Override
    public StepInfo describe(int actor, int action) {
        return decoder.describe(actor, action);
    }

    @Override
    public void decode(long[] s, FieldSink out) {
        decoder.decode(s, out);
    }

    @Override
    public void locks(long[] s, kcheck.model.LockSink out) {
        decoder.locks(s, out);
    }

    @Override
    public List<Property> properties() {
        return properties;
    }
}
