package kcheck.verdicts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.ModelInputException;
import kcheck.model.Models;
import kcheck.model.PropertyInfo;

/**
 * lb-redo's new dimensions (issue 15): each one's bug/fix or before/after pair whose verdict
 * differs, with the shape of its counterexample; the real kernel bugs; symmetry reduction on the
 * new dimensions; and v6.12 against v5.13.
 */
class LbRedoDimensionsTest {
    private static final ModelFactory F = Models.get("lb-redo");

    private static Map<String, String> params(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static RunResult run(String variant, Map<String, String> params, boolean reductions, String... props) {
        Set<String> selected = props.length > 0 ? Set.of(props)
                : F.properties().stream().filter(p -> !p.optIn()).map(PropertyInfo::id).collect(Collectors.toSet());
        Model m = F.create(variant, F.params(params), selected);
        return Engine.check(m, Options.defaults().withReductions(reductions));
    }

    private static RunResult run(String variant, Map<String, String> params, String... props) {
        return run(variant, params, true, props);
    }

    private static List<String> labels(RunResult r, PropertyResult p) {
        return IntStream.range(0, p.trace().length())
                .mapToObj(i -> r.model().describe(p.trace().actors()[i], p.trace().actions()[i]).label()).toList();
    }

    /* ---- idle types ---- */

    @Test
    void theRaceNeedsAnIdleBalanceAPeriodicBalanceOfABusyCpuExaminesTheRunningTask() {
        for (String idle : List.of("newly-idle", "idle")) {
            Map<String, String> p = params("scenario", "race", "idle", idle);
            PropertyResult before = run("before", p, "no-spurious-redo").property("no-spurious-redo");
            assertThat(before.verdict()).as(idle).isEqualTo(Verdict.VIOLATED);
            assertThat(before.trace().length()).isEqualTo(5);
            assertThat(run("after", p, "no-spurious-redo").property("no-spurious-redo").verdict()).isEqualTo(Verdict.HOLDS);
        }
        // CPU_NOT_IDLE: detach_tasks does not stop at nr_running <= 1, so it examines rq->curr and
        // clears LBF_ALL_PINNED if curr may run on dst_cpu: the race redo does not happen in v5.11 either
        Map<String, String> busy = params("scenario", "race", "idle", "not-idle");
        assertThat(run("before", busy, "no-spurious-redo").property("no-spurious-redo").verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(run("before", busy).model().actors().get(0)).isEqualTo("CPU 0 (busy)");
    }

    /* ---- two-level domains ---- */

    @Test
    void clearingTheParentsImbalanceFlagOnARedoThatFindsBalanceIsCaughtAtTheClusterLevel() {
        Map<String, String> p = params("topology", "cluster", "cpus", "6", "groups", "2");
        RunResult bug = run("bug-f6cad8df6b30", p, "imbalance-kept");
        PropertyResult v = bug.property("imbalance-kept");
        assertThat(v.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(labels(bug, v)).containsExactly("load_balance: find_busiest_queue = CPU 2", "busiest->nr_running = 2 (unlocked)",
                "rq_lock(CPU 2); detach_tasks; rq_unlock", "goto redo", "redo: no busiest, goto out_balanced; next domain: PKG");
        assertThat(v.message()).contains("returns with it cleared");
        for (String fixed : List.of("before", "after", "v6.12")) {
            assertThat(run(fixed, p, "imbalance-kept").property("imbalance-kept").verdict()).as(fixed).isEqualTo(Verdict.HOLDS);
        }
        // with one domain level there is no parent: the bug cannot show
        assertThat(run("bug-f6cad8df6b30", params("cpus", "6"), "imbalance-kept").property("imbalance-kept").verdict())
                .isEqualTo(Verdict.HOLDS);
    }

    @Test
    void theAffinityRedoPathBugRedoesOverCpusOutsideTheSmtDomain() {
        Map<String, String> p = params("topology", "smt", "cpus", "4", "groups", "2");
        RunResult bug = run("bug-65a4433aebe3", p, "terminates");
        PropertyResult v = bug.property("terminates");
        assertThat(v.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(labels(bug, v)).containsExactly("load_balance: find_busiest_queue = CPU 1", "busiest->nr_running = 2 (unlocked)",
                "rq_lock(CPU 1); detach_tasks; rq_unlock", "goto redo");
        assertThat(v.message()).contains("more than |cpus0 \\ local group| - 1 = 0");
        assertThat(run("before", p, "terminates").property("terminates").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aNewlyIdleSmtBalanceThatPulledStopsTheWalkAndAPeriodicOneGoesOnToTheMcLevel() {
        RunResult newidle = run("after", params("topology", "smt", "cpus", "4", "groups", "2"));
        RunResult periodic = run("after", params("topology", "smt", "cpus", "4", "groups", "2", "idle", "idle"));
        assertThat(newidle.stats().complete()).isTrue();
        assertThat(periodic.stats().states()).isNotEqualTo(newidle.stats().states());
        for (RunResult r : List.of(newidle, periodic)) {
            for (PropertyResult p : r.properties()) {
                assertThat(p.verdict()).as(p.id()).isEqualTo(Verdict.HOLDS);
            }
        }
    }

    /* ---- affinity masks ---- */

    @Test
    void aNewDstCpuOnANewlyIdleBalanceNeedsAMaskThatAllowsAnotherCpuOfTheGroup() {
        PropertyResult own = run("mutant-newidle-new-dst", params(), "newidle-pulls-here").property("newidle-pulls-here");
        assertThat(own.verdict()).as("masks=own: no task is pinned away from CPU 0 yet allowed on CPU 1").isEqualTo(Verdict.HOLDS);
        RunResult local = run("mutant-newidle-new-dst", params("masks", "local"), "newidle-pulls-here");
        PropertyResult v = local.property("newidle-pulls-here");
        assertThat(v.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(labels(local, v)).contains("goto more_balance");
        assertThat(v.message()).contains("to CPU 1, not to itself");
        assertThat(run("after", params("masks", "local"), "newidle-pulls-here").property("newidle-pulls-here").verdict())
                .isEqualTo(Verdict.HOLDS);
    }

    @Test
    void periodicBalancingWithLocalMasksTakesTheDstPinnedRetryAndStillHoldsEverything() {
        RunResult r = run("after", params("masks", "local", "idle", "idle", "cpus", "6", "scenario", "pinned"));
        for (PropertyResult p : r.properties()) {
            assertThat(p.verdict()).as(p.id()).isEqualTo(Verdict.HOLDS);
        }
        // the LBF_DST_PINNED retry (dst_cpu moves to CPU 1, goto more_balance) adds states to masks=own's
        assertThat(r.stats().states()).isGreaterThan(run("after", params("cpus", "6", "scenario", "pinned", "idle", "idle"))
                .stats().states());
    }

    @Test
    void everyMaskOfEveryTaskIsExhaustiveOnSmallDomainsAndTooManyIsAnInputError() {
        RunResult any = run("after", params("masks", "any", "cpus", "4", "scenario", "pinned", "idle", "idle"), "terminates",
                "all-pinned-sound", "no-spurious-redo");
        assertThat(any.stats().complete()).isTrue();
        assertThat(any.property("no-spurious-redo").verdict()).isEqualTo(Verdict.HOLDS);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> F.create("after", F.params(params("masks", "any", "cpus", "8",
                "groups", "8")), Set.of("terminates"))).isInstanceOf(ModelInputException.class)
                .hasMessageContaining("masks=any gives more than");
    }

    /* ---- loop counters ---- */

    @Test
    void theRevertedDetachAtLeastOneScansAPinnedRunqueue32TimesAtTheKernelsValues() {
        RunResult bug = run("bug-2feab2492deb", params(), "scan-bounded");
        PropertyResult v = bug.property("scan-bounded");
        assertThat(v.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(v.trace().length()).isEqualTo(3);
        assertThat(v.message()).contains("examines 32 tasks").contains("env->loop_max = 2");
        assertThat(run("v6.12", params(), "scan-bounded").property("scan-bounded").verdict()).isEqualTo(Verdict.HOLDS);
        // CONFIG_PREEMPT_RT: SCHED_NR_MIGRATE_BREAK 8, the breather after 8
        PropertyResult rt = run("bug-2feab2492deb", params("nr-migrate-break", "8"), "scan-bounded").property("scan-bounded");
        assertThat(rt.message()).contains("examines 8 tasks");
    }

    @ParameterizedTest
    @CsvSource({"mutant-scan-one-past, scan-bounded, flat", "mutant-all-pinned-clears-imbalance, imbalance-kept, cluster"})
    void theSeededMutantsOfTheNewPropertiesAreCaught(String mutant, String property, String topology) {
        Map<String, String> p = topology.equals("flat") ? params("scenario", "pinned")
                : params("topology", topology, "cpus", "6", "groups", "2", "scenario", "pinned");
        assertThat(run(mutant, p, property).property(property).verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(run("v6.12", p, property).property(property).verdict()).isEqualTo(Verdict.HOLDS);
    }

    /* ---- reductions on the new dimensions ---- */

    @ParameterizedTest
    @CsvSource({"after, topology=cluster;cpus=6;groups=2;scenario=pinned", "before, topology=smt;cpus=6;groups=3;pulls=2",
        "v6.12, masks=local;idle=idle;cpus=6;groups=2", "bug-f6cad8df6b30, topology=cluster;cpus=6;groups=2;scenario=pinned",
        "after, idle=not-idle;masks=local;topology=smt;cpus=4;groups=2",
        "bug-6d7e4782bcf5, topology=smt-llc;cpus=6;groups=2;idle=idle;hot=none"})
    void symmetryReductionChangesNoVerdictAndNoMaximumOnTheNewDimensions(String variant, String spec) {
        Map<String, String> p = new LinkedHashMap<>();
        for (String kv : spec.split(";")) {
            p.put(kv.split("=")[0], kv.split("=")[1]);
        }
        RunResult reduced = run(variant, p, true);
        RunResult full = run(variant, p, false);
        assertThat(reduced.stats().states()).isLessThan(full.stats().states());
        for (PropertyResult r : full.properties()) {
            PropertyResult q = reduced.property(r.id());
            assertThat(q.verdict()).as(r.id()).isEqualTo(r.verdict());
            if (r.trace() != null) {
                assertThat(q.trace().length()).as(r.id()).isEqualTo(r.trace().length());
            }
            if (r.metric() != null) {
                assertThat(q.metric().max()).as(r.id()).containsExactly(r.metric().max());
            }
        }
    }

    /* ---- v6.12 ---- */

    @ParameterizedTest
    @CsvSource({"cpus=6", "cpus=6;scenario=race;pulls=2", "cpus=6;idle=idle;masks=local", "topology=smt;cpus=4;groups=2;idle=not-idle"})
    void v612GivesTheVerdictsAndMaximaOfV513(String spec) {
        Map<String, String> p = new LinkedHashMap<>();
        for (String kv : spec.split(";")) {
            p.put(kv.split("=")[0], kv.split("=")[1]);
        }
        RunResult v513 = run("after", p);
        RunResult v612 = run("v6.12", p);
        for (PropertyResult r : v513.properties()) {
            PropertyResult q = v612.property(r.id());
            assertThat(q.verdict()).as(r.id()).isEqualTo(r.verdict());
            if (r.metric() != null) {
                assertThat(q.metric().max()).as(r.id()).containsExactly(r.metric().max());
            }
        }
        assertThat(v612.model().describe(0, (1 << 12) | (2 << 8) | 3).label()).isEqualTo("redo: sched_balance_find_src_rq = CPU 2");
    }

    @Test
    void badTopologyShapesAreOneLineInputErrors() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> F.create("after", F.params(params("topology", "smt", "cpus", "6",
                "groups", "2")), Set.of("terminates"))).isInstanceOf(ModelInputException.class)
                .hasMessageContaining("cpus must be 2 x groups");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> F.create("after", F.params(params("topology", "cluster",
                "cpus", "4", "groups", "4")), Set.of("terminates"))).isInstanceOf(ModelInputException.class)
                .hasMessageContaining("at least two CPUs in CPU 0's group");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> F.create("after", F.params(params("topology", "smt-llc",
                "cpus", "4", "groups", "2")), Set.of("terminates"))).isInstanceOf(ModelInputException.class)
                .hasMessageContaining("at least 6");
    }
}
