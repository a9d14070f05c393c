package kcheck.verdicts;

import static kcheck.junit.KcheckAssertions.assertThat;
import static kcheck.verdicts.Checks.params;
import static kcheck.verdicts.Checks.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.RawTrace;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.Model;

/** The verdicts of the rq-lock model (docs/models/rq-lock.md), computed by the engine. */
class RqLockVerdictTest {
    private static final String[] SAFETY = {"mutual-exclusion", "deadlock-free", "holds-both-on-return", "return-contract"};

    @ParameterizedTest(name = "{0} {1} cpus={2} rounds={3}")
    @CsvSource({
        "before, ticket, 2, 2", "before, ticket, 3, 2",
        "after, ticket, 2, 2", "after, ticket, 3, 2",
        "after, tas, 2, 2", "after, tas, 3, 1"})
    void safetyPropertiesHoldOnBothVariantsAndLockKinds(String variant, String lock, int cpus, int rounds) {
        assertThat(run("rq-lock", variant, params("cpus", "" + cpus, "rounds", "" + rounds, "lock", lock), SAFETY)).holds();
    }

    @ParameterizedTest(name = "{0} {1} cpus={2}: {3}")
    @CsvSource({
        "before, ticket, 2, VIOLATED", "before, ticket, 3, VIOLATED",
        "after, ticket, 2, HOLDS", "after, ticket, 3, HOLDS", "after, ticket, 4, HOLDS",
        "after, tas, 2, VIOLATED", "after, tas, 3, VIOLATED"})
    void fifoEntryVerdictsMatchKernelMd(String variant, String lock, int cpus, Verdict expected) {
        assertThat(run("rq-lock", variant, params("cpus", "" + cpus, "lock", lock), "fifo-entry"))
                .hasVerdict("fifo-entry", expected);
    }

    @Test
    void fairPatchRefusesTheUnfairRunAtTheFailedTrylock() {
        RunResult r = run("rq-lock", "before", params("cpus", "2"), "fifo-entry");
        kcheck.trace.Trace t = assertThat(r).isViolatedBy("fifo-entry").hasShortestTraceOfLength(10).trace();
        assertThat(t).reproduces();
        assertThat(t).replaysOn("after").isRefused().divergesAt(6);
    }

    @Test
    void unfairVariantLetsCpu0JumpTheQueueExactlyAsInThePost() {
        RunResult r = run("rq-lock", "before", params("cpus", "2"), "fifo-entry");
        RawTrace t = r.property("fifo-entry").trace();
        Model m = r.model();
        List<String> steps = new ArrayList<>();
        for (int i = 0; i < t.length(); i++) {
            steps.add(m.actors().get(t.actors()[i]) + ": " + m.describe(t.actors()[i], t.actions()[i]).label());
        }
        assertThat(steps).containsSubsequence(
                "CPU 0: spin_lock(rq[0]): ticket served",
                "CPU 1: double_lock_balance(this_rq=rq[1], busiest=rq[0])",
                "CPU 1: spin_trylock(rq[0]) = 0",
                "CPU 1: spin_unlock(rq[1])",
                "CPU 1: spin_lock(rq[0]): take ticket",
                "CPU 0: double_lock_balance(this_rq=rq[0], busiest=rq[1])");
        assertThat(steps.get(steps.size() - 1)).isEqualTo("CPU 0: spin_trylock(rq[1]) = 1 \u2192 double_lock_balance returns 0");
        assertThat(r.property("fifo-entry").message()).contains("CPU 0 returns").contains("CPU 1");
    }

    @ParameterizedTest(name = "{0} breaks {1}")
    @CsvSource({
        "mutant-returns-zero, return-contract",
        "mutant-skips-relock, holds-both-on-return",
        "mutant-unordered, deadlock-free",
        "mutant-unlocks-this, mutual-exclusion"})
    void eachSafetyPropertyCatchesItsSeededMutant(String mutant, String property) {
        assertThat(run("rq-lock", mutant, params("cpus", "3"), property)).isViolatedBy(property);
    }

