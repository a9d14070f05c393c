package kcheck.model;

import java.util.function.ToIntFunction;
import java.util.random.RandomGenerator;

/**
 * One simulated run, as a {@link SimulationProfile} sees it: the simulator's questions about time
 * and choice. The simulator's semantics (a discrete-event simulation of the model's steps):
 *
 * <ul>
 * <li>Each actor is <i>busy</i> until a time, then takes its next enabled <i>program</i> step:
 * it picks one of its enabled steps with probability proportional to {@link #weight}, waits
 * {@link #latency} (the step's own duration, e.g. a cache-line transfer), and the step takes
 * effect atomically at the end of that latency. If that step is no longer enabled then, another
 * enabled step of the actor is taken instead (with {@code retry} set: the operation ran, its
 * outcome differs, as a trylock that now fails), or, with none enabled, the actor waits.</li>
 * <li>After a step, {@link #step} says how long the actor is busy (a critical section, the time
 * until its next balancing pass, ...). An actor with no enabled step waits (spins or sleeps);
 * when one becomes enabled it takes it {@link #wake} later.</li>
 * <li>Steps with a positive {@link #rate} are <i>environment</i> steps (a preemption, need_resched
 * being set): each fires after an exponential delay with that rate while it is enabled,
 * independently of the actor's program.</li>
 * <li>A run ends when no step is enabled, or at {@link #horizon}.</li>
 * </ul>
 */
public interface SimulationRun {

    /** Index of the initial state to start from, among {@code count}; default uniform. */
    default int initial(int count, RandomGenerator random) {
        return random.nextInt(count);
    }

    /** When {@code actor} starts (ns from the start of the run). */
    double start(int actor);

    /** Relative weight of program step {@code action} among {@code actor}'s enabled program steps (0: never). */
    default double weight(int actor, int action) {
        return 1;
    }

    /** Rate (per ns) of an environment step; 0 (the default) for a program step. */
    default double rate(int actor, int action) {
        return 0;
    }

    /**
     * Duration of program step {@code action} before its effect; {@code from} is the current state and
     * {@code to} the state the step would lead to now (the effect may differ if the state changes
     * meanwhile); {@code retry}: see the class comment.
     */
    double latency(int actor, int action, long[] from, long[] to, boolean retry);

    /** Delay between a step of a waiting {@code actor} becoming enabled and the actor taking it. */
    double wake(int actor, int action);

    /**
     * Step ({@code actor}, {@code action}) took effect at {@code now}, from {@code from} to {@code to}:
     * record measurements; return how long the actor is busy before its next step (0 for an
     * environment step, whose return value is ignored).
     */
    double step(int actor, int action, long[] from, long[] to, double now);

    /** Simulated time at which the run stops (default: when no step is enabled). */
    default double horizon() {
        return Double.POSITIVE_INFINITY;
    }

    /** The run ended at {@code now} in {@code state} (flush open intervals, record per-run figures). */
    default void end(long[] state, double now) {
    }

    /** What the simulator offers a run. */
    interface Context {
        /** This run's random source (seeded: the run repeats). */
        RandomGenerator random();

        /** Index of cost {@code name} (for {@link #cost(int)} in inner loops). */
        int costIndex(String name);

        /** A sample of cost {@code index} from its configured distribution. */
        double cost(int index);

        /** The configured value (the mean) of cost {@code index}. */
        double value(int index);

        /** A sample of cost {@code name}. */
        default double cost(String name) {
            return cost(costIndex(name));
        }

        /** The configured value of cost {@code name}. */
        default double value(String name) {
            return value(costIndex(name));
        }

        /** {@link SimulationProfile#classify} of the step, cached. */
        int kind(int actor, int action);

        /** The step's label ({@link Model#describe}), cached. */
        String label(int actor, int action);

        /** Records {@code value} for component {@code component} of measure {@code measure} (an index into {@link SimulationProfile#measures}). */
        void sample(int measure, int component, double value);

        /** {@code f(state)}, cached by the state's contents (for values derived from {@link Model#decode}). */
        int memo(long[] state, ToIntFunction<long[]> f);

        /** The instance being run. */
        Model model();

        /** The number of CPUs the run was asked for. */
        int cpus();
    }
}
