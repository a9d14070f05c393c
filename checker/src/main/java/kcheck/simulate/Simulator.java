package kcheck.simulate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.ToIntFunction;
import java.util.random.RandomGenerator;

import kcheck.model.Model;
import kcheck.model.SimulationProfile;
import kcheck.model.SimulationRun;

/**
 * One worker's simulator: runs of one model instance under the stochastic scheduler that
 * {@link SimulationRun} describes (a discrete-event simulation of the model's own steps, taken
 * from {@link Model#successors}: the simulator never takes a step the model does not offer).
 * Not thread-safe: one per worker, each with its own {@link Model#fork() fork} of the instance.
 */
final class Simulator implements SimulationRun.Context {
    /** Caps the state memo ({@link #memo}); it is cleared when full. */
    private static final int MEMO_LIMIT = 1 << 18;

    private final SimulationProfile profile;
    private final Model model;
    private final String workload;
    private final CostModel costs;
    private final int cpus;
    private final int[] components;
    private final long maxSteps;
    private final int actors;
    private final List<long[]> initial = new ArrayList<>();
    private final LongIntMap kinds = new LongIntMap();
    private final Map<Long, String> labels = new HashMap<>();
    private final Map<StateKey, Integer> memo = new HashMap<>();

    /* the enabled steps of the current state */
    private int count;
    private int[] eActor = new int[16];
    private int[] eAction = new int[16];
    private double[] eRate = new double[16];
    private double[] eWeight = new double[16];
    private long[][] eNext = new long[16][];
    private double envRate;
    private final boolean[] program;

    /* per actor */
    private final double[] busy;
    private final double[] fire;
    private final int[] committed;
    private final long[] tie;

    /* per run */
    private SplittableRandom rnd;
    private Samples samples;
    private SimulationRun run;

    /** What a run did. */
    record Outcome(Samples samples, long steps, double time, String end, int initial, int[] actors, int[] actions, double[] times) {
    }

    /** The end of a run that {@link #stop} cut short: the simulation does not count it. */
    static final String STOPPED = "stopped";

    /** Asked every 4,096 steps of a run: true ends it ({@link #STOPPED}). */
    private final BooleanSupplier stop;

    Simulator(SimulationProfile profile, Model model, String workload, CostModel costs, int cpus, long maxSteps) {
        this(profile, model, workload, costs, cpus, maxSteps, () -> false);
    }

    Simulator(SimulationProfile profile, Model model, String workload, CostModel costs, int cpus, long maxSteps, BooleanSupplier stop) {
        this.stop = stop;
        this.profile = profile;
        this.model = model;
        this.workload = workload;
        this.costs = costs;
        this.cpus = cpus;
        this.maxSteps = maxSteps;
        this.actors = model.actors().size();
        model.initial(s -> initial.add(s.clone()));
        List<SimulationProfile.Measure> ms = profile.measures();
        components = new int[ms.size()];
        for (int m = 0; m < components.length; m++) {
            components[m] = ms.get(m).perCpu() ? cpus : 1;
        }
        program = new boolean[actors];
        busy = new double[actors];
        fire = new double[actors];
        committed = new int[actors];
        tie = new long[actors];
        for (int i = 0; i < eNext.length; i++) {
            eNext[i] = new long[model.width()];
        }
    }