    @Test
    void overtakeIsZeroForEveryCpuOnlyWithTheFairPatchAndTicketLocks() {
        Map<String, String> p = params("cpus", "3", "rounds", "2");
        assertThat(run("rq-lock", "after", p, "overtake").property("overtake").metric().max()).containsOnly(0L);
        assertThat(run("rq-lock", "before", p, "overtake").property("overtake").metric().max()).contains(1L);
        Map<String, String> tas = params("cpus", "3", "rounds", "2", "lock", "tas");
        assertThat(run("rq-lock", "after", tas, "overtake").property("overtake").metric().overall()).isGreaterThan(1L);
    }

    @Test
    void bypassAsKernelMdDefinesItSaturatesOnBothVariants() {
        for (String v : List.of("before", "after")) {
            RunResult r = run("rq-lock", v, params("cpus", "3", "rounds", "2"), "bypass");
            assertThat(r.property("bypass").metric().max()).as(v).containsOnly(4L);
        }
    }

    @Test
    void ticketShiftReductionKeepsEveryVerdictAndShrinksTheStateSpace() {
        for (String v : List.of("before", "after")) {
            String[] all = {"mutual-exclusion", "deadlock-free", "holds-both-on-return", "return-contract", "fifo-entry",
                "bypass", "overtake"};
            Model m = Checks.model("rq-lock", v, params("cpus", "3", "rounds", "2"), all);
            RunResult on = Engine.check(m, Options.defaults().withWorkers(1));
            RunResult off = Engine.check(m, Options.defaults().withWorkers(1).withReductions(false));
            for (String p : all) {
                assertThat(on.property(p).verdict()).as(v + " " + p).isEqualTo(off.property(p).verdict());
                if (on.property(p).metric() != null) {
                    assertThat(on.property(p).metric().max()).isEqualTo(off.property(p).metric().max());
                }
                if (on.property(p).trace() != null) {
                    assertThat(on.property(p).trace().length()).isEqualTo(off.property(p).trace().length());
                }
            }
            assertThat(on.stats().states()).isLessThan(off.stats().states());
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
        "before, mutual-exclusion", "before, deadlock-free", "before, fifo-entry", "after, mutual-exclusion",
        "after, deadlock-free", "after, holds-both-on-return", "mutant-unlocks-this, mutual-exclusion",
        "mutant-unordered, deadlock-free", "mutant-skips-relock, holds-both-on-return", "mutant-returns-zero, return-contract"})
    void partialOrderReductionKeepsVerdicts(String variant, String property) {
        Model m = Checks.model("rq-lock", variant, params("cpus", "3", "rounds", "2"), property);
        RunResult on = Engine.check(m, Options.defaults().withWorkers(1));
        RunResult off = Engine.check(m, Options.defaults().withWorkers(1).withReductions(false));
        assertThat(on.property(property).verdict()).isEqualTo(off.property(property).verdict());
        if (off.property(property).trace() != null) {
            assertThat(on.property(property).trace()).isNotNull();
        }
        if (off.property(property).verdict() == Verdict.HOLDS) {
            /* only a complete search has a state count to compare: a violated one stops at a point that depends on hash order */
            assertThat(on.stats().states()).isLessThanOrEqualTo(off.stats().states());
        }
    }

    @Test
    void parallelAndSequentialSearchesAgree() {
        Model m = Checks.model("rq-lock", "before", params("cpus", "3", "rounds", "2"), "mutual-exclusion", "fifo-entry");
        RunResult one = Engine.check(m, Options.defaults().withWorkers(1));
        RunResult two = Engine.check(m, Options.defaults().withWorkers(2));
        assertThat(two.property("fifo-entry").trace().length()).isEqualTo(one.property("fifo-entry").trace().length());
        Model all = Checks.model("rq-lock", "after", params("cpus", "3", "rounds", "2"), "mutual-exclusion");
        assertThat(Engine.check(all, Options.defaults().withWorkers(2)).stats().states())
                .isEqualTo(Engine.check(all, Options.defaults().withWorkers(1)).stats().states());
    }

    /* ---------------- the lock contract, CONFIG_PREEMPT, v6.12 ---------------- */

