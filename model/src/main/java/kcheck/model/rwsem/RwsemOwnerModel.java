package kcheck.model.rwsem;

import java.util.List;
import java.util.Set;

import kcheck.model.FieldSink;
import kcheck.model.Model;
import kcheck.model.Params;
import kcheck.model.Progress;
import kcheck.model.Property;
import kcheck.model.StateSink;
import kcheck.model.StepInfo;
import kcheck.model.StepSink;

/**
 * The rwsem-owner model (docs/models/rwsem-owner.md): {@code readers} readers and
 * {@code writers} writers, each running its recorded {@link TaskProgram} (the variant's own
 * code), over one rw_semaphore. This class only wires the model's four concerns together:
 * state packing ({@link RwsemLayout}), step enumeration ({@link RwsemSteps}), property monitors
 * and properties ({@link RwsemMonitors}, {@link RwsemProperties}), decoding for traces
 * ({@link RwsemDecoder}), plus the canonical forms ({@link RwsemSymmetry}).
 */
final class RwsemOwnerModel implements Model {
    private final String variant;
    private final Params params;
    private final RwsemLayout layout;
    private final RwsemMonitors monitors;
    private final RwsemDecoder decoder;
    private final TaskSymmetry taskSymmetry;
    private final List<Property> properties;
    /**
     * A fair progress property is selected: its step classes are tasks, and a canonical form that renames tasks would
     * let a cycle of canonical states take "task 1" steps that are another task's (a starved task would look served),
     * so the model then stores states as they are.
     */
    private final boolean fair;

    /* per-thread */
    private final RwsemSteps steps;
    private final RwsemSymmetry symmetry;

    RwsemOwnerModel(String variant, Params params, RwsemDomain dom, TaskProgram[] prog, boolean[] rt, RwsemLayout.Preempt preempt,
                    Set<String> selected) {
        this(variant, params, dom, prog, rt, preempt, selected, Wakeups.ATOMIC);
    }

    RwsemOwnerModel(String variant, Params params, RwsemDomain dom, TaskProgram[] prog, boolean[] rt, RwsemLayout.Preempt preempt,
                    Set<String> selected, Wakeups wakeups) {
        this.variant = variant;
        this.params = params;
        this.layout = new RwsemLayout(dom, prog, rt, preempt, selected, wakeups);
        this.monitors = new RwsemMonitors(layout);
        this.decoder = new RwsemDecoder(layout);
        this.taskSymmetry = RwsemSymmetry.tasks(layout);
        this.properties = new RwsemProperties(layout, decoder).build(selected);
        this.steps = new RwsemSteps(layout, monitors, decoder, variant);
        this.fair = properties.stream().anyMatch(p -> p instanceof Progress pr && pr.fair());
        this.symmetry = new RwsemSymmetry(layout, taskSymmetry, fair);
    }

    private RwsemOwnerModel(RwsemOwnerModel m) {
        this.variant = m.variant;
        this.params = m.params;
        this.layout = m.layout;
        this.monitors = m.monitors;
        this.decoder = m.decoder;
        this.taskSymmetry = m.taskSymmetry;
        this.properties = m.properties;
        this.steps = new RwsemSteps(layout, monitors, decoder, variant);
        this.fair = m.fair;
        this.symmetry = new RwsemSymmetry(layout, taskSymmetry, fair);
    }

    /** The packed layout (for tests and the thread-side monitors). */
    RwsemLayout layout() {
        return layout;
    }

    @Override
    public Model fork() {
        return new RwsemOwnerModel(this);
    }

    @Override
    public String name() {
        return RwsemOwnerFactory.NAME;
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
        long[] s = new long[layout.width];
        for (int t = 0; t < layout.n; t++) {
            layout.pc[t].set(s, layout.prog[t].root);
        }
        out.state(s);
    }

    @Override
    public void successors(long[] s, StepSink out) {
        steps.successors(s, out);
    }

    @Override
    public boolean isFinal(long[] s) {
        return layout.allDone(s) || layout.faulted(s) >= 0;  /* a fault ends the run: its verdict is its own property's */
    }

    @Override
    public List<String> reductions() {
        return symmetry.reductions();
    }

    @Override
    public void canonicalize(long[] s) {
        symmetry.canonicalize(s);
    }

    @Override
    public List<String> actors() {
        return decoder.actors();
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
