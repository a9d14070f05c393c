package kcheck.model.lbredo;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import kcheck.model.Metric;
import kcheck.model.Model;
import kcheck.model.Params;
import kcheck.model.Property;
import kcheck.model.StateKey;
import kcheck.model.StepProperty;

/**
 * A plain breadth-first explorer for lb-redo models in this module's tests (the engine lives in
 * the checker module): every reachable canonical state, the step properties checked on every
 * transition (the depth of the first violating step is the shortest trace length), and the
 * metric maxima.
 */
final class Explore {
    /** What one exhaustive run found. */
    record Result(long states, long transitions, Map<String, Integer> shortestViolation, Map<String, Long> maxima) {
        boolean violated(String property) {
            return shortestViolation.containsKey(property);
        }
    }

    private Explore() {
    }

    static Model model(String variant, LoadBalance impl, Map<String, String> params, Set<String> properties) {
        LbRedoFactory f = new LbRedoFactory();
        return f.create(variant, impl, f.params(params), properties);
    }

    static Model model(String variant, Map<String, String> params, Set<String> properties) {
        return model(variant, LbRedoFactory.implementation(variant), params, properties);
    }

    /** The model with the loop counters kept unabstracted (the reference the abstraction is compared with). */
    static Model exactCounters(String variant, LoadBalance impl, Map<String, String> params, Set<String> properties) {
        LbRedoFactory f = new LbRedoFactory();
        Params p = f.params(params);
        return new LbRedoModel(variant, p, impl, LbRedoFactory.domain(p), Set.copyOf(properties), true);
    }

    static Result run(Model m) {
        Map<StateKey, Integer> depth = new HashMap<>();
        ArrayDeque<long[]> queue = new ArrayDeque<>();
        m.initial(s -> {
            long[] c = s.clone();
            m.canonicalize(c);
            if (depth.putIfAbsent(new StateKey(c), 0) == null) {
                queue.add(c);
            }
        });
        List<StepProperty> steps = new ArrayList<>();
        List<Metric> metrics = new ArrayList<>();
        for (Property p : m.properties()) {
            if (p instanceof StepProperty sp) {
                steps.add(sp);
            } else if (p instanceof Metric mt) {
                metrics.add(mt);
            }
        }
        Map<String, Integer> violations = new LinkedHashMap<>();
        Map<String, Long> maxima = new LinkedHashMap<>();
        long[] transitions = {0};
        while (!queue.isEmpty()) {
            long[] s = queue.poll();
            int d = depth.get(new StateKey(s));
            for (Metric mt : metrics) {
                maxima.merge(mt.id(), mt.value(s, 0), Math::max);
            }
            m.successors(s, (actor, action, next) -> {
                transitions[0]++;
                for (StepProperty sp : steps) {
                    if (!violations.containsKey(sp.id()) && !sp.holds(s, actor, action, next)) {
                        violations.put(sp.id(), d + 1);
                    }
                }
                long[] c = next.clone();
                m.canonicalize(c);
                if (depth.putIfAbsent(new StateKey(c), d + 1) == null) {
                    queue.add(c);
                }
            });
        }
        return new Result(depth.size(), transitions[0], violations, maxima);
    }

    static Map<String, String> params(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }
}
