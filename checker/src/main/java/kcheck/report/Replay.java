package kcheck.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import kcheck.model.Deadlock;
import kcheck.model.Invariant;
import kcheck.model.Metric;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.ModelInputException;
import kcheck.model.Models;
import kcheck.model.Progress;
import kcheck.model.Property;
import kcheck.model.StepProperty;
import kcheck.trace.Trace;

/**
 * Re-executes a trace on a model variant, step by step, matching each step by actor and label.
 * On the variant that produced it, a counterexample must reproduce its violation; on the
 * patched variant it must be refused (a step is not possible there, or the run completes without
 * violating): that pair is the regression proof of a patch.
 */
public final class Replay {
    private Replay() {
    }

    /**
     * What happened.
     *
     * @param reproduced the recorded violation (or metric value) happened again
     * @param divergedAt the first step that is not possible on this variant (1-based), or -1
     * @param detail     one sentence
     */
    public record Outcome(String variant, boolean reproduced, int divergedAt, String detail) {
    }

    /** Builds the model a trace names (its variant or {@code variant}); {@link ModelInputException} if it cannot. */
    public static Model model(Trace t, String variant) {
        ModelFactory f = factory(t);
        if (variant == null && t.variantFile() != null && f.variants().stream().noneMatch(v -> v.name().equals(t.variant()))) {
            throw new ModelInputException("the trace was recorded on variant " + t.variant() + " from the file " + t.variantFile()
                    + ": replay it with --variant-file FILE, or on a built-in variant with --variant V");
        }
        String v = variant != null ? variant : t.variant();
        f.variant(v);
        Set<String> props = new LinkedHashSet<>(List.of(t.property()));
        f.checkProperties(props);
        return f.create(v, f.params(t.params() == null ? Map.of() : t.params()), props);
    }

    private record Step(int actor, int action, long[] to) {
    }

    public static Outcome run(Trace t, String variant) {
        return runOn(t, model(t, variant));
    }

    /** The factory of the model a trace names; {@link ModelInputException} if there is none. */
    public static ModelFactory factory(Trace t) {
        try {
            return Models.get(t.model());
        } catch (ModelInputException e) {
            throw new ModelInputException("trace names an " + e.getMessage());
        }
    }

    /** Re-executes {@code t} on {@code m}, an instance built for the trace's parameters and its property alone. */
    public static Outcome runOn(Trace t, Model m) {
        Property prop = m.properties().get(0);
        List<long[]> init = new ArrayList<>();
        m.initial(s -> init.add(s.clone()));
        long[] cur = init.get(0);
        for (long[] s : init) {
            if (TraceFactory.fields(m, s).equals(t.initial())) {
                cur = s;
                break;
            }
        }
        List<long[]> states = new ArrayList<>(List.of(cur));
        if (violatesState(m, prop, cur, t, 0)) {
            return new Outcome(m.variant(), true, -1, "the initial state already violates " + prop.id());
        }
        for (Trace.Step s : t.steps()) {
            List<Step> matching = new ArrayList<>();
            List<String> enabled = new ArrayList<>();
            m.successors(cur, (actor, action, next) -> {
                String label = m.describe(actor, action).label();
                enabled.add(m.actors().get(actor) + ": " + label);
                if (actor == s.actor() && label.equals(s.action())) {
                    matching.add(new Step(actor, action, next.clone()));
                }
            });
            if (matching.isEmpty()) {
                String who = s.actor() < m.actors().size() ? m.actors().get(s.actor()) : "actor " + s.actor();
                return new Outcome(m.variant(), false, s.index(), "step " + s.index() + " (" + who + ": " + s.action()
                        + ") is not possible on variant " + m.variant() + "; possible there: "
                        + (enabled.isEmpty() ? "nothing" : String.join("; ", enabled)));
            }
            Step chosen = matching.get(0);
            for (Step c : matching) {
                if (sameChanges(m, c.to, s)) {
                    chosen = c;
                    break;
                }
            }
            long[] from = cur;
            cur = chosen.to;
            states.add(cur);
            if (prop instanceof StepProperty sp && !sp.holds(from, chosen.actor, chosen.action, cur)
                    && t.loopStart() == null) {
                return new Outcome(m.variant(), true, -1, "step " + s.index() + " violates " + prop.id() + ": "
                        + sp.explain(from, chosen.actor, chosen.action, cur));
            }
            if (violatesState(m, prop, cur, t, s.index())) {
                return new Outcome(m.variant(), true, -1, "after step " + s.index() + ": " + explainState(prop, cur));
            }
        }
        if (prop instanceof Progress && t.loopStart() != null) {
            long[] start = states.get(t.loopStart()).clone();
            long[] end = cur.clone();
            m.canonicalize(start);
            m.canonicalize(end);
            if (Arrays.equals(start, end)) {
                return new Outcome(m.variant(), true, -1, "the cycle of steps " + (t.loopStart() + 1) + ".." + t.steps().size()
                        + " returns to an equivalent state without progress: it repeats forever");
            }
            return new Outcome(m.variant(), false, -1, "the cycle does not close on variant " + m.variant());
        }
        if (prop instanceof Deadlock) {
            boolean[] any = {false};
            m.successors(cur, (a, b, n) -> any[0] = true);
            if (!any[0] && !m.isFinal(cur)) {
                return new Outcome(m.variant(), true, -1, "after step " + t.steps().size() + " no step is enabled: deadlock");
            }
        }
        return new Outcome(m.variant(), false, -1, "all " + t.steps().size() + " steps are possible on variant " + m.variant()
                + " but none violates " + prop.id());
    }

