package kcheck.verdicts;

import static kcheck.verdicts.Checks.model;
import static kcheck.verdicts.Checks.params;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.Model;
import kcheck.model.Models;
import kcheck.model.VariantInfo;

/**
 * {@code fifo-monitor=one} (one watched call at a time, with the watch's own partial-order
 * footprints) decides every property as {@code fifo-monitor=each} (a set per call; calls, returns
 * and wait changes visible) does, with and without partial-order reduction, and a counterexample
 * is as short as the unreduced search's: on every built-in rq-lock variant, over ticket,
 * test-and-set and qspinlock locks, at 2 CPUs (before, after and v6.12: also with 2 rounds and
 * without preemption), and at 3 CPUs for before, after and v6.12 on ticket and test-and-set locks
 * with preemption.
 * {@code -Dkcheck.long=true} (.ci/run's long tests): every combination at 2 CPUs and at 3 (qspinlock
 * at 3: before, after and v6.12), and at 4 CPUs before, after and v6.12 on ticket locks with
 * preemption (test-and-set at 4 CPUs: about 4 minutes each without reduction).
 */
class FifoMonitorOneAgreesTest {
    private static final boolean LONG = Boolean.getBoolean("kcheck.long");
    private static final String[] PROPERTIES = {"mutual-exclusion", "deadlock-free", "holds-both-on-return", "return-contract",
        "fifo-entry"};
    private static final Options ONE_WORKER = Options.defaults().withWorkers(1);

    @TestFactory
    Stream<DynamicTest> everyVariantHasTheSameVerdictsWithOneWatchedCall() {
        List<DynamicTest> tests = new ArrayList<>();
        for (VariantInfo v : Models.get("rq-lock").variants()) {
            for (String lock : new String[] {"ticket", "tas", "qspinlock"}) {
                for (String preempt : new String[] {"y", "n"}) {
                    int maxCpus = LONG ? 4 : 3;
                    for (int cpus = 2; cpus <= maxCpus; cpus++) {
                        for (int rounds = 1; rounds <= (cpus == 2 ? 2 : 1); rounds++) {
                            boolean main = !v.mutant() && v.bug() == null;
                            boolean qspinlock = lock.equals("qspinlock");
                            boolean skip = LONG
                                    ? cpus > 3 && !(main && preempt.equals("y") && lock.equals("ticket")) || cpus > 2 && qspinlock && !main
                                    : cpus > 2 && (qspinlock || !main || preempt.equals("n"))
                                            || rounds > 1 && !main || preempt.equals("n") && !main;
                            if (skip) {
                                continue;
                            }
                            Map<String, String> p = params("cpus", "" + cpus, "rounds", "" + rounds, "lock", lock, "preempt", preempt);
                            tests.add(DynamicTest.dynamicTest(v.name() + " " + p, () -> agree(v.name(), p)));
                        }
                    }
                }
            }
        }
        return tests.stream();
    }

    private static void agree(String variant, Map<String, String> p) {
        RunResult each = Engine.check(model("rq-lock", variant, p, PROPERTIES), ONE_WORKER.withPartialOrder(false));
        Map<String, String> q = new java.util.LinkedHashMap<>(p);
        q.put("fifo-monitor", "one");
        Model one = model("rq-lock", variant, q, PROPERTIES);
        RunResult reduced = Engine.check(one, ONE_WORKER);
        RunResult unreduced = Engine.check(one, ONE_WORKER.withPartialOrder(false));
        for (PropertyResult e : each.properties()) {
            assertThat(reduced.property(e.id()).verdict()).as(e.id() + " reduced").isEqualTo(e.verdict());
            assertThat(unreduced.property(e.id()).verdict()).as(e.id() + " unreduced").isEqualTo(e.verdict());
            if (e.trace() != null) {
                assertThat(unreduced.property(e.id()).trace().length()).as(e.id() + " shortest trace").isEqualTo(e.trace().length());
            }
        }
    }

    @Test
    void theWatchFindsThePostsUnfairRunAndNamesTheWatchedCall() {
        Model m = model("rq-lock", "before", params("cpus", "3", "fifo-monitor", "one"), "fifo-entry");
        RunResult r = Engine.check(m, ONE_WORKER);
        PropertyResult f = r.property("fifo-entry");
        assertThat(f.verdict()).isEqualTo(Verdict.VIOLATED);
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < f.trace().length(); i++) {
            labels.add(m.describe(f.trace().actors()[i], f.trace().actions()[i]).label());
        }
        assertThat(labels).filteredOn(l -> l.contains("fifo-entry's monitor watches this call")).hasSize(1);
        assertThat(f.message()).contains("returns from double_lock_balance holding");
    }

    @Test
    void oneWatchedCallHasFewerStatesAtThreeCpus() {
        Map<String, String> p = params("cpus", "3");
        long each = Engine.check(model("rq-lock", "after", p, "mutual-exclusion", "fifo-entry"), Options.defaults()).stats().states();
        p.put("fifo-monitor", "one");
        RunResult one = Engine.check(model("rq-lock", "after", p, "mutual-exclusion", "fifo-entry"), Options.defaults());
        assertThat(one.property("fifo-entry").verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(one.stats().states()).isLessThan(each);
    }
}
