package kcheck.model.lbredo;

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
 * The lb-redo model (docs/models/lb-redo.md): CPU 0 runs one {@code load_balance()} call of the
 * chosen variant over an {@link LbDomain}, while other CPUs may pull tasks from the CPUs outside
 * the local group.
 *
 * <p>Actors: "CPU 0", whose steps are the pieces of {@link LoadBalance#loadBalance} between the
 * points where other CPUs may act (the busiest search, the unlocked {@code nr_running} read,
 * the locked {@code detach_tasks()}, the redo decision), and "other CPUs", each of whose steps
 * takes one non-running task off a runqueue with at least two tasks, under that runqueue's lock.
 *
 * <p>The four concerns live in their own classes: {@link LbRedoLayout} (state packing),
 * {@link LbRedoSteps} (initial states, successors, symmetry), {@link LbRedoProperties} (property
 * monitors) and {@link LbRedoDecoder} (trace labels and fields). When the call returns, every
 * variable is dead and the state becomes the single final state.
 */
final class LbRedoModel implements Model {
    private final String variant;
    private final Params params;
    private final LoadBalance impl;
    private final LbRedoLayout layout;
    private final LbRedoDecoder decoder;
    private final List<Property> properties;
    private final LbRedoSteps steps;

    LbRedoModel(String variant, Params params, LoadBalance impl, LbDomain d, Set<String> selected) {
        this(variant, params, impl, d, selected, false);
    }

    /** With {@code exactCounters}, the loop counters are kept unabstracted (the reference for the abstraction's test). */
    LbRedoModel(String variant, Params params, LoadBalance impl, LbDomain d, Set<String> selected, boolean exactCounters) {
        this.variant = variant;
        this.params = params;
        this.impl = impl;
        this.layout = new LbRedoLayout(d, LbRedoMonitors.of(selected), variant, exactCounters);
        this.decoder = new LbRedoDecoder(layout, impl);
        this.properties = LbRedoProperties.build(layout, selected);
        this.steps = new LbRedoSteps(layout, impl);
    }

    private LbRedoModel(LbRedoModel o) {
        this.variant = o.variant;
        this.params = o.params;
        this.impl = o.impl;
        this.layout = o.layout;
        this.decoder = o.decoder;
        this.properties = o.properties;
        this.steps = new LbRedoSteps(layout, impl);
    }

    @Override
    public Model fork() {
        return new LbRedoModel(this);
    }

    @Override
    public String name() {
        return LbRedoFactory.NAME;
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
        return layout.width;
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
    public List<String> reductions() {
        return layout.d.symmetric ? List.of("cpu-symmetry: the CPUs outside the local group are interchangeable (same task "
                + "patterns up to renaming, busiest chosen among all of them): states are kept with those CPUs sorted "
                + "by (runqueue, in cpus, is busiest)") : List.of();
    }

    /** The counter horizon H (env.loop exact up to it; loop_break and loop_max from it up are one class). */
    int counterHorizon() {
        return layout.horizon;
    }

    @Override
    public void canonicalize(long[] s) {
        steps.canonicalize(s);
    }

    @Override
    public boolean isFinal(long[] s) {
        return steps.isFinal(s);
    }

    @Override
    public List<String> actors() {
        String cpu0 = "CPU 0 (" + switch (layout.d.idle) {
            case LbEnv.CPU_IDLE -> "idle";
            case LbEnv.CPU_NOT_IDLE -> "busy";
            default -> "newly idle";
        } + ")";
        return layout.d.pulls > 0 ? List.of(cpu0, "other CPUs") : List.of(cpu0);
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
    public List<Property> properties() {
        return properties;
    }
}
