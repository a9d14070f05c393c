package kcheck.model.rwsem;

import static kcheck.model.rwsem.RwsemCount.NULL;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_READ_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_WRITE_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_READER_OWNED;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_BIAS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The v4.7 and v4.8 reference code run sequentially, one task, against {@link SoloSem}. */
class RwsemReferenceTest {
    private static final long W0 = RwsemCount.writerTask(0);
    private static final long W1 = RwsemCount.writerTask(1);

    @Test
    void uncontendedDownWriteTakesTheWriteBiasAndThenSetsOwner() {
        for (RwsemVariant v : new RwsemVariant[] {new RwsemV47(), new RwsemV48()}) {
            SoloSem sem = new SoloSem();
            v.downWrite(sem);
            assertThat(sem.count).isEqualTo(RWSEM_ACTIVE_WRITE_BIAS);
            assertThat(sem.owner).isEqualTo(W0);
            assertThat(sem.log).containsExactly("count += WB+1", "acquired", "owner = writer 0");
        }
    }

    @Test
    void upWriteClearsOwnerBeforeReleasingTheCount() {
        for (RwsemVariant v : new RwsemVariant[] {new RwsemV47(), new RwsemV48()}) {
            SoloSem sem = new SoloSem();
            sem.count = RWSEM_ACTIVE_WRITE_BIAS;
            sem.owner = W0;
            v.upWrite(sem);
            assertThat(sem.count).isZero();
            assertThat(sem.owner).isEqualTo(NULL);
            assertThat(sem.log).containsExactly("owner = NULL", "count += " + RwsemCount.show(-RWSEM_ACTIVE_WRITE_BIAS), "released");
        }
    }

    @Test
    void v47ReadersLeaveOwnerAloneWhileV48ReadersMarkItReaderOwnedAndLeaveTheMarkOnUpRead() {
        SoloSem old = new SoloSem();
        new RwsemV47().downRead(old);
        assertThat(old.count).isEqualTo(RWSEM_ACTIVE_READ_BIAS);
        assertThat(old.owner).isEqualTo(NULL);

        SoloSem sem = new SoloSem();
        RwsemV48 v = new RwsemV48();
        v.downRead(sem);
        assertThat(sem.owner).isEqualTo(RWSEM_READER_OWNED);
        assertThat(sem.log).containsExactly("count += 1", "acquired", "read owner", "owner = READER_OWNED");
        v.upRead(sem);
        assertThat(sem.count).isZero();
        assertThat(sem.owner).as("sticky").isEqualTo(RWSEM_READER_OWNED);
        sem.log.clear();
        v.downRead(sem);
        assertThat(sem.log).as("no second store").containsExactly("count += 1", "acquired", "read owner");
    }

    @Test
    void canSpinOnOwnerWithNullOwnerAndAnActiveWriterDeclinesOnV47AndSpinsOnV48() {
        SoloSem sem = new SoloSem();
        sem.count = RWSEM_ACTIVE_WRITE_BIAS;              /* a writer holds the lock, owner not set yet */
        assertThat(new RwsemV47().rwsemCanSpinOnOwner(sem)).isFalse();
        assertThat(new RwsemV48().rwsemCanSpinOnOwner(sem)).isTrue();
    }

    @Test
    void canSpinOnOwnerFollowsTheOwnersOnCpuAndNeedResched() {
        RwsemV47 v47 = new RwsemV47();
        SoloSem old = new SoloSem();
        old.owner = W1;
        assertThat(v47.rwsemCanSpinOnOwner(old)).isTrue();
        old.onCpu[1] = false;
        assertThat(v47.rwsemCanSpinOnOwner(old)).isFalse();
        old.onCpu[1] = true;
        old.needResched = true;
        assertThat(v47.rwsemCanSpinOnOwner(old)).isFalse();
        RwsemV48 v48 = new RwsemV48();
        SoloSem sem = new SoloSem();
        sem.owner = W1;
        sem.onCpu[1] = false;
        assertThat(v48.rwsemCanSpinOnOwner(sem)).isFalse();
        sem.owner = RWSEM_READER_OWNED;
        assertThat(v48.rwsemCanSpinOnOwner(sem)).as("readers own it").isFalse();
        sem.owner = NULL;
        sem.count = 2;
        assertThat(v48.rwsemCanSpinOnOwner(sem)).as("NULL owner: spin, whatever the count").isTrue();
    }

