package kcheck.verdicts;

import static kcheck.verdicts.Checks.params;
import static kcheck.verdicts.Checks.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.Verdict;
import kcheck.model.Kernel;
import kcheck.model.Models;
import kcheck.model.rwsem.RwSem;
import kcheck.model.rwsem.RwsemCount;
import kcheck.model.rwsem.RwsemOwnerFactory;
import kcheck.model.rwsem.RwsemV48;
import kcheck.model.rwsem.RwsemVariant;

/**
 * Wake-ups as the kernel makes them (wakeups=wake-q, spurious): wake_q_add and the grant are separate steps of the
 * waker, wake_up_q comes later, a task on a wake queue is not queued twice, a sleeper may return from schedule() at any
 * time. Each is shown to catch what the atomic wake-up of the model before issue 30 hides.
 */
class RwsemWakeQueueTest {

    private static PropertyResult check(String variant, Map<String, String> params, String property) {
        return run("rwsem-owner", variant, params, property).property(property);
    }

    private static PropertyResult check(RwsemVariant v, Map<String, String> params, String property) {
        RwsemOwnerFactory f = (RwsemOwnerFactory) Models.get("rwsem-owner");
        return Engine.check(f.create("wake-test", v, f.params(params), Set.of(property)), Options.defaults().withWorkers(1))
                .property(property);
    }

    @Test
    void theV48GrantLoopLosesAReadersWakeUpWhenItsWakeQueueAddFindsItOnAnotherWakersQueue() {
        // v4.6 to v4.20: wake_q_add(wake_q, tsk) before smp_store_release(&waiter->task, NULL) ("locking/rwsem: Fix
        // (possible) missed wakeup", v5.0): the other waker's wake_up_q wakes the reader before its grant
        PropertyResult r = check("after", params("readers", "1", "writers", "2", "wakeups", "wake-q"), "no-lost-wakeup");
        assertThat(r.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.message()).contains("reader 0 sleeps in schedule()").contains("waiter->task is NULL");
        assertThat(r.trace().length()).isEqualTo(40);
    }

    @Test
    void theAtomicWakeUpOfTheOldModelHidesThatLostWakeUp() {
        assertThat(check("after", params("readers", "1", "writers", "2", "wakeups", "atomic"), "no-lost-wakeup").verdict())
                .isEqualTo(Verdict.HOLDS);
        assertThat(check("after", params("readers", "1", "writers", "2", "wakeups", "atomic"), "deadlock-free").verdict())
                .isEqualTo(Verdict.HOLDS);
    }

    /** v4.8 whose reader checks waiter.task before set_current_state(): the classic lost wake-up window. */
    static final class ChecksBeforeSettingItsState extends RwsemV48 {
        @Override
        @Kernel(function = "rwsem_down_read_failed", file = "kernel/locking/rwsem-xadd.c", version = "v4.8, mutant")
        protected void rwsemDownReadFailed(RwSem sem) {
            adjustment = -RwsemCount.RWSEM_ACTIVE_READ_BIAS;
            sem.rawSpinLockIrq();
            if (sem.listEmpty()) {
                adjustment += RwsemCount.RWSEM_WAITING_BIAS;
            }
            sem.listAddTail(RwsemCount.RWSEM_WAITING_FOR_READ);
            long count = sem.atomicLongAddReturn(adjustment);
            if (count == RwsemCount.RWSEM_WAITING_BIAS || (count > RwsemCount.RWSEM_WAITING_BIAS
                    && adjustment != -RwsemCount.RWSEM_ACTIVE_READ_BIAS)) {
                __rwsemMarkWake(sem, RwsemCount.RWSEM_WAKE_ANY);
            }
            sem.rawSpinUnlockIrq();
            sem.wakeUpQ();
            while (true) {
                if (sem.waiterTaskIsNull()) {
                    break;
                }
                sem.setCurrentState();                              /* mutant: after the check */
                sem.schedule();
            }
        }
    }

    @Test
    void aWakeUpBetweenTheChecksAndSetCurrentStateIsLostOnlyWhenWakeUpsAreSteps() {
        Map<String, String> p = params("readers", "1", "writers", "1", "rounds", "1");
        assertThat(check(new ChecksBeforeSettingItsState(), with(p, "wakeups", "wake-q"), "no-lost-wakeup").verdict())
                .isEqualTo(Verdict.VIOLATED);
        assertThat(check(new ChecksBeforeSettingItsState(), with(p, "wakeups", "atomic"), "no-lost-wakeup").verdict())
                .isEqualTo(Verdict.HOLDS);
        assertThat(check(new RwsemV48(), with(p, "wakeups", "wake-q"), "no-lost-wakeup").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aReaderLeftOnAFutexWakersQueueLosesItsRwsemWakeUpWithASingleWriter() {
        // the scenario of the original report: the reader is still on another subsystem's wake_q when it blocks
        Map<String, String> p = params("readers", "1", "writers", "1");
        assertThat(check("after", with(p, "wakeups", "wake-q"), "no-lost-wakeup").verdict()).isEqualTo(Verdict.HOLDS);
        PropertyResult r = check("after", with(p, "wakeups", "spurious"), "no-lost-wakeup");
        assertThat(r.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(check("v6.12", with(p, "wakeups", "spurious"), "no-lost-wakeup").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void theSymmetryReductionsKeepEveryWakeQueueVerdictAndShortestTrace() {
        // the wake_q fields name wakers: sorting readers and renaming tasks must rename them too
        String[] props = {"no-lost-wakeup", "exclusion", "deadlock-free"};
        for (String[] cfg : new String[][] {{"after", "2", "1", "0", "wake-q"}, {"after", "1", "2", "0", "wake-q"},
            {"v6.12", "2", "1", "1", "spurious"}}) {
            kcheck.model.Model m = Checks.model("rwsem-owner", cfg[0], params("readers", cfg[1], "writers", cfg[2], "rounds",
                    cfg[3], "wakeups", cfg[4]), props);
            kcheck.engine.RunResult on = Engine.check(m, Options.defaults().withWorkers(2));
            kcheck.engine.RunResult off = Engine.check(m, Options.defaults().withWorkers(2).withReductions(false));
            for (String p : props) {
                assertThat(on.property(p).verdict()).as(String.join(" ", cfg) + " " + p).isEqualTo(off.property(p).verdict());
                if (on.property(p).verdict() == Verdict.VIOLATED) {
                    assertThat(on.property(p).trace().length()).as(p).isEqualTo(off.property(p).trace().length());
                }
            }
            assertThat(on.stats().states()).isLessThan(off.stats().states());
        }
    }

    private static Map<String, String> with(Map<String, String> p, String k, String v) {
        Map<String, String> out = new java.util.LinkedHashMap<>(p);
        out.put(k, v);
        return out;
    }
}
