package kcheck.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.gate.Baseline;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;

/** The baseline's search groups, their one-machine results (computed once), and the comparison a cluster must pass. */
final class Groups {
    record Group(String name, Model model) {
    }

    private static final Map<String, RunResult> ONE = new ConcurrentHashMap<>();

    private Groups() {
    }

    /** Every (model, variant, bounds) of the baseline with its properties; quick bounds if {@code quick}. */
    static List<Group> all(boolean quick) {
        return all(quick, 1);
    }

    /** How many groups the baseline has (no model built). */
    static int count(boolean quick) {
        return Keyed.of(quick).props().size();
    }

    /** The baseline's groups by key ("model variant params"), in baseline order: every property each names, and its first entry. */
    private record Keyed(Map<String, Set<String>> props, Map<String, Baseline.Entry> first) {
        static Keyed of(boolean quick) {
            Keyed k = new Keyed(new LinkedHashMap<>(), new LinkedHashMap<>());
            for (Baseline.Entry e : Baseline.read(Path.of("..", "kcheck-baseline.json")).entries()) {
                String key = e.model() + " " + e.variant() + " " + e.effectiveParams(quick);
                k.props.computeIfAbsent(key, x -> new LinkedHashSet<>()).add(e.property());
                k.first.putIfAbsent(key, e);
            }
            return k;
        }
    }

    /** Every {@code stride}-th group in baseline order (models are built only for those). */
    static List<Group> all(boolean quick, int stride) {
        Keyed k = Keyed.of(quick);
        Map<String, Set<String>> props = k.props();
        Map<String, Baseline.Entry> first = k.first();
        List<Group> out = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, Set<String>> g : props.entrySet()) {
            if (i++ % stride != 0) {
                continue;
            }
            Baseline.Entry e = first.get(g.getKey());
            ModelFactory f = Models.get(e.model());
            out.add(new Group(g.getKey(), f.create(e.variant(), f.params(e.effectiveParams(quick)), g.getValue())));
        }
        return out;
    }

    /** The first group of each model: a representative subset. */
    static List<Group> onePerModel(boolean quick) {
        Map<String, Group> out = new LinkedHashMap<>();
        for (Group g : all(quick)) {
            out.putIfAbsent(g.model().name(), g);
        }
        return new ArrayList<>(out.values());
    }

    static RunResult oneMachine(Group g) {
        return ONE.computeIfAbsent(g.name(), k -> Engine.check(g.model(), Options.defaults().withWorkers(1)));
    }

    /**
     * Groups over this many states at quick bounds take tens of seconds on three nodes: the default build leaves them to
     * -Pcluster-full. 50,000 states in the default build; 400,000 with -Dkcheck.long=true (.ci/run's long tests).
     */
    static final long CAP = Boolean.getBoolean("kcheck.long") ? 400_000 : 50_000;

    /**
     * The groups whose one-machine search is decided within {@link #CAP} states, chosen up front;
     * one printed line names the others, which -Pcluster-full checks.
     */
    static List<Group> decidedUnderCap(List<Group> all, String suite) {
        List<Group> decided = new ArrayList<>();
        List<String> more = new ArrayList<>();
        for (Group g : all) {
            if (oneMachineUnderCap(g) != null) {
                decided.add(g);
            } else {
                more.add(g.name());
            }
        }
        System.out.println("[" + suite + "] " + decided.size() + " of " + all.size() + " baseline groups at quick bounds; -Pcluster-full adds the "
                + more.size() + " over " + CAP + " states: " + String.join("; ", more));
        return decided;
    }

    /** The one-machine result, or null if the search passed {@link #CAP} states before it was decided. */
    static RunResult oneMachineUnderCap(Group g) {
        RunResult r = ONE.computeIfAbsent(g.name() + " (cap)", k -> Engine.check(g.model(), Options.defaults().withWorkers(1).withMaxStates(CAP)));
        boolean decided = r.stats().complete() || r.properties().stream().allMatch(p -> p.verdict() == kcheck.engine.Verdict.VIOLATED);
        return decided ? r : null;
    }

    /**
     * Same verdicts, maxima and counterexample lengths, and (when exhaustive) the same state count and depth.
     * One exception, by design: on a model with partial-order reduction whose state graph has
     * cycles, a partitioned search cannot see whether a successor another partition owns was
     * visited, so its cycle proviso counts it as visited and expands that state fully. It then
     * stores at least the one machine's states, never fewer (v6.12 qspinlock at 2 CPUs: 362 vs 311).
     */
    static void assertSame(Model model, RunResult one, RunResult other) {
        assertThat(other.stats().complete()).as("exhaustive").isEqualTo(one.stats().complete());
        if (one.stats().complete()) {
            if (Engine.countDependsOnOrder(model)) {
                assertThat(other.stats().states()).as("distinct states (conservative proviso)")
                        .isGreaterThanOrEqualTo(one.stats().states());
            } else {
                assertThat(other.stats().states()).as("distinct states").isEqualTo(one.stats().states());
                assertThat(other.stats().depth()).as("depth").isEqualTo(one.stats().depth());
            }
        }
        for (PropertyResult p : one.properties()) {
            PropertyResult q = other.property(p.id());
            assertThat(q.verdict()).as(p.id()).isEqualTo(p.verdict());
            if (p.metric() != null) {
                assertThat(q.metric().max()).as(p.id() + " maxima").isEqualTo(p.metric().max());
            }
            if (p.trace() != null && p.trace().loopStart() < 0) {
                assertThat(q.trace()).as(p.id() + " trace").isNotNull();
                assertThat(q.trace().length()).as(p.id() + " shortest trace").isEqualTo(p.trace().length());
            }
        }
    }
}
