package kcheck.properties.gen;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import kcheck.model.Deadlock;
import kcheck.model.Invariant;
import kcheck.model.Model;
import kcheck.model.Property;
import kcheck.model.StepProperty;

/**
 * Runs a model along a generated schedule: a list of choices, each picking one of the enabled
 * steps ({@code choice mod enabled}). Checks the model's invariants on every state, its step
 * properties on every step taken, and deadlock freedom where the schedule runs out of steps.
 * Works for any model, so every mechanism's suite can reach sizes beyond exhaustive search.
 */
public final class Schedules {
    private Schedules() {
    }

    /** One enabled step. */
    private record Step(int actor, int action, long[] to) {
    }

    /** The first violation along the schedule ("step k: property: why"), or empty. */
    public static Optional<String> run(Model m, List<Integer> choices) {
        List<long[]> init = new ArrayList<>();
        m.initial(s -> init.add(s.clone()));
        long[] cur = init.get(0);
        Optional<String> bad = invariants(m, cur, 0);
        if (bad.isPresent()) {
            return bad;
        }
        for (int k = 0; k < choices.size(); k++) {
            List<Step> enabled = new ArrayList<>();
            m.successors(cur, (a, b, n) -> enabled.add(new Step(a, b, n.clone())));
            if (enabled.isEmpty()) {
                for (Property p : m.properties()) {
                    if (p instanceof Deadlock && !m.isFinal(cur)) {
                        return Optional.of("after step " + k + ": " + p.id() + ": no step enabled and not all finished");
                    }
                }
                return Optional.empty();
            }
            Step st = enabled.get(Math.floorMod(choices.get(k), enabled.size()));
            for (Property p : m.properties()) {
                if (p instanceof StepProperty sp && !sp.holds(cur, st.actor, st.action, st.to)) {
                    return Optional.of("step " + (k + 1) + " (" + m.actors().get(st.actor) + ": "
                            + m.describe(st.actor, st.action).label() + "): " + p.id() + ": "
                            + sp.explain(cur, st.actor, st.action, st.to));
                }
            }
            cur = st.to;
            bad = invariants(m, cur, k + 1);
            if (bad.isPresent()) {
                return bad;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> invariants(Model m, long[] s, int k) {
        for (Property p : m.properties()) {
            if (p instanceof Invariant inv && !inv.holds(s)) {
                return Optional.of("after step " + k + ": " + p.id() + ": " + inv.explain(s));
            }
        }
        return Optional.empty();
    }

    /** The steps a schedule takes, as "CPU 1: spin_trylock(rq[0]) = 0" lines (stops where nothing is enabled). */
    public static List<String> labels(Model m, List<Integer> choices) {
        List<long[]> init = new ArrayList<>();
        m.initial(s -> init.add(s.clone()));
        long[] cur = init.get(0);
        List<String> out = new ArrayList<>();
        for (int choice : choices) {
            List<Step> enabled = new ArrayList<>();
            m.successors(cur, (a, b, n) -> enabled.add(new Step(a, b, n.clone())));
            if (enabled.isEmpty()) {
                break;
            }
            Step st = enabled.get(Math.floorMod(choice, enabled.size()));
            out.add(m.actors().get(st.actor) + ": " + m.describe(st.actor, st.action).label());
            cur = st.to;
        }
        return out;
    }
}
