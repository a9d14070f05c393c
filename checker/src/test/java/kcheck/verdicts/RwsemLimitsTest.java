package kcheck.verdicts;

import static kcheck.verdicts.Checks.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.model.ModelLimitException;
import kcheck.model.Models;
import kcheck.model.rwsem.RwSem;
import kcheck.model.rwsem.RwsemBits;
import kcheck.model.rwsem.RwsemCount;
import kcheck.model.rwsem.RwsemOwnerFactory;
import kcheck.model.rwsem.RwsemV48;
import kcheck.model.rwsem.RwsemV612;
import kcheck.model.rwsem.RwsemVariant;

/**
 * Each assumption rwsem-owner makes about a variant's behaviour (RwsemOwnerFactory.limits()) is a
 * contract: a variant that crosses it gets a ModelLimitException naming the limit, never a raw
 * array or state error.
 */
class RwsemLimitsTest {

    private static kcheck.engine.RunResult explore(RwsemVariant v, String readers, String writers, String... properties) {
        RwsemOwnerFactory f = (RwsemOwnerFactory) Models.get("rwsem-owner");
        return Engine.check(f.create("limit-test", v, f.params(params("readers", readers, "writers", writers)), Set.of(properties)),
                Options.defaults().withWorkers(1));
    }

    @Test
    void everyLimitIsListed() {
        assertThat(Models.get("rwsem-owner").limits()).hasSize(7).allMatch(l -> !l.isBlank());
    }

    @Test
    void anXaddCountWithMoreActiveBiasesThanTasksIsACountSaneViolationNotALimit() {
        RwsemVariant v = new RwsemV48() {
            @Override
            public void downRead(RwSem sem) {
                sem.atomicLongAdd(RwsemCount.RWSEM_ACTIVE_READ_BIAS);   /* a bias never given back */
                super.downRead(sem);
            }
        };
        kcheck.engine.PropertyResult r = explore(v, "1", "1", "count-sane", "exclusion").property("count-sane");
        assertThat(r.verdict()).isEqualTo(kcheck.engine.Verdict.VIOLATED);
        assertThat(r.message()).contains("sem->count leaves its meaning");
    }

    @Test
    void aV5CountBitTheKernelDoesNotUseIsALimit() {
        RwsemVariant v = new RwsemV612() {
            @Override
            public void downWrite(RwSem sem) {
                sem.atomicLongOr(8);                                   /* bit 3: reserved */
                super.downWrite(sem);
            }
        };
        assertThatThrownBy(() -> explore(v, "1", "1", "exclusion")).isInstanceOf(ModelLimitException.class)
                .hasMessageContaining("count as WRITER_LOCKED, WAITERS and HANDOFF bits");
    }

    @Test
    void anOwnerValueTheModelDoesNotHoldIsALimit() {
        RwsemVariant v = new RwsemV612() {
            @Override
            public void upWrite(RwSem sem) {
                sem.writeOwner(RwsemBits.RWSEM_READER_OWNED);          /* NULL | READER_OWNED */
                super.upWrite(sem);
            }
        };
        assertThatThrownBy(() -> explore(v, "1", "1", "exclusion")).isInstanceOf(ModelLimitException.class)
                .hasMessageContaining("an owner value the model does not hold");
    }

    @Test
    void onCpuOfANullOwnerIsAnOwnerDerefSaneViolationNotALimit() {
        RwsemVariant v = new RwsemV48() {
            @Override
            protected boolean rwsemCanSpinOnOwner(RwSem sem) {
                return sem.onCpu(sem.readOwner());                     /* dereferences NULL */
            }
        };
        kcheck.engine.PropertyResult r = explore(v, "0", "2", "owner-deref-sane").property("owner-deref-sane");
        assertThat(r.verdict()).isEqualTo(kcheck.engine.Verdict.VIOLATED);
        assertThat(r.message()).contains("owner = NULL is dereferenced as a running writer");
    }

    @Test
    void wakingAReaderAsTheFrontWriterIsALimit() {
        RwsemVariant v = new RwsemV48() {
            @Override
            protected void __rwsemMarkWake(RwSem sem, int wakeType) {
                sem.wakeUpFrontWriter();                               /* whatever is in front */
                super.__rwsemMarkWake(sem, wakeType);
            }
        };
        assertThatThrownBy(() -> explore(v, "1", "1", "exclusion")).isInstanceOf(ModelLimitException.class)
                .hasMessageContaining("wakes only a writer at the front of the wait list");
    }

    @Test
    void grantingTheReadLockToAWriterIsALimit() {
        RwsemVariant v = new RwsemV48() {
            @Override
            protected void __rwsemMarkWake(RwSem sem, int wakeType) {
                if (!sem.waitListFrontIsWriter()) {
                    int k = sem.waitListLeadingReaders();
                    if (sem.waitListWriterAfter(k)) {
                        sem.waitListGrantReaders(k + 1);               /* the readers and the writer behind them */
                    }
                }
                super.__rwsemMarkWake(sem, wakeType);
            }
        };
        assertThatThrownBy(() -> explore(v, "1", "2", "exclusion")).isInstanceOf(ModelLimitException.class)
                .hasMessageContaining("grants the read lock only to readers");
    }

    @Test
    void theFirstWaiterOfAnEmptyListIsALimit() {
        RwsemVariant v = new RwsemV612() {
            @Override
            public void downWrite(RwSem sem) {
                sem.rawSpinLockIrq();
                sem.setFirstWaiterHandoff();                           /* rwsem_first_waiter() of an empty list */
                sem.rawSpinUnlockIrq();
                super.downWrite(sem);
            }
        };
        assertThatThrownBy(() -> explore(v, "0", "1", "exclusion")).isInstanceOf(ModelLimitException.class)
                .hasMessageContaining("rwsem_first_waiter() of an empty wait list");
    }

    @Test
    void moreDeclinesPerWriteHoldThanOtherWritersSaturateMissedSpins() {
        RwsemVariant v = new RwsemV48() {
            @Override
            protected boolean rwsemOptimisticSpin(RwSem sem) {
                rwsemCanSpinOnOwner(sem);                              /* asks twice more, a step apart, */
                sem.osqIsLocked();                                     /* and ignores the answers */
                rwsemCanSpinOnOwner(sem);
                sem.osqIsLocked();
                return super.rwsemOptimisticSpin(sem);
            }
        };
        /* the kernel allows it (a killable writer declines, leaves with -EINTR and declines again): the metric saturates */
        assertThat(explore(v, "0", "2", "missed-spins").property("missed-spins").verdict()).isNotNull();
    }
}
