package kcheck.properties.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import kcheck.cli.Instances;
import kcheck.model.Model;
import kcheck.model.ModelInputException;
import kcheck.model.Models;
import kcheck.model.SimulationProfile;
import kcheck.model.VariantInfo;
import kcheck.properties.gen.Seeds;
import kcheck.simulate.CostModel;
import kcheck.simulate.Simulation;

/**
 * The simulator takes only steps the exhaustive model allows: on generated configurations (model,
 * variant, workload, CPU count, seed), every recorded simulated run replays, step by step, on the
 * instance {@code kcheck check} builds for the same variant and parameters (its default
 * properties, so with the monitors the checks use): each step is offered there by the same actor
 * with the same label and leads to the same decoded state.
 */
class SimulatedRunsReplayProperties {

    /** A recorded run of a generated configuration. */
    private record Case(String description, Simulation.Recording recording, String variant) {
    }

    private static Case generate(SplittableRandom r) {
        List<String> models = SimulationProfile.simulatable();
        String model = models.get(r.nextInt(models.size()));
        SimulationProfile p = Simulation.profile(model);
        String workload = p.workloads().get(r.nextInt(p.workloads().size())).name();
        List<VariantInfo> vs = Models.get(model).variants();
        String variant = vs.get(r.nextInt(vs.size())).name();
        int cpus;
        while (true) {
            cpus = 1 + r.nextInt(8);
            try {
                p.params(workload, cpus);
                break;
            } catch (ModelInputException e) {
                continue;
            }
        }
        List<String> settings = new ArrayList<>();
        if (p.costs().stream().anyMatch(c -> c.name().equals("horizon"))) {
            settings.add("horizon = 10000");
        }
        CostModel costs = CostModel.resolve(model, p.costs(), null, settings);
        long seed = r.nextLong();
        Simulation.Config c = new Simulation.Config(model, variant, workload, cpus, Map.of(), 1, seed, 1, costs, 800);
        String what = model + " variant " + variant + " workload " + workload + " cpus " + cpus + " seed " + seed;
        return new Case(what, Simulation.record(p, c, 0), variant);
    }

    private static Map<String, String> fields(Model m, long[] s) {
        Map<String, String> out = new LinkedHashMap<>();
        m.decode(s, (actor, name, value) -> out.put(name, value));
        return out;
    }

    /** The fields both instances decode (the checked instance may add monitor fields). */
    private static boolean sameFields(Map<String, String> a, Map<String, String> b) {
        for (Map.Entry<String, String> e : a.entrySet()) {
            if (b.containsKey(e.getKey()) && !b.get(e.getKey()).equals(e.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** Replays {@code rec} on {@code checked}; returns null if every step replays, else why not. */
    static String replay(Simulation.Recording rec, Model checked) {
        Model sim = rec.model();
        List<long[]> simInit = new ArrayList<>();
        sim.initial(s -> simInit.add(s.clone()));
        long[] s = simInit.get(rec.initial());
        List<long[]> init = new ArrayList<>();
        checked.initial(x -> init.add(x.clone()));
        long[] c = null;
        for (long[] x : init) {
            if (sameFields(fields(sim, s), fields(checked, x))) {
                c = x;
                break;
            }
        }
        if (c == null) {
            return "the initial state " + fields(sim, s) + " is not an initial state of the checked instance";
        }
        for (int i = 0; i < rec.actors().length; i++) {
            int actor = rec.actors()[i];
            int action = rec.actions()[i];
            long[][] next = new long[1][];
            sim.successors(s, (a, b, n) -> {
                if (a == actor && b == action) {
                    next[0] = n.clone();
                }
            });
            if (next[0] == null) {
                return "step " + (i + 1) + " (" + sim.actors().get(actor) + ", action " + action + ") is not enabled in the "
                        + "simulated instance";
            }
            String label = sim.describe(actor, action).label();
            Map<String, String> want = fields(sim, next[0]);
            long[][] match = new long[1][];
            List<String> offered = new ArrayList<>();
            checked.successors(c, (a, b, n) -> {
                String l = checked.describe(a, b).label();
                offered.add(checked.actors().get(a) + ": " + l);
                if (match[0] == null && a == actor && l.equals(label) && sameFields(want, fields(checked, n))) {
                    match[0] = n.clone();
                }
            });
            if (match[0] == null) {
                return "step " + (i + 1) + " (" + sim.actors().get(actor) + ": " + label + ") is not a step of the checked "
                        + "instance there; it offers " + offered;
            }
            s = next[0];
            c = match[0];
        }
        return null;
    }

    /**
     * The instance {@code kcheck check} builds for the recording's model, variant and parameters, with the properties the
     * simulation selects (a default property such as rq-lock's starvation-free makes the CPUs balance for ever, a run the
     * finite simulation does not take).
     */
    private static Model checked(Simulation.Recording rec, String variant) {
        Model m = rec.model();
        SimulationProfile p = Simulation.profile(m.name());
        List<String> properties = List.copyOf(p.properties(p.workloads().get(0).name()));
        return Instances.create(m.name(), variant, null, new LinkedHashMap<>(m.params().asMap()), properties);
    }

    @Test
    void everySimulatedRunReplaysOnTheCheckedModel() {
        long seed = Seeds.seed("simulated runs replay");
        SplittableRandom r = new SplittableRandom(seed);
        int steps = 0;
        for (int i = 0; i < 8; i++) {
            Case k = generate(r);
            String why = replay(k.recording(), checked(k.recording(), k.variant()));
            if (why != null) {
                fail(k.description() + " (suite seed " + seed + "): " + why);
            }
            steps += k.recording().actors().length;
        }
        assertThat(steps).as("the generated runs took steps").isGreaterThan(20);
    }

    @Test
    void aRunOfTheUnfairVariantIsRefusedByTheFairOne() {
        SimulationProfile p = Simulation.profile("rq-lock");
        CostModel costs = CostModel.resolve("rq-lock", p.costs(), null, List.of());
        Simulation.Config c = new Simulation.Config("rq-lock", "before", "uniform", 2, Map.of(), 1, 7, 1, costs, 5_000);
        Simulation.Recording rec = Simulation.record(p, c, 0);
        assertThat(replay(rec, checked(rec, "before"))).isNull();
        assertThat(replay(rec, checked(rec, "after"))).contains("double_lock_balance").contains("is not a step of the checked instance");
    }

    @Test
    void aStepTheModelDoesNotOfferIsRefused() {
        SplittableRandom r = new SplittableRandom(20);
        Case k = generate(r);
        while (k.recording().actors().length < 4) {
            k = generate(r);
        }
        Simulation.Recording rec = k.recording();
        int[] actions = rec.actions().clone();
        int i = actions.length / 2;
        actions[i] = Integer.MAX_VALUE;
        Simulation.Recording tampered = new Simulation.Recording(rec.model(), rec.initial(), rec.actors(), actions, rec.times(), rec.end());
        assertThat(replay(tampered, checked(rec, k.variant()))).startsWith("step " + (i + 1) + " ");
        assertThat(replay(rec, checked(rec, k.variant()))).isNull();
    }
}
