package kcheck.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import kcheck.engine.store.FingerprintStore;
import kcheck.engine.store.MemoryBudget;
import kcheck.model.Deadlock;
import kcheck.model.Invariant;
import kcheck.model.Metric;
import kcheck.model.Model;
import kcheck.model.Property;
import kcheck.model.StepProperty;

/**
 * Seeded random walks over concrete states, for state spaces beyond exhaustive reach. Every
 * enabled step's step properties are checked, the invariants of every visited state, and
 * deadlocks. A violation is minimised with {@link DeltaDebug} (keeping the same property
 * violated) before it is reported; once the run's deadline has passed, the minimisation stops
 * and the trace is reported as far as it got (still a violation, not yet a minimal one). Never
 * reports HOLDS: what it did not find, it did not rule out.
 */
final class RandomWalk {
    private final Model model;
    private final Options options;
    private final Deadline deadline;
    private final List<long[]> initial = new ArrayList<>();
    private final List<Property> props;
    private final RawTrace[] traces;
    private final long[][] max;
    private final RawTrace[][] witnesses;
    private final long start = System.nanoTime();
    private long steps;
    private long walks;
    private int deepest;

    RandomWalk(Model model, Options options, Deadline deadline) {
        this.model = model;
        this.options = options;
        this.deadline = deadline;
        model.initial(s -> initial.add(s.clone()));
        props = model.properties();
        traces = new RawTrace[props.size()];
        max = new long[props.size()][];
        witnesses = new RawTrace[props.size()][];
        for (int i = 0; i < props.size(); i++) {
            if (props.get(i) instanceof Metric m) {
                max[i] = new long[m.components()];
                Arrays.fill(max[i], Long.MIN_VALUE);
                witnesses[i] = new RawTrace[m.components()];
            }
        }
    }

    private record Step(int actor, int action, long[] to) {
    }

    private List<Step> enabled(long[] s) {
        List<Step> out = new ArrayList<>();
        model.successors(s, (a, b, n) -> out.add(new Step(a, b, n.clone())));
        return out;
    }

