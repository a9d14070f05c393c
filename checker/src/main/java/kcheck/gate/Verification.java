package kcheck.gate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.Params;

/**
 * Runs a baseline: entries with the same (model, variant, parameters) share one search that
 * checks all their properties; each entry's verdict is compared with its expectation.
 */
public final class Verification {
    private Verification() {
    }

    /**
     * One row of the verdict table. A metric without a bound is a figure, not a verdict: its
     * baseline entry expects HOLDS, that is its maximum taken over every reachable state.
     */
    public record Row(Baseline.Entry entry, Map<String, String> params, PropertyResult result, RunResult run) {
        public boolean matches() {
            return result.verdict() == entry.expected();
        }

        /** The verdict column: the verdict, or a figure's maximum ("max 4", "max ≥ 3"; "so far 4" if the search stopped first). */
        public String shown() {
            if (!result.figure()) {
                return result.verdict().name();
            }
            String max = result.metric().brief(result.metric().overall());
            return result.verdict() == Verdict.HOLDS ? "max " + max : "so far " + max;
        }

        /** The expected column: the baseline's verdict; for a figure "measured" (its maximum over every reachable state). */
        public String expectedShown() {
            return result.figure() && entry.expected() == Verdict.HOLDS ? "measured" : entry.expected().name();
        }
    }

    /** Builds the model instance of a group of entries (the built-in variants, or a variant file standing in for one). */
    @FunctionalInterface
    public interface Instances {
        Model create(ModelFactory factory, String variant, Params params, Set<String> properties);
    }

    public static List<Row> run(Baseline baseline, boolean quick, Options options, Consumer<Row> each) {
        return run(baseline, quick, options, each, ModelFactory::create);
    }

    /** As {@link #run(Baseline, boolean, Options, Consumer)}, building each instance with {@code instances}. */
    public static List<Row> run(Baseline baseline, boolean quick, Options options, Consumer<Row> each, Instances instances) {
        Map<String, List<Baseline.Entry>> groups = new LinkedHashMap<>();
        for (Baseline.Entry e : baseline.entries()) {
            String key = Baseline.group(e, quick);
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(e);
        }
        List<Row> rows = new ArrayList<>();
        for (List<Baseline.Entry> group : groups.values()) {
            if (options.listener().stopRequested() != null) {
                break;
            }
            Baseline.Entry first = group.get(0);
            ModelFactory f = Models.get(first.model());
            java.util.Set<String> props = new java.util.LinkedHashSet<>();
            group.forEach(e -> props.add(e.property()));
            Map<String, String> params = first.effectiveParams(quick);
            Model m = instances.create(f, first.variant(), f.params(params), props);
            RunResult r = Engine.check(m, options);
            for (Baseline.Entry e : group) {
                Row row = new Row(e, m.params().asMap(), r.property(e.property()), r);
                rows.add(row);
                each.accept(row);
            }
        }
        return rows;
    }

    /** True if every row's verdict equals its expectation. */
    public static boolean allMatch(List<Row> rows) {
        return rows.stream().allMatch(Row::matches);
    }

    static Verdict verdict(Row r) {
        return r.result().verdict();
    }
}
