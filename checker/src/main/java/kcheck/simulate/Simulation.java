package kcheck.simulate;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import kcheck.engine.Deadline;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.ModelInputException;
import kcheck.model.Models;
import kcheck.model.Params;
import kcheck.model.SimulationProfile;

/**
 * Many seeded runs of one model instance ({@link Simulator}), in parallel over workers, and
 * their values per measure and component ({@link Distribution}). Run {@code i} draws from its
 * own seed ({@link #runSeed}), and values are collected in run order, so the numbers depend on
 * the seed and the number of runs only: not on the number of workers, nor on the variant (both
 * variants of a comparison see the same random streams: common random numbers).
 */
public final class Simulation {
    /** A run stops after this many steps (reported as "step limit"). */
    public static final long DEFAULT_MAX_STEPS = 10_000_000L;

    private Simulation() {
    }

    /**
     * What to simulate.
     *
     * @param params the user's model parameters (override the profile's for the workload)
     */
    public record Config(String model, String variant, String workload, int cpus, Map<String, String> params, int runs, long seed,
                         int workers, CostModel costs, long maxSteps) {
        public Config {
            params = Map.copyOf(params);
        }
    }

    /** The distributions of one simulation ({@code data[measure][component]}) and what the runs did. */
    public record Result(Config config, SimulationProfile profile, Map<String, String> modelParams, Distribution[][] data, long steps,
                         double simulatedNs, Map<String, Integer> ends, double wallSeconds, int workers) {
        public List<SimulationProfile.Measure> measures() {
            return profile.measures();
        }

        /** The measure with id {@code id}'s index; -1 if none. */
        public int measure(String id) {
            for (int m = 0; m < measures().size(); m++) {
                if (measures().get(m).id().equals(id)) {
                    return m;
                }
            }
            return -1;
        }
    }

    /** Receives progress, from one thread, about every 200 ms. */
    @FunctionalInterface
    public interface Listener {
        Listener NONE = (done, total, seconds) -> {
        };

        void progress(int done, int total, double seconds);
    }

    /** The steps of one recorded run. */
    public record Recording(Model model, int initial, int[] actors, int[] actions, double[] times, String end) {
    }

