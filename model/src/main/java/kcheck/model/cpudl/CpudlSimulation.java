package kcheck.model.cpudl;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import kcheck.model.Metric;
import kcheck.model.Model;
import kcheck.model.ModelInputException;
import kcheck.model.Property;
import kcheck.model.SimulationProfile;
import kcheck.model.SimulationRun;

/**
 * {@code kcheck simulate cpudl}: the post's benchmark on the model's own steps: one caller (the
 * holder of {@code cp->lock}) makes {@code depth} calls, 75% {@code cpudl_set} and 25%
 * {@code cpudl_clear}, on uniformly random CPUs, deadlines uniform over the model's {@code small}
 * domain. Measured: element stores per call, from the model's {@code writes} metric (the post's
 * "skip real swaps"). Time per call is measured on the Java ports by JMH
 * ({@code kcheck simulate cpudl --jmh}), not simulated: a call is one atomic step of the model.
 *
 * <p>Reads only step labels ({@code cpudl_set(cpu=..}, {@code cpudl_clear(cpu=..}) and the
 * {@code writes} metric.
 */
public final class CpudlSimulation implements SimulationProfile {
    static final int SET = 1;
    static final int CLEAR = 2;
    static final int FIND = 3;

    @Override
    public String model() {
        return CpudlFactory.NAME;
    }

    @Override
    public List<Workload> workloads() {
        return List.of(new Workload("post", "the post's mix: 75% cpudl_set (is_valid=1), 25% cpudl_clear, uniformly random CPUs, "
                + "deadlines uniform over keys=small (1..5: no wrap-around), 'depth' calls from an empty heap"));
    }

    @Override
    public List<Cost> costs() {
        return List.of(
                Cost.number("set-share", 0.75, "fraction", "the post: \"75% cpudl_set() calls with is_valid=1 and 25% with is_valid=0\""),
                Cost.ns("call-gap", 1000, "fixed", "time between calls (only orders the calls; nothing measured depends on it)"));
    }

    @Override
    public List<Measure> measures() {
        return List.of(
                new Measure("set-stores", "stores", false, "element stores (elements[].cpu/.dl/.idx) of one cpudl_set"),
                new Measure("clear-stores", "stores", false, "element stores of one cpudl_clear"),
                new Measure("call-stores", "stores", false, "element stores of one call, either kind"));
    }

    @Override
    public List<Claim> claims(String workload) {
        return List.of(
                new Claim("set-stores", "mean", "all", "\"a speed-up of up to ~6% for the cpudl_set() calls\" (cycles, not stores)",
                        1.06),
                new Claim("call-stores", "mean", "all", "(stores of every call)", Double.NaN),
                new Claim("call-stores", "max", "all", "(the worst call)", Double.NaN));
    }

    @Override
    public Map<String, String> params(String workload, int cpus) {
        if (cpus < 1 || cpus > CpudlFactory.MAX_CPUS) {
            throw new ModelInputException("cpudl simulates 1.." + CpudlFactory.MAX_CPUS + " CPUs, got " + cpus);
        }
        return Map.of("cpus", Integer.toString(cpus), "depth", Integer.toString(CpudlFactory.MAX_DEPTH), "keys", "small");
    }

    @Override
    public Set<String> properties(String workload) {
        return Set.of("writes");
    }

    @Override
    public int classify(Model model, int actor, int action, String label) {
        if (label.startsWith("cpudl_set(")) {
            return SET;
        }
        if (label.startsWith("cpudl_clear(")) {
            return CLEAR;
        }
        if (label.startsWith("cpudl_find(")) {
            return FIND;
        }
        throw new IllegalStateException("cpudl simulation profile: unknown step label '" + label + "' (update CpudlSimulation)");
    }

    @Override
    public SimulationRun start(Model model, String workload, SimulationRun.Context ctx) {
        return new Run(model, ctx);
    }

    private static final class Run implements SimulationRun {
        private final SimulationRun.Context ctx;
        private final Metric writes;
        private final double setWeight;
        private final double clearWeight;
        private final int gap;

        Run(Model model, SimulationRun.Context ctx) {
            this.ctx = ctx;
            Metric w = null;
            for (Property p : model.properties()) {
                if (p instanceof Metric m && m.id().equals("writes")) {
                    w = m;
                }
            }
            if (w == null) {
                throw new IllegalStateException("cpudl instance without the writes metric");
            }
            writes = w;
            /* the calls offered from the empty heap: every set and every clear (small keys are always in one window) */
            List<long[]> init = new ArrayList<>();
            model.initial(s -> init.add(s.clone()));
            int[] count = new int[4];
            model.successors(init.get(0), (a, b, n) -> count[ctx.kind(a, b)]++);
            double share = Math.max(0, Math.min(1, ctx.value("set-share")));
            setWeight = count[SET] == 0 ? 0 : share / count[SET];
            clearWeight = count[CLEAR] == 0 ? 0 : (1 - share) / count[CLEAR];
            gap = ctx.costIndex("call-gap");
        }

        @Override
        public double start(int actor) {
            return 0;
        }

        @Override
        public double weight(int actor, int action) {
            return switch (ctx.kind(actor, action)) {
                case SET -> setWeight;
                case CLEAR -> clearWeight;
                default -> 0;
            };
        }

        @Override
        public double latency(int actor, int action, long[] from, long[] to, boolean retry) {
            return 0;
        }

        @Override
        public double wake(int actor, int action) {
            return 0;
        }

        @Override
        public double step(int actor, int action, long[] from, long[] to, double now) {
            int k = ctx.kind(actor, action);
            long stores = writes.value(to, k == SET ? 0 : 1);
            ctx.sample(k == SET ? 0 : 1, 0, stores);
            ctx.sample(2, 0, stores);
            return ctx.cost(gap);
        }
    }
}