    @Test
    void theFairBodyIsOnlyUnderConfigPreempt() {
        assertThat(run("rq-lock", "after", params("cpus", "2", "preempt", "n"), "fifo-entry")).isViolatedBy("fifo-entry");
        assertThat(run("rq-lock", "after", params("cpus", "2", "preempt", "y"), "fifo-entry")).holds();
    }

    @Test
    void aBrokenTrylockShowsOnlyThroughTheBodyThatCallsIt() {
        assertThat(run("rq-lock", "mutant-split-trylock", params("cpus", "2", "preempt", "n"), "mutual-exclusion"))
                .isViolatedBy("mutual-exclusion");
        assertThat(run("rq-lock", "mutant-split-trylock", params("cpus", "2", "preempt", "y"), "mutual-exclusion")).holds();
    }

    @Test
    void qspinlockFastPathPassesACpuThatHasNotSetPendingYet() {
        RunResult r = run("rq-lock", "v6.12", params("cpus", "2", "lock", "qspinlock"), "fifo-entry");
        RawTrace t = r.property("fifo-entry").trace();
        Model m = r.model();
        List<String> steps = new ArrayList<>();
        for (int i = 0; i < t.length(); i++) {
            steps.add(m.actors().get(t.actors()[i]) + ": " + m.describe(t.actors()[i], t.actions()[i]).label());
        }
        assertThat(steps).hasSize(9).containsSubsequence(
                "CPU 1: raw_spin_rq_lock(rq[0]): cmpxchg fails: slowpath",
                "CPU 0: raw_spin_rq_unlock(rq[0])",
                "CPU 0: raw_spin_rq_lock(rq[0]): cmpxchg(0 -> locked)");
        assertThat(steps.get(8)).endsWith("\u2192 double_lock_balance returns 1");
    }

    @ParameterizedTest(name = "v6.12 {0}: {1}")
    @CsvSource({
        "lock=ticket, HOLDS", "lock=qspinlock-virt, VIOLATED", "lock=ticket preempt=n, VIOLATED"})
    void fifoEntryOnV612DependsOnTheLockAndConfigPreemption(String config, Verdict expected) {
        Map<String, String> p = new java.util.HashMap<>(params("cpus", "3"));
        for (String kv : config.split(" ")) {
            p.put(kv.split("=")[0], kv.split("=")[1]);
        }
        assertThat(run("rq-lock", "v6.12", p, "fifo-entry")).hasVerdict("fifo-entry", expected);
    }

    @Test
    void qspinlockKeepsTheSafetyProperties() {
        assertThat(run("rq-lock", "v6.12", params("cpus", "3", "lock", "qspinlock"), SAFETY)).holds();
        assertThat(run("rq-lock", "v6.12", params("cpus", "3", "lock", "qspinlock-virt"), SAFETY)).holds();
        assertThat(run("rq-lock", "mutant-qspinlock-no-undo", params("cpus", "2", "lock", "qspinlock"), "deadlock-free"))
                .isViolatedBy("deadlock-free");
    }

    @Test
    void coreSchedulingNeedsTheCoreIdOrder() {
        Map<String, String> pairs = params("cpus", "4", "core-sched", "pairs");
        assertThat(run("rq-lock", "mutant-cpu-id-order", pairs, "deadlock-free")).isViolatedBy("deadlock-free");
        assertThat(run("rq-lock", "v6.12", pairs, "deadlock-free")).holds();
    }

    @ParameterizedTest(name = "{0} {1}: {2}")
    @CsvSource({
        "bug-1b12bbc74756, calls=2, lockdep-subclass",
        "bug-7f1b43936f0e, calls=2 preempt=n, lockdep-subclass",
        "bug-2679a83731d5, calls=1, rq-clock-cleared"})
    void eachRealBugIsCaughtByItsProperty(String bug, String config, String property) {
        Map<String, String> p = new java.util.HashMap<>(params("cpus", "3"));
        for (String kv : config.split(" ")) {
            p.put(kv.split("=")[0], kv.split("=")[1]);
        }
        assertThat(run("rq-lock", bug, p, property)).isViolatedBy(property);
    }