    /** The seed of run {@code run} of a simulation seeded {@code seed}. */
    public static long runSeed(long seed, int run) {
        long z = seed + (run + 1L) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The profile of {@code model}, or a one-line input error naming the models that have one. */
    public static SimulationProfile profile(String model) {
        Models.get(model);
        return SimulationProfile.find(model).orElseThrow(() -> new ModelInputException(model + " has no simulation profile: "
                + "it cannot be simulated (simulatable: " + String.join(", ", SimulationProfile.simulatable()) + ")"));
    }

    /** The workload named {@code name} (null: the profile's default); an input error if there is none. */
    public static String workload(SimulationProfile p, String name) {
        if (name == null) {
            return p.workloads().get(0).name();
        }
        for (SimulationProfile.Workload w : p.workloads()) {
            if (w.name().equals(name)) {
                return name;
            }
        }
        throw new ModelInputException(p.model() + ": unknown workload '" + name + "' (known: "
                + String.join(", ", p.workloads().stream().map(SimulationProfile.Workload::name).toList()) + ")");
    }

    /** The model instance a configuration runs (model input errors as {@link ModelInputException}). */
    public static Model instance(SimulationProfile p, Config c) {
        ModelFactory f = Models.get(c.model());
        f.variant(c.variant());
        Map<String, String> given = new LinkedHashMap<>(p.params(c.workload(), c.cpus()));
        given.putAll(c.params());
        Params params = f.params(given);
        Set<String> props = new LinkedHashSet<>(p.properties(c.workload()));
        f.checkSelection(props);
        return f.create(c.variant(), params, props);
    }

    /** Runs the simulation. */
    public static Result run(SimulationProfile p, Config c, Listener listener) {
        return run(p, c, listener, Deadline.NONE);
    }

    /**
     * Runs the simulation until {@code deadline} passes (its time limit, a signal). Then the runs
     * that completed from run 0 on without a gap count, as if {@code --runs} had asked for that
     * many (same seed, same numbers): the result's {@code config().runs()} says how many. Null if
     * not even run 0 completed.
     */
    public static Result run(SimulationProfile p, Config c, Listener listener, Deadline deadline) {
        Model base = instance(p, c);
        long t0 = System.nanoTime();
        int workers = Math.max(1, Math.min(c.workers(), c.runs()));
        Simulator.Outcome[] outcomes = new Simulator.Outcome[c.runs()];
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "kcheck-simulate");
            t.setDaemon(true);
            return t;
        });
        for (int w = 0; w < workers; w++) {
            Model m = w == 0 ? base : base.fork();
            pool.execute(() -> {
                try {
                    Simulator sim = new Simulator(p, m, c.workload(), c.costs(), c.cpus(), c.maxSteps(), deadline::passed);
                    for (int i = next.getAndIncrement(); i < c.runs() && failure.get() == null && !deadline.passed();
                            i = next.getAndIncrement()) {
                        outcomes[i] = sim.run(runSeed(c.seed(), i), false);
                        done.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
        }
        pool.shutdown();
        try {
            while (!pool.awaitTermination(200, TimeUnit.MILLISECONDS)) {
                listener.progress(done.get(), c.runs(), (System.nanoTime() - t0) / 1e9);
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        Throwable f = failure.get();
        if (f instanceof RuntimeException re) {
            throw re;
        }
        if (f instanceof Error er) {
            throw er;
        }
        if (f != null) {
            throw new IllegalStateException(f);
        }
        int completed = 0;
        while (completed < outcomes.length && outcomes[completed] != null && !outcomes[completed].end().equals(Simulator.STOPPED)) {
            completed++;
        }
        listener.progress(completed, c.runs(), (System.nanoTime() - t0) / 1e9);
        if (completed == 0) {
            return null;
        }
        Config ran = completed == c.runs() ? c : new Config(c.model(), c.variant(), c.workload(), c.cpus(), c.params(), completed, c.seed(),
                c.workers(), c.costs(), c.maxSteps());
        return collect(p, ran, base, java.util.Arrays.copyOf(outcomes, completed), (System.nanoTime() - t0) / 1e9, workers);
    }

    private static Result collect(SimulationProfile p, Config c, Model base, Simulator.Outcome[] outcomes, double wall, int workers) {
        List<SimulationProfile.Measure> ms = p.measures();
        int batches = Math.min(Distribution.BATCHES, c.runs());
        Distribution[][] data = new Distribution[ms.size()][];
        long steps = 0;
        double time = 0;
        Map<String, Integer> ends = new TreeMap<>();
        for (Simulator.Outcome o : outcomes) {
            steps += o.steps();
            time += o.time();
            ends.merge(o.end(), 1, Integer::sum);
        }
        for (int m = 0; m < ms.size(); m++) {
            int comps = ms.get(m).perCpu() ? c.cpus() : 1;
            data[m] = new Distribution[comps];
            for (int k = 0; k < comps; k++) {
                int total = 0;
                for (Simulator.Outcome o : outcomes) {
                    total += o.samples().size(m, k);
                }
                double[] v = new double[total];
                int[] start = new int[batches + 1];
                int n = 0;
                for (int r = 0; r < outcomes.length; r++) {
                    int b = (int) ((long) r * batches / outcomes.length);
                    if (r == 0 || b != (int) ((long) (r - 1) * batches / outcomes.length)) {
                        start[b] = n;
                    }
                    Samples s = outcomes[r].samples();
                    for (int i = 0; i < s.size(m, k); i++) {
                        v[n++] = s.get(m, k, i);
                    }
                }
                start[batches] = n;
                data[m][k] = new Distribution(v, start, c.runs());
            }
        }
        return new Result(c, p, new LinkedHashMap<>(base.params().asMap()), data, steps, time, ends, wall, workers);
    }

    /** Run {@code run} of the configuration again, recording its steps (same seed: the same run). */
    public static Recording record(SimulationProfile p, Config c, int run) {
        Model m = instance(p, c);
        Simulator sim = new Simulator(p, m, c.workload(), c.costs(), c.cpus(), c.maxSteps());
        Simulator.Outcome o = sim.run(runSeed(c.seed(), run), true);
        return new Recording(m, o.initial(), o.actors(), o.actions(), o.times(), o.end());
    }
}
