package kcheck.verdicts;

import static kcheck.verdicts.Checks.params;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
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
import kcheck.model.rwsem.RwsemV54;
import kcheck.model.rwsem.RwsemV612;
import kcheck.model.rwsem.RwsemVariant;

/**
 * Waiters that leave early: killable waiters of the v5.4 and v6.12 ports take their out_nolock paths, and
 * {@code handoff-has-waiter} flags a handoff bit left set on an empty wait list (the real bug, d257cc8cb8d5, is gated
 * in kcheck-baseline.json at readers=1 writers=3; these seeded mutants show the same at one reader and one writer).
 */
class RwsemSignalsTest {
    private static final Map<String, String> ONE_EACH_KILLABLE = params("readers", "1", "writers", "1", "rounds", "1",
            "killable", "all");

    private static PropertyResult check(RwsemVariant v, Map<String, String> p, String property) {
        RwsemOwnerFactory f = (RwsemOwnerFactory) Models.get("rwsem-owner");
        RunResult r = Engine.check(f.create("signals-test", v, f.params(p), Set.of(property)), Options.defaults().withWorkers(1));
        return r.property(property);
    }

    @Test
    void aKilledV612WaiterWhoseDelWaiterKeepsTheHandoffBitOnAnEmptyListViolatesHandoffHasWaiter() {
        RwsemVariant v = new RwsemV612() {
            @Override
            protected boolean rwsemDelWaiter(RwSem sem) {
                sem.lockdepAssertHeldWaitLock();
                sem.listDel();
                if (!sem.listEmpty()) {
                    return true;
                }
                sem.atomicLongAndnot(RwsemBits.RWSEM_FLAG_WAITERS);      /* HANDOFF left set */
                return false;
            }
        };
        PropertyResult r = check(v, ONE_EACH_KILLABLE, "handoff-has-waiter");
        assertThat(r.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(r.message()).contains("handoff bit is set with the wait list empty");
        assertThat(check(new RwsemV612(), ONE_EACH_KILLABLE, "handoff-has-waiter").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aKilledV54WriterThatSetTheHandoffBitTakesItBackOnItsOutNolockPath() {
        RwsemVariant forgets = new RwsemV54() {
            @Override
            protected void writeOutNolock(RwSem sem) {
                wrWstate = 0;                                               /* as if it never set the bit */
                super.writeOutNolock(sem);
            }
        };
        assertThat(check(forgets, ONE_EACH_KILLABLE, "handoff-has-waiter").verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(check(new RwsemV54(), ONE_EACH_KILLABLE, "handoff-has-waiter").verdict()).isEqualTo(Verdict.HOLDS);
        assertThat(check(new RwsemV54(), ONE_EACH_KILLABLE, "count-sane").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void v54KillableWaitersReachStatesTheUninterruptibleOnesDoNot() {
        RwsemOwnerFactory f = (RwsemOwnerFactory) Models.get("rwsem-owner");
        long uninterruptible = Engine.check(f.create("signals-test", new RwsemV54(), f.params(params("readers", "1", "writers",
                "1", "rounds", "1")), Set.of("deadlock-free")), Options.defaults().withWorkers(1)).stats().states();
        RunResult killable = Engine.check(f.create("signals-test", new RwsemV54(), f.params(ONE_EACH_KILLABLE),
                Set.of("deadlock-free")), Options.defaults().withWorkers(1));
        assertThat(killable.stats().states()).isGreaterThan(uninterruptible);
        assertThat(killable.property("deadlock-free").verdict()).isEqualTo(Verdict.HOLDS);
    }

    @Test
    void aKilledV48WriterThatKeepsItsWaitingBiasAndWakesNobodyDeadlocksTheOthers() {
        var p = params("readers", "1", "writers", "2", "rounds", "1", "killable", "writers");
        assertThat(Checks.run("rwsem-owner", "mutant-killed-writer-no-cleanup", p, "deadlock-free").property("deadlock-free")
                .verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(Checks.run("rwsem-owner", "after", p, "deadlock-free").property("deadlock-free").verdict())
                .isEqualTo(Verdict.HOLDS);
    }
}
