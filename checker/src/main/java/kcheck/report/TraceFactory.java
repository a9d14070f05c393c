package kcheck.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import kcheck.engine.PropertyResult;
import kcheck.engine.RawTrace;
import kcheck.model.FieldSink;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.StepInfo;
import kcheck.trace.Trace;
import kcheck.variantfile.VariantSource;

/** Turns an engine path ({@link RawTrace}) into a {@link Trace}: decoded fields, labels, kernel functions. */
public final class TraceFactory {
    private TraceFactory() {
    }

    /** The decoded fields of a state, in the model's order. */
    public static List<Trace.Field> fields(Model model, long[] state) {
        List<Trace.Field> out = new ArrayList<>();
        model.decode(state, (actor, name, value) -> out.add(new Trace.Field(name, actor == FieldSink.SHARED ? null : actor, value)));
        return out;
    }

    /**
     * Builds the trace of property result {@code r} (its counterexample, or {@code raw} if given,
     * e.g. a metric witness). {@code fullStates} adds every field of every state to each step.
     */
    public static Trace of(Model model, PropertyResult r, RawTrace raw, Long seed, boolean fullStates, String verdict) {
        RawTrace t = raw != null ? raw : r.trace();
        List<Trace.Field> initial = fields(model, t.states().get(0));
        Map<String, Trace.Field> prev = index(initial);
        List<Trace.Step> steps = new ArrayList<>();
        for (int i = 0; i < t.length(); i++) {
            List<Trace.Field> now = fields(model, t.states().get(i + 1));
            List<Trace.Field> changes = new ArrayList<>();
            Map<String, Trace.Field> cur = index(now);
            for (Trace.Field f : now) {
                Trace.Field before = prev.get(f.name());
                if (before == null || !Objects.equals(before.value(), f.value())) {
                    changes.add(f);
                }
            }
            for (Trace.Field f : prev.values()) {
                if (!cur.containsKey(f.name())) {
                    changes.add(new Trace.Field(f.name(), f.actor(), "-"));
                }
            }
            StepInfo info = model.describe(t.actors()[i], t.actions()[i]);
            steps.add(new Trace.Step(i + 1, t.actors()[i], info.label(), info.kernelFunction(), changes,
                    fullStates ? now : null, locks(model, t.states().get(i + 1))));
            prev = cur;
        }
        ModelFactory f = factory(model.name());
        List<String> legend = f == null || f.legend().isEmpty() ? null : List.copyOf(f.legend());
        String sha = f == null ? null : VariantSource.sha256(f, model.variant());
        return new Trace(Trace.FORMAT, model.name(), model.variant(), new LinkedHashMap<>(model.params().asMap()), r.id(),
                r.kind().name().toLowerCase(java.util.Locale.ROOT), verdict, t.message(), seed, model.actors(), initial, steps,
                t.loopStart() >= 0 ? t.loopStart() : null, t.violationStep(), t.before() >= 0 ? t.before() : null, null,
                legend, locks(model, t.states().get(0)), sha, BuildInfo.label());
    }

    /** Who holds and who waits for each lock of {@code state}, or null if the model does not say. */
    static List<Trace.Lock> locks(Model model, long[] state) {
        List<Trace.Lock> out = new ArrayList<>();
        model.locks(state, (name, holders, waiters, ordered) -> out.add(new Trace.Lock(name,
                java.util.Arrays.stream(holders).boxed().toList(), java.util.Arrays.stream(waiters).boxed().toList(), ordered)));
        return out.isEmpty() ? null : out;
    }

    private static ModelFactory factory(String name) {
        try {
            return Models.get(name);
        } catch (kcheck.model.ModelInputException e) {
            return null;
        }
    }

    /** {@code t} recording the variant file it was produced on ({@code "path (sha256 HEX)"}; null: none). */
    public static Trace withVariantFile(Trace t, String variantFile) {
        if (variantFile == null) {
            return t;
        }
        int i = variantFile.lastIndexOf(" (sha256 ");
        String sha = i >= 0 && variantFile.endsWith(")") ? variantFile.substring(i + 9, variantFile.length() - 1) : null;
        return t.withVariantFile(variantFile).with(t.legend(), t.initialLocks(), sha, t.kcheck());
    }

    private static Map<String, Trace.Field> index(List<Trace.Field> fields) {
        Map<String, Trace.Field> m = new LinkedHashMap<>();
        for (Trace.Field f : fields) {
            m.put(f.name(), f);
        }
        return m;
    }
}