    /** One run from seed {@code seed}; with {@code record} the steps it took (for replay and traces). */
    Outcome run(long seed, boolean record) {
        rnd = new SplittableRandom(seed);
        samples = new Samples(components);
        run = profile.start(model, workload, this);
        int init = initial.size() == 1 ? 0 : run.initial(initial.size(), rnd);
        long[] state = initial.get(init).clone();
        for (int a = 0; a < actors; a++) {
            busy[a] = Math.max(0, run.start(a));
            fire[a] = Double.NaN;
            committed[a] = -1;
        }
        IntList recActors = record ? new IntList() : null;
        IntList recActions = record ? new IntList() : null;
        DoubleList recTimes = record ? new DoubleList() : null;
        double horizon = run.horizon();
        double now = 0;
        long steps = 0;
        String end;
        boolean dirty = true;
        while (true) {
            if (dirty) {
                expand(state);
                schedule(now);
                dirty = false;
            }
            int who = -1;
            double t = Double.POSITIVE_INFINITY;
            for (int a = 0; a < actors; a++) {
                double f = fire[a];
                if (f < t || (f == t && who >= 0 && tie[a] < tie[who])) {
                    t = f;
                    who = a;
                }
            }
            double tEnv = envRate > 0 ? now - Math.log1p(-rnd.nextDouble()) / envRate : Double.POSITIVE_INFINITY;
            double next = Math.min(t, tEnv);
            if (next == Double.POSITIVE_INFINITY) {
                end = model.isFinal(state) ? "final" : "deadlock";
                break;
            }
            if (next > horizon) {
                now = horizon;
                end = "horizon";
                break;
            }
            if (steps >= maxSteps) {
                end = "step limit";
                break;
            }
            if ((steps & 0xFFF) == 0xFFF && stop.getAsBoolean()) {
                end = STOPPED;
                break;
            }
            int taken;
            if (tEnv < t) {
                now = tEnv;
                taken = pickEnvironment();
            } else {
                now = t;
                taken = fire(who, now, state);
                if (taken < 0) {
                    continue;
                }
            }
            int a = eActor[taken];
            long[] from = state;
            state = eNext[taken];
            eNext[taken] = from;
            double b = run.step(a, eAction[taken], from, state, now);
            if (eRate[taken] == 0) {
                busy[a] = now + Math.max(0, b);
                committed[a] = -1;
                fire[a] = Double.NaN;
            }
            steps++;
            dirty = true;
            if (record) {
                recActors.add(a);
                recActions.add(eAction[taken]);
                recTimes.add(now);
            }
        }
        run.end(state, now);
        Outcome o = new Outcome(samples, steps, now, end, init, record ? recActors.toArray() : null,
                record ? recActions.toArray() : null, record ? recTimes.toArray() : null);
        samples = null;
        run = null;
        return o;
    }

    /** The enabled steps of {@code s}, with their rates and weights. */
    private void expand(long[] s) {
        count = 0;
        envRate = 0;
        Arrays.fill(program, false);
        model.successors(s, (a, b, n) -> {
            if (count == eActor.length) {
                int len = count * 2;
                eActor = Arrays.copyOf(eActor, len);
                eAction = Arrays.copyOf(eAction, len);
                eRate = Arrays.copyOf(eRate, len);
                eWeight = Arrays.copyOf(eWeight, len);
                eNext = Arrays.copyOf(eNext, len);
                for (int i = count; i < len; i++) {
                    eNext[i] = new long[model.width()];
                }
            }
            eActor[count] = a;
            eAction[count] = b;
            System.arraycopy(n, 0, eNext[count], 0, n.length);
            double r = run.rate(a, b);
            eRate[count] = r > 0 ? r : 0;
            if (r > 0) {
                envRate += r;
                eWeight[count] = 0;
            } else {
                double w = run.weight(a, b);
                eWeight[count] = w > 0 ? w : 0;
                if (w > 0) {
                    program[a] = true;
                }
            }
            count++;
        });
    }

    /** (Re)schedules the actors that are not committed to a step, after a state change at {@code now}. */
    private void schedule(double now) {
        for (int a = 0; a < actors; a++) {
            if (committed[a] >= 0) {
                continue;
            }
            if (!program[a]) {
                fire[a] = Double.NaN;
                continue;
            }
            if (!Double.isNaN(fire[a])) {
                continue;
            }
            fire[a] = busy[a] >= now ? busy[a] : now + Math.max(0, run.wake(a, eAction[firstProgram(a)]));
            tie[a] = rnd.nextLong();
        }
    }

    private int firstProgram(int a) {
        for (int i = 0; i < count; i++) {
            if (eActor[i] == a && eWeight[i] > 0) {
                return i;
            }
        }
        throw new IllegalStateException("no program step of actor " + a);
    }