    @Test
    void v48SpinOnOwnerStopsAtReaderOwnedWhileV47ChecksTheCountAfterTheOwnerLeft() {
        SoloSem sem = new SoloSem();
        sem.owner = RWSEM_READER_OWNED;
        assertThat(new RwsemV48().rwsemSpinOnOwner(sem)).isFalse();
        sem.owner = NULL;
        sem.count = 0;
        assertThat(new RwsemV48().rwsemSpinOnOwner(sem)).isTrue();

        SoloSem old = new SoloSem();
        old.owner = NULL;                                  /* W1 was the owner and has left */
        old.count = 2;                                     /* two readers now */
        assertThat(new RwsemV47().rwsemSpinOnOwner(old, W1)).isFalse();
        old.count = RWSEM_WAITING_BIAS;
        assertThat(new RwsemV47().rwsemSpinOnOwner(old, W1)).isTrue();
    }

    @Test
    void unqueuedTrylockTakesAFreeOrWaitersOnlyLockAndRefusesReaders() {
        for (long free : new long[] {0, RWSEM_WAITING_BIAS}) {
            SoloSem sem = new SoloSem();
            sem.count = free;
            assertThat(new RwsemV48().rwsemTryWriteLockUnqueued(sem)).isTrue();
            assertThat(sem.count).isEqualTo(free + RWSEM_ACTIVE_WRITE_BIAS);
            assertThat(sem.owner).isEqualTo(W0);
        }
        SoloSem sem = new SoloSem();
        sem.count = 1;
        assertThat(new RwsemV47().rwsemTryWriteLockUnqueued(sem)).isFalse();
        assertThat(sem.log).containsExactly("read count");
        SoloSem mutant = new SoloSem();
        mutant.count = 1;
        assertThat(new RwsemMutants.TrylockIgnoresReaders().rwsemTryWriteLockUnqueued(mutant)).as("the seeded bug").isTrue();
    }

    @Test
    void v47SpinnerBreaksOnNullOwnerOnlyForRtTasks() {
        SoloSem sem = new SoloSem();
        sem.loads.add(0L);                                 /* can_spin: the lock is free */
        sem.loads.add(1L);                                 /* then a reader takes it: owner stays NULL on v4.7 */
        sem.rt = true;
        assertThat(new RwsemV47().rwsemOptimisticSpin(sem)).isFalse();
        assertThat(sem.log).containsExactly("read owner", "read count", "osq_lock", "read owner", "read count", "osq_unlock");
        SoloSem spinner = new SoloSem();
        spinner.loads.add(0L);
        spinner.loads.add(1L);
        assertThatThrownBy(() -> new RwsemV47().rwsemOptimisticSpin(spinner)).isInstanceOf(SoloSem.WouldBlock.class)
                .hasMessage("spins");
    }

    @Test
    void v48SpinnerStopsOnceTheReadersHaveMarkedTheOwner() {
        SoloSem sem = new SoloSem();
        sem.count = 1;
        sem.owner = RWSEM_READER_OWNED;
        assertThat(new RwsemV48().rwsemOptimisticSpin(sem)).isFalse();
        assertThat(sem.log).as("can_spin declines at once").containsExactly("read owner");
    }

    @Test
    void countDecodesIntoActivePartAndWaitingBiases() {
        long c = 2 * RWSEM_WAITING_BIAS + 3;
        assertThat(RwsemCount.active(c)).isEqualTo(3);
        assertThat(RwsemCount.waiting(c)).isEqualTo(2);
        assertThat(RwsemCount.count(3, 2)).isEqualTo(c);
        assertThat(RwsemCount.show(RWSEM_ACTIVE_WRITE_BIAS)).isEqualTo("WB+1");
        assertThat(RwsemCount.show(2 * RWSEM_WAITING_BIAS)).isEqualTo("2WB");
        assertThat(RwsemCount.show(2)).isEqualTo("2");
        RwsemDomain dom = RwsemDomain.xadd(2, 2);
        for (int i = 0; i < dom.countSize(); i++) {
            assertThat(dom.countIndex(dom.countValue(i))).isEqualTo(i);
        }
        assertThat(dom.countIndex(-1)).isEqualTo(-1);
        assertThat(TaskProgram.signed(RWSEM_ACTIVE_WRITE_BIAS)).isEqualTo("+= WB+1");
        assertThat(TaskProgram.signed(-RWSEM_ACTIVE_WRITE_BIAS)).isEqualTo("-= WB+1");
        assertThat(TaskProgram.signed(RWSEM_WAITING_BIAS - RWSEM_ACTIVE_READ_BIAS)).isEqualTo("+= WB-1");
        assertThat(TaskProgram.signed(-RWSEM_WAITING_BIAS)).isEqualTo("-= WB");
        assertThat(TaskProgram.signed(-1)).isEqualTo("-= 1");
    }
}
