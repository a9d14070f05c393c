package kcheck.verdicts;

import static kcheck.verdicts.Checks.params;
import static kcheck.verdicts.Checks.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.Models;
import kcheck.model.rwsem.RwSem;
import kcheck.model.rwsem.RwsemBits;
import kcheck.model.rwsem.RwsemOwnerFactory;
import kcheck.model.rwsem.RwsemV612;
import kcheck.model.rwsem.RwsemVariant;

/**
 * The kernel's own checks (warn-*) and the sanity properties of rwsem-owner: each holds on the fixed code and is
 * violated, with a trace ending at the flagged step, by a real bug or a seeded mutant.
 */
class RwsemSanityTest {

    private static PropertyResult check(RwsemVariant v, String property) {
        RwsemOwnerFactory f = (RwsemOwnerFactory) Models.get("rwsem-owner");
        RunResult r = Engine.check(f.create("sanity-test", v, f.params(params("readers", "1", "writers", "1")), Set.of(property)),
                Options.defaults().withWorkers(1));
        return r.property(property);
    }

    @Test
    void theWriteFastPathWithPreemptionOnFailsLockdepAssertPreemptionDisabledOnlyWithoutTheFix48dfb5d2560d() {
        var p = params("readers", "0", "writers", "1");
        PropertyResult bug = run("rwsem-owner", "bug-48dfb5d2560d", p, "warn-preemption-disabled").property("warn-preemption-disabled");
        assertThat(bug.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(bug.message()).contains("rwsem_set_owner").contains("lockdep_assert_preemption_disabled");
        assertThat(run("rwsem-owner", "v6.12", p, "warn-preemption-disabled").property("warn-preemption-disabled").verdict())
                .isEqualTo(Verdict.HOLDS);
    }

    @Test
    void markWakeWithoutTheWaitLockFailsLockdepAssertHeld() {
        RwsemVariant v = new RwsemV612() {
            @Override
            protected void rwsemWake(RwSem sem) {
                sem.wakeQInit();
                if (!sem.listEmpty()) {
                    rwsemMarkWake(sem, kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_ANY);   /* wait_lock not taken */
                }
                sem.wakeUpQ();
            }
        };
        assertThat(check(v, "warn-wait-lock-held").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(check(new RwsemV612(), "warn-wait-lock-held").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aReaderCountDecrementedTwiceIsACountSaneViolationWithTheShortestTrace() {
        RwsemVariant v = new RwsemV612() {
            @Override
            protected void __upRead(RwSem sem) {
                sem.atomicLongAddReturn(-RwsemBits.RWSEM_READER_BIAS);   /* one decrement too many */
                super.__upRead(sem);
            }
        };
        PropertyResult r = check(v, "count-sane");
        assertThat(r.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.trace().length()).isEqualTo(5);
        assertThat(r.message()).contains("reader count below 0");
        assertThat(check(new RwsemV612(), "count-sane").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void spinningOnAReaderOwnedPointerAsIfItWereAWriterIsAnOwnerDerefSaneViolation() {
        RwsemVariant v = new RwsemV612() {
            @Override
            protected boolean rwsemCanSpinOnOwner(RwSem sem) {
                long owner = sem.readOwner() & ~RwsemBits.RWSEM_OWNER_FLAGS_MASK;
                return owner == 0 || sem.onCpu(sem.readOwner());   /* follows a reader's pointer as a task */
            }
        };
        PropertyResult r = check(v, "owner-deref-sane");
        assertThat(r.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.message()).contains("READER_OWNED");
        assertThat(check(new RwsemV612(), "owner-deref-sane").verdict()).isEqualTo(Verdict.HOLDS);
    }
}