    /** Actor {@code a}'s turn at {@code now}: the index of the step to take now, or -1 (it committed or waits). */
    private int fire(int a, double now, long[] state) {
        int c = committed[a];
        if (c >= 0) {
            for (int i = 0; i < count; i++) {
                if (eActor[i] == a && eAction[i] == c && eWeight[i] > 0) {
                    return i;
                }
            }
        }
        int x = choose(a);
        if (x < 0) {
            committed[a] = -1;
            fire[a] = Double.NaN;
            return -1;
        }
        double lat = run.latency(a, eAction[x], state, eNext[x], c >= 0);
        if (lat > 0) {
            committed[a] = eAction[x];
            fire[a] = now + lat;
            tie[a] = rnd.nextLong();
            return -1;
        }
        return x;
    }

    /** One of {@code a}'s enabled program steps, by weight; -1 if it has none. */
    private int choose(int a) {
        double total = 0;
        for (int i = 0; i < count; i++) {
            if (eActor[i] == a) {
                total += eWeight[i];
            }
        }
        if (total <= 0) {
            return -1;
        }
        double u = rnd.nextDouble() * total;
        int last = -1;
        for (int i = 0; i < count; i++) {
            if (eActor[i] == a && eWeight[i] > 0) {
                last = i;
                u -= eWeight[i];
                if (u < 0) {
                    return i;
                }
            }
        }
        return last;
    }

    private int pickEnvironment() {
        double u = rnd.nextDouble() * envRate;
        int last = -1;
        for (int i = 0; i < count; i++) {
            if (eRate[i] > 0) {
                last = i;
                u -= eRate[i];
                if (u < 0) {
                    return i;
                }
            }
        }
        return last;
    }

    /* ---------------- SimulationRun.Context ---------------- */

    @Override
    public RandomGenerator random() {
        return rnd;
    }

    @Override
    public int costIndex(String name) {
        return costs.index(name);
    }

    @Override
    public double cost(int index) {
        return costs.sample(index, rnd);
    }

    @Override
    public double value(int index) {
        return costs.value(index);
    }

    @Override
    public int kind(int actor, int action) {
        long key = ((long) actor << 32) | (action & 0xFFFF_FFFFL);
        int k = kinds.get(key, Integer.MIN_VALUE);
        if (k == Integer.MIN_VALUE) {
            k = profile.classify(model, actor, action, label(actor, action));
            kinds.put(key, k);
        }
        return k;
    }

    @Override
    public String label(int actor, int action) {
        long key = ((long) actor << 32) | (action & 0xFFFF_FFFFL);
        return labels.computeIfAbsent(key, k -> model.describe(actor, action).label());
    }

    @Override
    public void sample(int measure, int component, double value) {
        samples.add(measure, component, value);
    }

    @Override
    public int memo(long[] state, ToIntFunction<long[]> f) {
        StateKey k = new StateKey(state);
        Integer v = memo.get(k);
        if (v == null) {
            if (memo.size() >= MEMO_LIMIT) {
                memo.clear();
            }
            v = f.applyAsInt(state);
            memo.put(new StateKey(state.clone()), v);
        }
        return v;
    }

    @Override
    public Model model() {
        return model;
    }

    @Override
    public int cpus() {
        return cpus;
    }

    /** A state as a map key (by contents). */
    private static final class StateKey {
        private final long[] s;
        private final int hash;

        StateKey(long[] s) {
            this.s = s;
            this.hash = Arrays.hashCode(s);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof StateKey k && k.hash == hash && Arrays.equals(k.s, s);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    static final class IntList {
        private int[] a = new int[64];
        private int n;

        void add(int v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }

        int[] toArray() {
            return Arrays.copyOf(a, n);
        }
    }

    static final class DoubleList {
        private double[] a = new double[64];
        private int n;

        void add(double v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }

        double[] toArray() {
            return Arrays.copyOf(a, n);
        }
    }
}