    /** starvation-free: fair locks hold it (ticket; qspinlock's pending path at 2 CPUs), test-and-set locks starve a spinner. */
    @ParameterizedTest(name = "{0} {1} cpus={2}: {3}")
    @CsvSource({
        "after, ticket, 2, HOLDS", "before, ticket, 2, HOLDS", "v6.12, qspinlock, 2, HOLDS",
        "v6.12, tas, 2, VIOLATED", "v6.12, qspinlock-virt, 2, VIOLATED", "after, tas, 2, VIOLATED"})
    void starvationFreeHoldsOnFairLocksAndFailsOnTestAndSet(String variant, String lock, int cpus, Verdict expected) {
        assertThat(run("rq-lock", variant, params("cpus", "" + cpus, "lock", lock), "starvation-free"))
                .hasVerdict("starvation-free", expected);
    }

    /** The real bug 59fb586b4a07 (v4.17's unbounded pending cmpxchg loop) starves a CPU: a lasso in which it only fails the cmpxchg. */
    @Test
    void unboundedPendingCmpxchgLoopStarvesACpu() {
        RunResult r = run("rq-lock", "bug-59fb586b4a07", params("cpus", "2"), "starvation-free");
        assertThat(r).isViolatedBy("starvation-free");
        RawTrace t = r.property("starvation-free").trace();
        assertThat(t.loopStart()).isNotNegative();
        List<String> cycle = new ArrayList<>();
        for (int i = t.loopStart(); i < t.length(); i++) {
            cycle.add(r.model().describe(t.actors()[i], t.actions()[i]).label());
        }
        assertThat(cycle).anyMatch(l -> l.contains("cmpxchg fails, retry")).noneMatch(l -> l.contains("(taken)") && l.contains("retry"));
        assertThat(run("rq-lock", "bug-59fb586b4a07", params("cpus", "2"), "mutual-exclusion", "deadlock-free")).holds();
    }

    /** The real bug 7aa54be29765 (x86's fetch_or as a try_cmpxchg loop in the pending path) starves a CPU too. */
    @Test
    void x86FetchOrCmpxchgLoopStarvesACpu() {
        assertThat(run("rq-lock", "bug-7aa54be29765", params("cpus", "2"), "starvation-free")).isViolatedBy("starvation-free").isLasso();
    }

    /**
     * The real bug 95bcade33a8a (the MCS node published by xchg_release, no smp_wmb) is the same program as v6.12 under
     * sequential consistency: mutual exclusion and deadlock freedom hold at 3 CPUs. Under memory-model=lkmm it
     * hangs (LkmmCheckTest).
     */
    @Test
    void nodePublishedByXchgReleaseIsCorrectUnderSequentialConsistency() {
        RunResult bug = run("rq-lock", "bug-95bcade33a8a", params("cpus", "3", "lock", "qspinlock"), "mutual-exclusion", "deadlock-free");
        assertThat(bug).holds();
    }

    /** The kernel's own check and the lock-word sanity: HOLD on the ports, VIOLATED on the mutants that break them. */
    @ParameterizedTest(name = "{0} {1} {2}: {3} {4}")
    @CsvSource({
        "v6.12, qspinlock, y, warn-unlock-unheld, HOLDS", "v6.12, qspinlock, y, sanity-lock-word, HOLDS",
        "v6.12, ticket, n, sanity-lock-word, HOLDS", "before, ticket, y, sanity-lock-word, HOLDS",
        "mutant-unlocks-this, ticket, y, warn-unlock-unheld, VIOLATED",
        "mutant-qspinlock-no-undo, ticket, y, sanity-lock-word, VIOLATED",
        "mutant-split-trylock, ticket, n, sanity-lock-word, VIOLATED"})
    void kernelChecksAndLockWordSanity(String variant, String lock, String preempt, String property, Verdict expected) {
        assertThat(run("rq-lock", variant, params("cpus", "2", "lock", lock, "preempt", preempt), property))
                .hasVerdict(property, expected);
    }
}