    private static boolean violatesState(Model m, Property p, long[] s, Trace t, int step) {
        if (p instanceof Invariant inv) {
            return !inv.holds(s);
        }
        if (p instanceof Metric metric && step == t.steps().size() && step > 0) {
            long recorded = recordedValue(t);
            for (int c = 0; c < metric.components(); c++) {
                if (metric.value(s, c) >= recorded && (recorded > metric.bound() || "WITNESS".equals(t.verdict()))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The value a metric trace's message records ("... reaches 3"). */
    private static long recordedValue(Trace t) {
        String msg = t.message() == null ? "" : t.message();
        int i = msg.lastIndexOf("reaches ");
        if (i < 0) {
            return Long.MAX_VALUE;
        }
        String num = msg.substring(i + 8).split("[^0-9-]")[0];
        try {
            return Long.parseLong(num);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    private static String explainState(Property p, long[] s) {
        if (p instanceof Invariant inv) {
            return p.id() + " violated: " + inv.explain(s);
        }
        return p.id() + " reaches the recorded value";
    }

    private static boolean sameChanges(Model m, long[] to, Trace.Step s) {
        List<Trace.Field> b = TraceFactory.fields(m, to);
        for (Trace.Field f : s.changes()) {
            Trace.Field now = b.stream().filter(x -> x.name().equals(f.name())).findFirst().orElse(null);
            if (now == null ? !"-".equals(f.value()) : !Objects.equals(now.value(), f.value())) {
                return false;
            }
        }
        return true;
    }

    /** One sentence for the record: the regression proof, or why there is none. */
    public static String proof(Trace t, Outcome own, Outcome other) {
        String what = "the " + t.property() + " counterexample of " + t.model() + "/" + t.variant();
        if (own.reproduced() && !other.reproduced()) {
            return "Regression proof: " + what + " reproduces on " + own.variant() + " and is refused by " + other.variant()
                    + (other.divergedAt() > 0 ? " at step " + other.divergedAt() : "") + ".";
        }
        return "No regression proof: " + what + (own.reproduced() ? " reproduces" : " does not reproduce") + " on "
                + own.variant() + " and " + (other.reproduced() ? "still violates" : "is refused") + " on " + other.variant() + ".";
    }
}