    RunResult run() {
        SplittableRandom rnd = new SplittableRandom(options.seed());
        FingerprintStore seen = new FingerprintStore(Options.DEFAULT_MAX_STATES, new MemoryBudget(options.memoryBytes()), false);
        long maxWalks = options.timeLimit() == null && options.maxStates() == Options.DEFAULT_MAX_STATES ? 1000 : Long.MAX_VALUE;
        String limit = "";
        long nextReport = System.nanoTime() + 1_000_000_000L;
        while (!allViolated()) {
            if (walks >= maxWalks) {
                limit = maxWalks + " walks";
                break;
            }
            String stop = deadline.reason();
            if (stop != null) {
                limit = stop;
                break;
            }
            if (seen.size() >= options.maxStates()) {
                limit = "state limit " + options.maxStates();
                break;
            }
            walks++;
            int init = rnd.nextInt(initial.size());
            long[] cur = initial.get(init).clone();
            List<long[]> states = new ArrayList<>(List.of(cur));
            List<int[]> path = new ArrayList<>();
            seen.add(cur, Hashing.hash(cur, 0, cur.length));
            checkState(init, states, path);
            for (int d = 0; d < options.walkDepth() && !allViolated(); d++) {
                if ((d & 0xFFF) == 0xFFF && deadline.passed()) {
                    break; /* a long walk ends at the deadline too; the outer loop then stops, naming it */
                }
                List<Step> next = enabled(cur);
                if (next.isEmpty()) {
                    checkDeadlock(init, states, path, cur);
                    break;
                }
                for (Step st : next) {
                    checkStep(init, states, path, cur, st);
                }
                Step st = next.get(rnd.nextInt(next.size()));
                path.add(new int[] {st.actor, st.action});
                states.add(st.to);
                cur = st.to;
                steps++;
                deepest = Math.max(deepest, path.size());
                seen.add(cur, Hashing.hash(cur, 0, cur.length));
                checkState(init, states, path);
            }
            if (System.nanoTime() > nextReport) {
                nextReport = System.nanoTime() + 1_000_000_000L;
                options.listener().progress(new ProgressListener.Progress(seen.size(), steps, 0, deepest,
                        (System.nanoTime() - start) / 1e9, seen.bytes()));
            }
        }
        List<PropertyResult> out = new ArrayList<>();
        for (int i = 0; i < props.size(); i++) {
            Property p = props.get(i);
            MetricResult mr = null;
            if (p instanceof Metric m) {
                List<String> names = new ArrayList<>();
                for (int c = 0; c < m.components(); c++) {
                    names.add(m.componentName(c));
                }
                mr = new MetricResult(names, max[i], witnesses[i], m.bound(), m.saturation());
            }
            if (traces[i] != null) {
                out.add(new PropertyResult(p.id(), p.kind(), p.description(), Verdict.VIOLATED, traces[i].message(), traces[i], mr));
            } else {
                String walked = "random walk: " + walks + " walks, " + steps + " steps";
                out.add(new PropertyResult(p.id(), p.kind(), p.description(), Verdict.INCOMPLETE, mr != null && mr.bound() == Long.MAX_VALUE
                        ? "maximum so far " + mr.format(mr.overall()) + " (" + walked + ": a lower bound)"
                        : walked + ", no violation (a random walk never proves HOLDS)", null, mr));
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        RunResult.Stats stats = new RunResult.Stats(Strategy.RANDOM, StoreMode.FINGERPRINT, seen.size(), steps, deepest,
                seconds, seen.bytes(), (double) seen.bytes() / Math.max(1, seen.size()), 0, 1, List.of(), false,
                limit.isEmpty() ? walks + " walks" : limit, 0, options.seed(), 0, false, 0, java.util.Map.of());
        return new RunResult(model, stats, out);
    }

    private boolean allViolated() {
        for (int i = 0; i < props.size(); i++) {
            Property p = props.get(i);
            if (traces[i] == null && !(p instanceof kcheck.model.Progress)) {
                return false;
            }
            if (p instanceof Metric) {
                return false;
            }
        }
        return true;
    }

    private void checkState(int init, List<long[]> states, List<int[]> path) {
        long[] s = states.get(states.size() - 1);
        for (int i = 0; i < props.size(); i++) {
            Property p = props.get(i);
            if (traces[i] == null && p instanceof Invariant inv && !inv.holds(s)) {
                traces[i] = minimise(i, init, path, -1, -1, inv.explain(s));
            } else if (p instanceof Metric m) {
                for (int c = 0; c < m.components(); c++) {
                    long v = m.value(s, c);
                    if (v > max[i][c]) {
                        max[i][c] = v;
                        witnesses[i][c] = trace(init, path, -1, -1, m.id() + " of " + m.componentName(c) + " reaches " + v, -1);
                        if (v > m.bound() && traces[i] == null) {
                            traces[i] = witnesses[i][c];
                        }
                    }
                }
            }
        }
    }

    private void checkStep(int init, List<long[]> states, List<int[]> path, long[] cur, Step st) {
        for (int i = 0; i < props.size(); i++) {
            if (traces[i] == null && props.get(i) instanceof StepProperty sp && !sp.holds(cur, st.actor, st.action, st.to)) {
                traces[i] = minimise(i, init, path, st.actor, st.action, sp.explain(cur, st.actor, st.action, st.to));
            }
        }
    }

    private void checkDeadlock(int init, List<long[]> states, List<int[]> path, long[] cur) {
        for (int i = 0; i < props.size(); i++) {
            if (traces[i] == null && props.get(i) instanceof Deadlock && !model.isFinal(cur)) {
                traces[i] = minimise(i, init, path, -1, -1, "no step is enabled and not every actor has finished");
            }
        }
    }

    /** The walk as a trace, with an optional final violating step. */
    private RawTrace trace(int init, List<int[]> path, int actor, int action, String msg, int before) {
        List<int[]> steps = new ArrayList<>(path);
        if (actor >= 0) {
            steps.add(new int[] {actor, action});
        }
        List<long[]> states = replay(init, steps);
        int[] actors = steps.stream().mapToInt(a -> a[0]).toArray();
        int[] actions = steps.stream().mapToInt(a -> a[1]).toArray();
        return new RawTrace(states, actors, actions, -1, steps.size(), msg, before);
    }

    /** Re-executes steps by (actor, action); null if one is not enabled. */
    private List<long[]> replay(int init, List<int[]> steps) {
        List<int[]> executed = new ArrayList<>();
        List<long[]> states = replayLenient(init, steps, executed);
        return executed.size() == steps.size() ? states : null;
    }

    /**
     * Re-executes steps by (actor, action), skipping those not enabled where they come (so that
     * removing one step of an actor drops its now-impossible later steps instead of failing the
     * whole candidate); {@code executed} receives the steps taken.
     */
    private List<long[]> replayLenient(int init, List<int[]> steps, List<int[]> executed) {
        long[] cur = initial.get(init).clone();
        List<long[]> states = new ArrayList<>(List.of(cur));
        for (int[] st : steps) {
            long[][] found = new long[1][];
            model.successors(cur, (a, b, n) -> {
                if (found[0] == null && a == st[0] && b == st[1]) {
                    found[0] = n.clone();
                }
            });
            if (found[0] == null) {
                continue;
            }
            cur = found[0];
            states.add(cur);
            executed.add(st);
        }
        return states;
    }

    /** Delta-debugs the walk (plus the violating step, if any) keeping property {@code i} violated by its last step or state. */
    private RawTrace minimise(int i, int init, List<int[]> path, int actor, int action, String msg) {
        List<int[]> steps = new ArrayList<>(path);
        if (actor >= 0) {
            steps.add(new int[] {actor, action});
        }
        int before = steps.size();
        List<int[]> min = DeltaDebug.minimise(steps, cand -> violatesAtEnd(i, init, cand), DeltaDebug.MAX_TESTS, deadline::passed);
        List<int[]> executed = new ArrayList<>();
        replayLenient(init, min, executed);
        min = executed;
        List<long[]> states = replay(init, min);
        int n = min.size();
        String m = explain(i, states, min, msg);
        return new RawTrace(states, min.stream().mapToInt(a -> a[0]).toArray(), min.stream().mapToInt(a -> a[1]).toArray(),
                -1, n, m, before);
    }

    private boolean violatesAtEnd(int i, int init, List<int[]> candidate) {
        List<int[]> steps = new ArrayList<>();
        List<long[]> states = replayLenient(init, candidate, steps);
        long[] last = states.get(states.size() - 1);
        Property p = props.get(i);
        if (p instanceof Invariant inv) {
            return !inv.holds(last);
        }
        if (p instanceof StepProperty sp) {
            if (steps.isEmpty()) {
                return false;
            }
            int[] st = steps.get(steps.size() - 1);
            return !sp.holds(states.get(states.size() - 2), st[0], st[1], last);
        }
        if (p instanceof Deadlock) {
            return enabled(last).isEmpty() && !model.isFinal(last);
        }
        return false;
    }

    private String explain(int i, List<long[]> states, List<int[]> steps, String fallback) {
        Property p = props.get(i);
        long[] last = states.get(states.size() - 1);
        if (p instanceof Invariant inv) {
            return inv.explain(last);
        }
        if (p instanceof StepProperty sp && !steps.isEmpty()) {
            int[] st = steps.get(steps.size() - 1);
            return sp.explain(states.get(states.size() - 2), st[0], st[1], last);
        }
        return fallback;
    }
}
