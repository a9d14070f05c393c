package kcheck.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
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
 * On the variant that produced it, a counterexample must reproduce its violation (else the trace
 * is stale or edited). On the patched variant it may be refused (a step is not possible there, or
 * the run completes without violating): that is a fact about one run. The regression proof of a
 * patch is that refusal plus an exhaustive check of the property on the patched variant at the
 * trace's bounds ({@link #prove}).
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

    /** True if {@code variant} (null: the trace's own) is the variant the trace was recorded on. */
    public static boolean isOwn(Trace t, String variant) {
        return variant == null || variant.equals(t.variant());
    }

    /** True if the trace's own variant is a built-in one (so it can be replayed there without a file). */
    public static boolean ownIsBuiltIn(Trace t) {
        return t.variantFile() == null && factory(t).variants().stream().anyMatch(v -> v.name().equals(t.variant()));
    }

    /**
     * The one line for a trace that does not replay on its own variant: the corpus (or the file)
     * is stale, or the trace was edited. Names the first step that diverges.
     */
    public static String stale(String where, Trace t, Outcome own) {
        return where + ": trace does not replay on its own variant " + t.variant() + ": stale or edited ("
                + (own.divergedAt() > 0 ? "first diverging step: " : "") + own.detail() + ")";
    }

    /** What a refusal on another variant shows: a fact about this one trace, not about the variant. */
    public static String refusedFact(Trace t, Outcome other) {
        return "This one trace is refused by " + other.variant() + (other.divergedAt() > 0 ? " at step " + other.divergedAt() : "")
                + ": a fact about this run only. It does not show that " + other.variant() + " excludes every " + t.property()
                + " violation; the regression proof is an exhaustive check of " + t.property() + " on " + other.variant()
                + " at the trace's bounds (" + bounds(t) + ").";
    }

    /** The trace's parameters, as {@code k=v k=v}. */
    public static String bounds(Trace t) {
        StringBuilder b = new StringBuilder();
        if (t.params() != null) {
            t.params().forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(v));
        }
        return b.length() == 0 ? "defaults" : b.toString();
    }

    /** {@code --param k=v ...} for the trace's parameters (empty if none). */
    public static String paramOptions(Trace t) {
        StringBuilder b = new StringBuilder();
        if (t.params() != null) {
            t.params().forEach((k, v) -> b.append(" --param ").append(k).append('=').append(v));
        }
        return b.toString();
    }

    /**
     * The regression proof of a fix, on the record: the trace reproduces on its own variant
     * ({@code own}), is refused by the other ({@code other}), and the other variant holds the
     * trace's property exhaustively at the trace's bounds ({@code check}: that property only).
     */
    public record Proof(Trace trace, Outcome own, Outcome other, RunResult check) {
        /** The exhaustive verdict of the property on the other variant (null if not checked). */
        public PropertyResult result() {
            return check == null ? null : check.property(trace.property());
        }

        /** Everything the proof needs holds. */
        public boolean proven() {
            return (own == null || own.reproduced()) && !other.reproduced() && result() != null && result().verdict() == Verdict.HOLDS;
        }

        /** One sentence: the proof, or exactly why there is none. */
        public String sentence() {
            String what = "the " + trace.property() + " counterexample of " + trace.model() + "/" + trace.variant();
            String ownPart = own == null ? "" : " reproduces on " + own.variant() + ",";
            if (other.reproduced()) {
                return "No regression proof: " + what + ownPart + " and still violates on " + other.variant() + ".";
            }
            String refused = " is refused by " + other.variant() + (other.divergedAt() > 0 ? " at step " + other.divergedAt() : "");
            PropertyResult r = result();
            if (r == null) {
                return "No regression proof yet: " + what + ownPart + refused + ", but " + trace.property() + " was not checked on "
                        + other.variant() + ".";
            }
            String at = " at the trace's bounds (" + bounds(trace) + ", " + String.format(java.util.Locale.ROOT, "%,d", check.stats().states())
                    + " states)";
            return switch (r.verdict()) {
                case HOLDS -> "Regression proof: " + what + ownPart + refused + ", and " + trace.property() + " HOLDS on "
                        + other.variant() + " exhaustively" + at + ".";
                case VIOLATED -> "No regression proof: " + what + ownPart + refused + ", but " + trace.property() + " is VIOLATED on "
                        + other.variant() + at + " by another run" + (r.trace() != null ? " (" + r.trace().length() + " steps)" : "") + ":";
                default -> "No regression proof: " + what + ownPart + refused + ", but the check of " + trace.property() + " on "
                        + other.variant() + at + " is INCOMPLETE (" + check.stats().limit() + ").";
            };
        }
    }

    /**
     * Replays {@code t} on its own variant (if built in; else {@code own} is null), on
     * {@code other} (built for the trace's parameters and property), and if refused there checks
     * the property on {@code other} exhaustively with {@code options}.
     */
    public static Proof prove(Trace t, Model other, Options options) {
        Outcome own = ownIsBuiltIn(t) ? run(t, null) : null;
        Outcome o = runOn(t, other);
        RunResult check = o.reproduced() || (own != null && !own.reproduced()) ? null : Engine.check(other, options);
        return new Proof(t, own, o, check);
    }
}
