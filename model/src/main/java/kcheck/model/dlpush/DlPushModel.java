package kcheck.model.dlpush;

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
 * The dl-push model (docs/models/dl-push.md): a pusher runs push_dl_task() for rq A while the
 * other CPUs run, in the window where double_lock_balance() dropped rq A's lock, the scheduler
 * operations that change the picked task. The four concerns live in {@link DlPushLayout} (packing),
 * {@link DlPushSteps} (steps, over the ported functions of {@link DlRq}), {@link DlPushProperties}
 * (monitors) and {@link DlPushDecoder} (traces).
 */
final class DlPushModel implements Model {
    private final String variant;
    private final Params params;
    private final FindLockLaterRq impl;
    private final DlPushLayout layout;
    private final DlPushDecoder decoder;
    private final List<Property> properties;
    private final DlPushSteps steps;

    DlPushModel(String variant, Params params, FindLockLaterRq impl, Set<String> selected) {
        this.variant = variant;
        this.params = params;
        this.impl = impl;
        this.layout = new DlPushLayout(params.integer("cpus"), params.integer("tasks"), params.integer("events"),
                params.get("preempt").equals("y"));
        this.decoder = new DlPushDecoder(layout, impl);
        this.properties = DlPushProperties.build(layout, selected);
        this.steps = new DlPushSteps(layout, impl);
    }

    private DlPushModel(DlPushModel o) {
        this.variant = o.variant;
        this.params = o.params;
        this.impl = o.impl;
        this.layout = o.layout;
        this.decoder = o.decoder;
        this.properties = o.properties;
        this.steps = new DlPushSteps(layout, impl);
    }

    @Override
    public Model fork() {
        return new DlPushModel(this);
    }

    @Override
    public String name() {
        return DlPushFactory.NAME;
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
    public boolean isFinal(long[] s) {
        return steps.isFinal(s);
    }

    @Override
    public List<Property> properties() {
        return properties;
    }

    @Override
    public List<String> actors() {
        return List.of("pusher (push_dl_task, rq A = CPU " + layout.rqA + ")", "other CPUs");
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
}
