package kcheck.properties.gen;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

import kcheck.engine.DeltaDebug;
import kcheck.model.Model;

/**
 * Probabilistic concurrency testing (PCT: Burckhardt, Kothari, Musuvathi and Nagarakatte, "A
 * Randomized Scheduler with Probabilistic Guarantees of Finding Bugs", ASPLOS 2010) over any
 * model: each actor gets a random priority, the highest-priority actor with an enabled step
 * runs (an actor with several enabled steps picks one at random), and at {@code depth - 1}
 * random change points the running actor drops below every other. A bug that needs
 * {@code depth} ordering constraints is found by one schedule with probability at least
 * {@code 1 / (n * k^(depth-1))} (n actors, k steps), whatever the other steps do.
 *
 * <p>Unlike a uniformly random choice at every step (which preempts at nearly every step, so
 * that most races of a few CPUs happen in most schedules), a PCT schedule runs each actor for
 * long stretches and preempts it at only {@code depth - 1} points: a race that needs a
 * preemption at the right step is rare per schedule, and finding it is a search.
 *
 * <p>Schedule {@code i} of a search with seed {@code s} comes from {@code new SplittableRandom(s + i)};
 * a violation is reported as the explicit choices it took (an index among the enabled steps at
 * each point, as {@link Schedules#run} reads them), minimised by delta debugging.
 */
public final class Pct {
    private final Model model;
    private final int depth;
    private final int steps;

    /**
     * @param depth the bug depth searched for: {@code depth - 1} priority change points
     * @param steps the schedule length k: change points are drawn from {@code [1, k]}, and a
     *              schedule stops after {@code k} steps (or when nothing is enabled)
     */
    public Pct(Model model, int depth, int steps) {
        if (depth < 1 || steps < 1) {
            throw new IllegalArgumentException("depth and steps must be positive: " + depth + ", " + steps);
        }
        this.model = model;
        this.depth = depth;
        this.steps = steps;
    }

    private record Step(int actor, long[] to) {
    }

    /** The explicit choices of schedule {@code seed}: one index among the enabled steps per step taken. */
    public List<Integer> schedule(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = model.actors().size();
        /* priorities depth .. depth+n-1 in random order; change point j (1-based) lowers the runner to j */
        int[] prio = new int[n];
        for (int a = 0; a < n; a++) {
            prio[a] = depth + a;
        }
        for (int a = n - 1; a > 0; a--) {
            int b = r.nextInt(a + 1);
            int t = prio[a];
            prio[a] = prio[b];
            prio[b] = t;
        }
        int[] change = new int[depth - 1];
        for (int j = 0; j < change.length; j++) {
            change[j] = 1 + r.nextInt(steps);
        }
        List<long[]> init = new ArrayList<>();
        model.initial(s -> init.add(s.clone()));
        long[] cur = init.get(0);
        List<Integer> choices = new ArrayList<>();
        for (int k = 1; k <= steps; k++) {
            List<Step> enabled = new ArrayList<>();
            model.successors(cur, (a, b, nx) -> enabled.add(new Step(a, nx.clone())));
            if (enabled.isEmpty()) {
                /* one more choice, so that Schedules.run looks at the stuck state (deadlock-free) */
                choices.add(0);
                break;
            }
            int best = -1;
            for (Step s : enabled) {
                if (best < 0 || prio[s.actor] > prio[best]) {
                    best = s.actor;
                }
            }
            int count = 0;
            for (Step s : enabled) {
                count += s.actor == best ? 1 : 0;
            }
            int pick = r.nextInt(count);
            int index = -1;
            for (int i = 0; i < enabled.size() && index < 0; i++) {
                if (enabled.get(i).actor == best && pick-- == 0) {
                    index = i;
                }
            }
            choices.add(index);
            cur = enabled.get(index).to;
            for (int j = 0; j < change.length; j++) {
                if (change[j] == k) {
                    prio[best] = j + 1;
                }
            }
        }
        return choices;
    }

    /**
     * The fraction of schedules (seeds {@code seed, seed+1, ...}) that violate a property of the
     * model: {@code samples} of them, fewer once {@link SequenceProperty#ENOUGH_HITS} have.
     */
    public double hitRate(long seed, int samples) {
        int hits = 0;
        int i = 0;
        while (i < samples && hits < SequenceProperty.ENOUGH_HITS) {
            if (Schedules.run(model, schedule(seed + i++)).isPresent()) {
                hits++;
            }
        }
        return (double) hits / i;
    }

    /**
     * Runs up to {@code schedules} schedules (seeds {@code seed, seed+1, ...}) and returns the first
     * violation, minimised, or empty. {@code name} names the search in the failure.
     */
    public Optional<Failure<Integer>> find(String name, long seed, int schedules) {
        for (int i = 0; i < schedules; i++) {
            List<Integer> choices = schedule(seed + i);
            Optional<String> bad = Schedules.run(model, choices);
            if (bad.isPresent()) {
                List<Integer> min = DeltaDebug.minimise(choices, l -> Schedules.run(model, l).isPresent());
                return Optional.of(new Failure<>(name + " (PCT depth " + depth + ", schedule " + (i + 1) + ")", seed + i,
                        choices, min, Schedules.run(model, min).orElseThrow()));
            }
        }
        return Optional.empty();
    }
}
