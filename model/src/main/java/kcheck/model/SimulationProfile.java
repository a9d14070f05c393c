package kcheck.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * How one model runs in time, for {@code kcheck simulate}: the optional, per-model half of
 * statistical model checking. The simulator (in the checker) knows nothing of kernels: it runs
 * the model's own step relation ({@link Model#successors}) under a stochastic scheduler and asks
 * the profile, through {@link SimulationRun}, what each step costs, which of an actor's enabled
 * steps the workload takes, and what to measure. A profile reads steps only through the Model SPI
 * (actors, actions, {@link Model#describe labels}, {@link Model#decode decoded fields}, the
 * values of the instance's {@link Metric metrics}), never the model's internals.
 *
 * <p>Profiles are found with {@link ServiceLoader} ({@code META-INF/services/kcheck.model.SimulationProfile});
 * a model without one is not simulatable ({@link #find} is empty).
 *
 * <p>Time is in nanoseconds throughout. Every number a profile uses is a {@link Cost}: a default
 * with the place it comes from (a cited measurement or a first-principles count), overridable
 * by the user ({@code --cost FILE}); never a value chosen to reproduce a post's figure.
 */
public interface SimulationProfile {

    /** The model this profile times, as {@link ModelFactory#name()}. */
    String model();

    /** The workloads, the default first. */
    List<Workload> workloads();

    /** Every cost and workload knob the runs draw on, with its default and source. */
    List<Cost> costs();

    /** What the runs measure ({@link SimulationRun.Context#sample} refers to these by index). */
    List<Measure> measures();

    /** The post's headline figures for {@code workload}, compared before vs after when both are simulated. */
    default List<Claim> claims(String workload) {
        return List.of();
    }

    /**
     * The model parameters for {@code workload} at {@code cpus} CPUs (how "CPUs" maps onto this
     * model's parameters); the user's {@code --param}s override them.
     *
     * @throws ModelInputException if the model cannot represent that many CPUs for this workload
     */
    Map<String, String> params(String workload, int cpus);

    /** The properties to build the instance with: at least one; those whose monitors the runs read. */
    Set<String> properties(String workload);

    /**
     * A small code for step ({@code actor}, {@code action}) with label {@code label}, computed once
     * per step of an instance and handed back by {@link SimulationRun.Context#kind} (so that runs
     * do not parse labels per step). The default is 0.
     */
    default int classify(Model model, int actor, int action, String label) {
        return 0;
    }

    /** Starts one run of {@code model} (built with {@link #params} and {@link #properties}). */
    SimulationRun start(Model model, String workload, SimulationRun.Context ctx);

    /** The profile of model {@code name}, if it has one. */
    static Optional<SimulationProfile> find(String name) {
        for (SimulationProfile p : ServiceLoader.load(SimulationProfile.class, SimulationProfile.class.getClassLoader())) {
            if (p.model().equals(name)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The names of the models that have a profile. */
    static List<String> simulatable() {
        List<String> out = new ArrayList<>();
        ServiceLoader.load(SimulationProfile.class, SimulationProfile.class.getClassLoader()).forEach(p -> out.add(p.model()));
        out.sort(null);
        return out;
    }

    /** A workload: which steps the actors choose, and how often (as the post describes its test). */
    record Workload(String name, String description) {
    }

    /**
     * A cost or workload knob.
     *
     * @param name         as in a cost file, e.g. {@code critical-section}
     * @param value        the default: a mean duration in ns, or a plain number ({@code unit} says)
     * @param unit         {@code ns}, or what the number counts
     * @param distribution for durations: {@code exp} (exponential), {@code fixed} or {@code uniform}
     *                     (uniform on [0.5, 1.5] x value); {@code -} for plain numbers
     * @param source       where the default comes from: the cited measurement, or the count it is
     *                     derived from
     */
    record Cost(String name, double value, String unit, String distribution, String source) {
        public static Cost ns(String name, double value, String distribution, String source) {
            return new Cost(name, value, "ns", distribution, source);
        }

        public static Cost number(String name, double value, String unit, String source) {
            return new Cost(name, value, unit, "-", source);
        }
    }

    /**
     * A measured quantity.
     *
     * @param id          e.g. {@code wait}
     * @param unit        e.g. {@code ns}, {@code stores}, {@code fraction}, {@code per us}
     * @param perCpu      one component per CPU id (0..cpus-1), else one scalar component
     * @param description one line, for tables and plots
     */
    record Measure(String id, String unit, boolean perCpu, String description) {
    }

    /**
     * A post's figure as a ratio of one statistic before vs after.
     *
     * @param measure    a {@link Measure#id}
     * @param statistic  {@code mean}, {@code p50}, {@code p99} or {@code max}
     * @param components {@code all}, or {@code last:K} (the K highest CPU ids), or CPU ids
     *                   separated by commas
     * @param post       what the post says, verbatim with its figure
     * @param postRatio  the post's before / after ratio as a number (e.g. 8 for "&gt; 400us to &lt; 50us")
     */
    record Claim(String measure, String statistic, String components, String post, double postRatio) {
    }
}
