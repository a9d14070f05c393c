package kcheck.variantfile;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import kcheck.model.FieldSink;
import kcheck.model.LockSink;
import kcheck.model.Model;
import kcheck.model.Params;
import kcheck.model.Property;
import kcheck.model.StateSink;
import kcheck.model.StepInfo;
import kcheck.model.StepSink;

/**
 * A model around a variant file's code, as the engine, trace rebuilding and replay see it: every
 * call is delegated unchanged, inside a {@link Watchdog} section (expansion and initial states:
 * where the variant's code runs), and a failure carries the state it happened in
 * ({@link StepFailure}) so that {@link VariantFile#guard} can name the variant's line even when
 * the model found the problem after the variant's code had returned. Only variant files are
 * wrapped: built-in variants run unwrapped.
 */
final class GuardedModel implements Model {
    private final Model delegate;
    private final VariantFile file;
    private final Set<String> propertyIds;

    GuardedModel(Model delegate, VariantFile file, Set<String> propertyIds) {
        this.delegate = delegate;
        this.file = file;
        this.propertyIds = propertyIds;
    }

    /** The property ids the model was built for (to build the same model around the probed class). */
    Set<String> propertyIds() {
        return propertyIds;
    }

    static Set<String> ids(Model m) {
        Set<String> out = new LinkedHashSet<>();
        m.properties().forEach(p -> out.add(p.id()));
        return out;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public String variant() {
        return delegate.variant();
    }

    @Override
    public Params params() {
        return delegate.params();
    }

    @Override
    public int width() {
        return delegate.width();
    }

    @Override
    public void initial(StateSink out) {
        Watchdog.Section s = Watchdog.current();
        s.enter(file);
        try {
            delegate.initial(out);
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            throw StepFailure.of(this, StepFailure.Op.INITIAL, null, e);
        } finally {
            s.exit();
        }
    }

    @Override
    public void successors(long[] state, StepSink out) {
        Watchdog.Section s = Watchdog.current();
        s.enter(file);
        try {
            delegate.successors(state, out);
        } catch (StepSink.Stop e) {
            throw e;
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            throw StepFailure.of(this, StepFailure.Op.SUCCESSORS, state, e);
        } finally {
            s.exit();
        }
    }

    @Override
    public boolean isFinal(long[] state) {
        try {
            return delegate.isFinal(state);
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            throw StepFailure.of(this, StepFailure.Op.OTHER, state, e);
        }
    }

    @Override
    public List<Property> properties() {
        return delegate.properties();
    }

    @Override
    public List<String> actors() {
        return delegate.actors();
    }

    @Override
    public StepInfo describe(int actor, int action) {
        try {
            return delegate.describe(actor, action);
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            throw StepFailure.of(this, StepFailure.Op.OTHER, null, e);
        }
    }

    @Override
    public void decode(long[] state, FieldSink out) {
        describing(state, () -> delegate.decode(state, out));
    }

    @Override
    public void locks(long[] state, LockSink out) {
        describing(state, () -> delegate.locks(state, out));
    }

    /** A call that describes {@code state} for a trace (not on the search's hot path), its failure carrying the state. */
    private void describing(long[] state, Runnable call) {
        try {
            call.run();
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            throw StepFailure.of(this, StepFailure.Op.OTHER, state, e);
        }
    }

    @Override
    public List<String> reductions() {
        return delegate.reductions();
    }

    @Override
    public void canonicalize(long[] state) {
        try {
            delegate.canonicalize(state);
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            throw StepFailure.of(this, StepFailure.Op.OTHER, state, e);
        }
    }

    @Override
    public boolean partialOrder() {
        return delegate.partialOrder();
    }

    @Override
    public void footprints(long[] state, long[] step, long[] future) {
        try {
            delegate.footprints(state, step, future);
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            throw StepFailure.of(this, StepFailure.Op.OTHER, state, e);
        }
    }

    @Override
    public boolean acyclic() {
        return delegate.acyclic();
    }

    @Override
    public long rank(long[] state) {
        return delegate.rank(state);
    }

    @Override
    public Model fork() {
        return new GuardedModel(delegate.fork(), file, propertyIds);
    }

    /**
     * A failure inside the variant's model: the call, the state (a copy; null if none) and the
     * model instance it happened in, to re-run it on the probed class. The cause is what was thrown.
     */
    static final class StepFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        enum Op { CREATE, INITIAL, SUCCESSORS, OTHER }

        final transient GuardedModel model;
        final Op op;
        final long[] state;

        private StepFailure(GuardedModel model, Op op, long[] state, Throwable cause) {
            super(cause.toString(), cause, false, false);
            this.model = model;
            this.op = op;
            this.state = state == null ? null : state.clone();
        }

        static RuntimeException of(GuardedModel m, Op op, long[] state, Throwable e) {
            if (e instanceof StepFailure || e instanceof VariantFileException) {
                return (RuntimeException) e;
            }
            return new StepFailure(m, op, state, e);
        }

        Params params() {
            return model.params();
        }
    }
}
