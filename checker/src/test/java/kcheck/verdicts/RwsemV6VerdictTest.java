package kcheck.verdicts;

import static kcheck.verdicts.Checks.params;
import static kcheck.verdicts.Checks.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import kcheck.engine.PropertyResult;
import kcheck.engine.RawTrace;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.Model;

/**
 * rwsem-owner on kernel/locking/rwsem.c of v5.4 and v6.12, the new properties and the preemption
 * dimension, at small bounds (the README's table runs them at 2 readers and 2 writers; the
 * baseline at the bounds it names). Each new property is shown to fail on a seeded mutant or a
 * real kernel bug, and to hold on the fixed code.
 */
class RwsemV6VerdictTest {

    private static List<String> steps(Model m, RawTrace t, int from) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < t.length(); i++) {
            out.add(m.actors().get(t.actors()[i]) + ": " + m.describe(t.actors()[i], t.actions()[i]).label());
        }
        return out;
    }

    /**
     * The two barrier bugs (e1b98fa31664, 99143f82a255) are v6.12's program under sequential consistency, so they hold
     * here; under memory-model=lkmm mutual exclusion breaks (kcheck.lkmm.RwsemCheckTest).
     */
    @ParameterizedTest(name = "{0}: safety holds")
    @CsvSource({"v6.12", "v5.4", "bug-e1b98fa31664", "bug-99143f82a255"})
    void exclusionOwnerSoundHandoffAndDeadlockFreedomHoldOnOneReaderAndOneWriter(String variant) {
        RunResult r = run("rwsem-owner", variant, params("readers", "1", "writers", "1"), "exclusion", "owner-sound", "handoff",
                "deadlock-free", "spin-on-running-writer");
        assertThat(r.stats().complete()).isTrue();
        for (String p : List.of("exclusion", "owner-sound", "handoff", "deadlock-free", "spin-on-running-writer")) {
            assertThat(r.property(p).verdict()).as(variant + " " + p).isEqualTo(Verdict.HOLDS);
        }
    }

    @Test
    void aSpinnerThatIgnoresOnCpuSpinsForeverOnAPreemptedWriterButV48Stops() {
        var p = params("readers", "1", "writers", "2", "rt", "all");
        RunResult bad = run("rwsem-owner", "mutant-spins-on-preempted-owner", p, "no-spin-on-preempted-owner");
        PropertyResult v = bad.property("no-spin-on-preempted-owner");
        assertThat(v.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(v.trace().loopStart()).isNotNegative();
        assertThat(steps(bad.model(), v.trace(), 0)).anyMatch(s -> s.endsWith("preempted (on_cpu = 0)"));
        assertThat(run("rwsem-owner", "after", p, "no-spin-on-preempted-owner").property("no-spin-on-preempted-owner").verdict())
                .isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aWriterPreemptedBeforeSettingOwnerLiveLocksAnRtWaiterOnlyWithoutTheFix48dfb5d2560d() {
        var p = params("readers", "0", "writers", "2", "rt", "all");
        RunResult bug = run("rwsem-owner", "bug-48dfb5d2560d", p, "no-spin-on-preempted-owner");
        RawTrace t = bug.property("no-spin-on-preempted-owner").trace();
        List<String> s = steps(bug.model(), t, 0);
        assertThat(s).containsSubsequence("writer 0 (RT): rwsem_write_trylock: cmpxchg count 0 -> WRITER_LOCKED ok",
                "writer 0 (RT): preempted (on_cpu = 0)");
        assertThat(steps(bug.model(), t, t.loopStart())).allMatch(x -> x.startsWith("writer 1 (RT)"))
                .anyMatch(x -> x.contains("rwsem_owner_flags: load owner = NULL"));
        assertThat(run("rwsem-owner", "v6.12", p, "no-spin-on-preempted-owner").property("no-spin-on-preempted-owner").verdict())
                .isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aReaderPreemptedBeforeSettingReaderOwnedLiveLocksAnRtWaiterOnlyWithoutTheFix3f5245538a19() {
        var p = params("readers", "1", "writers", "1", "rt", "all", "preempt", "all");
        RunResult bug = run("rwsem-owner", "bug-3f5245538a19", p, "no-spin-on-preempted-owner");
        assertThat(bug.property("no-spin-on-preempted-owner").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(steps(bug.model(), bug.property("no-spin-on-preempted-owner").trace(), 0))
                .anyMatch(x -> x.equals("reader 0: preempted (on_cpu = 0)"));
        assertThat(run("rwsem-owner", "v6.12", p, "no-spin-on-preempted-owner").property("no-spin-on-preempted-owner").verdict())
                .isEqualTo(Verdict.HOLDS);
    }

    @Test
    void theHandoffBitKeepsTheLockForItsWaiterUnlessTheUnqueuedTrylockIgnoresIt() {
        var p = params("readers", "0", "writers", "2", "rt", "all");
        RunResult bad = run("rwsem-owner", "mutant-unqueued-ignores-handoff", p, "handoff");
        assertThat(bad.property("handoff").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(bad.property("handoff").message()).contains("takes the lock while the handoff bit is set for");
        assertThat(run("rwsem-owner", "v6.12", p, "handoff").property("handoff").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aWriterWhoseWaitTimedOutIsNotStarvedOnV612ButIsWithoutTheHandoffRequestAndOnV48() {
        var p = params("readers", "0", "writers", "2");
        assertThat(run("rwsem-owner", "v6.12", p, "no-writer-starvation").property("no-writer-starvation").verdict())
                .isEqualTo(Verdict.HOLDS);
        RunResult mutant = run("rwsem-owner", "mutant-no-handoff-request", p, "no-writer-starvation");
        PropertyResult v = mutant.property("no-writer-starvation");
        assertThat(v.verdict()).isEqualTo(Verdict.VIOLATED);
        List<String> cycle = steps(mutant.model(), v.trace(), v.trace().loopStart());
        assertThat(cycle).as("fair: both writers step on the cycle").anyMatch(x -> x.startsWith("writer 0"))
                .anyMatch(x -> x.startsWith("writer 1"));
        assertThat(mutant.model().reductions()).as("fairness names tasks: no canonical renaming of them")
                .anyMatch(x -> x.startsWith("no task symmetry")).noneMatch(x -> x.startsWith("writer-symmetry"));
        RunResult v48 = run("rwsem-owner", "after", params("readers", "1", "writers", "2"), "no-writer-starvation");
        assertThat(v48.property("no-writer-starvation").verdict()).isEqualTo(Verdict.VIOLATED);
    }

    @Test
    void onV54ASpinningReaderLeavesTheHandoffWriterAsleepWithNoReaderBiasLeftWhichIsNotTheReaderStreamOf2f06f702925b() {
        var p = params("readers", "1", "writers", "1");
        RunResult r = run("rwsem-owner", "v5.4", p, "sleeping-writer-woken", "reader-stream-starvation");
        PropertyResult asleep = r.property("sleeping-writer-woken");
        assertThat(asleep.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(steps(r.model(), asleep.trace(), asleep.trace().loopStart())).allMatch(x -> x.startsWith("reader 0"))
                .anyMatch(x -> x.contains("rwsem_try_read_lock_unqueued: load count = WAITERS|HANDOFF"));
        assertThat(r.property("reader-stream-starvation").verdict()).as("one reader cannot keep the reader count up")
                .isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aWriterSpinningOnReadersStopsAtItsDeadlineOnV612ButNotWithoutIt() {
        var p = params("readers", "1", "writers", "1");
        assertThat(run("rwsem-owner", "v6.12", p, "no-spin-on-readers").property("no-spin-on-readers").verdict())
                .isEqualTo(Verdict.HOLDS);
        RunResult bad = run("rwsem-owner", "mutant-reader-spin-no-deadline", p, "no-spin-on-readers");
        assertThat(bad.property("no-spin-on-readers").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(bad.property("no-spin-on-readers").trace().loopStart()).isNotNegative();
    }

    @Test
    void preemptParameterDefaultsToWritersAndAllAlsoPreemptsReaders() {
        var base = params("readers", "1", "writers", "1");
        RunResult writers = run("rwsem-owner", "after", base, "exclusion");
        var all = params("readers", "1", "writers", "1", "preempt", "all");
        RunResult both = run("rwsem-owner", "after", all, "exclusion");
        var none = params("readers", "1", "writers", "1", "preempt", "none");
        RunResult nobody = run("rwsem-owner", "after", none, "exclusion");
        assertThat(both.stats().states()).isGreaterThan(writers.stats().states());
        assertThat(nobody.stats().states()).isLessThan(writers.stats().states());
        assertThat(writers.model().params().get("preempt")).isEqualTo("writers");
    }
}
