package kcheck.engine;

import java.util.ArrayList;
import java.util.List;

import kcheck.engine.store.ExactStore;
import kcheck.model.Metric;
import kcheck.model.Property;

/** Turns a finished search into verdicts and traces. HOLDS only when the search was complete. */
final class ResultBuilder {
    private final Search s;
    private final boolean complete;
    private final TraceRebuilder traces;

    ResultBuilder(Search s, boolean complete) {
        this.s = s;
        this.complete = complete;
        this.traces = new TraceRebuilder(s.model, s.options.reductions(), s.initial, s.traceLinks());
    }

    RunResult build() {
        Checks c = s.checks;
        List<PropertyResult> out = new ArrayList<>();
        for (Property p : s.model.properties()) {
            out.add(switch (p.kind()) {
                case INVARIANT -> stateResult(p, c.invariantViolations[indexOf(c.invariants, p)]);
                case STEP -> stepResult(p, indexOf(c.steps, p));
                case DEADLOCK -> stateResult(p, c.deadlockViolation);
                case METRIC -> metricResult((Metric) p, indexOf(c.metrics, p));
                case PROGRESS -> progressResult(p, indexOf(c.progress, p));
            });
        }
        return new RunResult(s.model, stats(), out);
    }

    private static int indexOf(Object[] a, Object p) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == p) {
                return i;
            }
        }
        throw new IllegalStateException();
    }

    private Verdict open() {
        return complete ? Verdict.HOLDS : Verdict.INCOMPLETE;
    }

    private String openMessage() {
        return complete ? "exhaustive: no violation in " + s.states() + " states"
                : "no violation found before the search stopped (" + (s.limitReason.isEmpty() ? "not exhaustive" : s.limitReason) + ")";
    }

    private PropertyResult stateResult(Property p, Violation v) {
        if (v == null) {
            return new PropertyResult(p.id(), p.kind(), p.description(), open(), openMessage(), null, null);
        }
        TraceRebuilder.Path path = traces.path(v.stateId(), List.of(), null);
        String msg = v.message();
        if (p instanceof kcheck.model.Invariant inv) {
            msg = inv.explain(path.states.get(path.states.size() - 1));
        }
        RawTrace t = path.toTrace(-1, path.actors.size(), msg);
        return new PropertyResult(p.id(), p.kind(), p.description(), Verdict.VIOLATED, msg, t, null);
    }

    private PropertyResult stepResult(Property p, int i) {
        Violation v = s.checks.stepViolations[i];
        if (v == null) {
            return new PropertyResult(p.id(), p.kind(), p.description(), open(), openMessage(), null, null);
        }
        kcheck.model.StepProperty sp = s.checks.steps[i];
        TraceRebuilder.Path path = traces.path(v.stateId(), List.of(v.ordinal()),
                (from, actor, action, to) -> !sp.holds(from, actor, action, to));
        int n = path.actors.size();
        String msg = sp.explain(path.states.get(n - 1), path.actors.get(n - 1), path.actions.get(n - 1), path.states.get(n));
        RawTrace t = path.toTrace(-1, n, msg);
        return new PropertyResult(p.id(), p.kind(), p.description(), Verdict.VIOLATED, msg, t, null);
    }

    private PropertyResult metricResult(Metric m, int i) {
        Checks c = s.checks;
        int n = m.components();
        List<String> names = new ArrayList<>();
        RawTrace[] witnesses = new RawTrace[n];
        long[] max = c.max[i].clone();
        /*
         * a witness of a maximum is a convenience, not a verdict's evidence: once the run's deadline
         * has passed it is not rebuilt (at thousands of CPUs each step of it enumerates tens of
         * thousands of wide successors, seconds past the limit the user gave)
         */
        boolean rebuild = complete || !s.deadline.passed();
        for (int k = 0; k < n; k++) {
            names.add(m.componentName(k));
            if (max[k] != Long.MIN_VALUE && rebuild) {
                TraceRebuilder.Path path = traces.path(c.witness[i][k], List.of(), null);
                witnesses[k] = path.toTrace(-1, path.actors.size(),
                        m.id() + " of " + m.componentName(k) + " reaches " + max[k]);
            }
        }
        MetricResult mr = new MetricResult(names, max, witnesses, m.bound(), m.saturation());
        Violation v = c.metricViolations[i];
        if (v != null) {
            TraceRebuilder.Path path = traces.path(v.stateId(), List.of(), null);
            return new PropertyResult(m.id(), m.kind(), m.description(), Verdict.VIOLATED, v.message(),
                    path.toTrace(-1, path.actors.size(), v.message()), mr);
        }
        String msg = (complete ? "maximum " : "maximum so far ") + mr.format(mr.overall())
                + (m.bound() == Long.MAX_VALUE ? "" : " \u2264 bound " + m.bound());
        return new PropertyResult(m.id(), m.kind(), m.description(), open(), msg, null, mr);
    }

    private PropertyResult progressResult(Property p, int i) {
        ProgressCycles.Lasso l = s.checks.progressLassos[i];
        if (l == null && s.checks.progressUndecided[i]) {
            return new PropertyResult(p.id(), p.kind(), p.description(), Verdict.INCOMPLETE, "exhaustive search of " + s.states()
                    + " states, but the cycle analysis after it stopped (" + s.limitReason + ") before deciding this property",
                    null, null);
        }
        if (l == null) {
            boolean ok = complete && s.exactStore();
            return new PropertyResult(p.id(), p.kind(), p.description(), ok ? Verdict.HOLDS : Verdict.INCOMPLETE,
                    ok ? "exhaustive: no cycle without progress in " + s.states() + " states" : openMessage(), null, null);
        }
        int stem = traces.ordinals(l.stem()).size() - 1;
        TraceRebuilder.Path path = traces.path(l.stem(), l.cycle(), null);
        String msg = "a cycle of " + l.cycle().size() + " steps without progress repeats forever (after " + stem + " steps)";
        return new PropertyResult(p.id(), p.kind(), p.description(), Verdict.VIOLATED, msg,
                path.toTrace(stem, path.actors.size(), msg), null);
    }

    private RunResult.Stats stats() {
        long states = s.states();
        double bps = s.store instanceof ExactStore e ? e.bytesPerState()
                : (double) s.storeBytes() / Math.max(1, states);
        double omission = s.omission();
        List<String> reductions = s.options.reductions() ? s.model.reductions() : List.of();
        StoreMode mode = s.exactStore() ? StoreMode.EXACT : s.options.store() == StoreMode.EXACT ? StoreMode.FINGERPRINT
                : s.options.store();
        return new RunResult.Stats(s.options.strategy(), mode, states,
                s.transitions, s.depth, s.seconds(), s.storeBytes(), bps, s.linkBytesPerState(),
                Math.max(1, s.options.workers()), reductions, complete, s.limitReason, omission, s.options.seed(),
                s.ampleStates, false, s.diskBytes(), s.analysisSeconds);
    }
}
