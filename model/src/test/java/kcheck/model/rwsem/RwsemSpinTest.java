package kcheck.model.rwsem;

import static kcheck.model.rwsem.RwsemCount.NULL;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_WRITE_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_READER_OWNED;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_BIAS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * A writer's optimistic spinning (kernel/locking/rwsem-xadd.c): {@code rwsem_can_spin_on_owner()},
 * {@code rwsem_spin_on_owner()} and {@code rwsem_optimistic_spin()} of v4.7 and v4.8, with the
 * owner changing under the spinner. W1, W2 are other writers' task pointers.
 */
class RwsemSpinTest {
    private static final long W1 = RwsemCount.writerTask(1);
    private static final long W2 = RwsemCount.writerTask(2);
    private static final long AWB = RWSEM_ACTIVE_WRITE_BIAS;

    @Test
    void v47SpinOnOwnerGoesOnWhenAnotherWriterTookOver() {
        // while (sem->owner == owner) { ... cpu_relax } ; if (READ_ONCE(sem->owner)) return true;
        SoloSem sem = new SoloSem();
        sem.owner = W1;
        sem.ownerLoads.add(W1);
        sem.ownerLoads.add(W2);
        sem.relaxes = 1;
        assertThat(new RwsemV47().rwsemSpinOnOwner(sem, W1)).isTrue();
        assertThat(sem.log).containsExactly("read owner", "on_cpu", "cpu_relax", "read owner", "read owner");
    }

    @Test
    void v47SpinOnOwnerStopsWhenTheOwnerSleepsOrWeShouldReschedule() {
        SoloSem sleeping = new SoloSem();
        sleeping.owner = W1;
        sleeping.onCpu[1] = false;
        assertThat(new RwsemV47().rwsemSpinOnOwner(sleeping, W1)).isFalse();
        SoloSem resched = new SoloSem();
        resched.owner = W1;
        resched.needResched = true;
        assertThat(new RwsemV47().rwsemSpinOnOwner(resched, W1)).isFalse();
    }

    @Test
    void v48SpinOnOwnerFollowsTheWriterUntilItLeavesAndStopsForReaders() {
        // while (sem->owner == owner) {...}; out: return !rwsem_owner_is_reader(READ_ONCE(sem->owner));
        SoloSem freed = new SoloSem();
        freed.owner = W1;
        freed.ownerLoads.add(W1);
        freed.ownerLoads.add(W1);
        freed.ownerLoads.add(NULL);
        freed.relaxes = 1;
        assertThat(new RwsemV48().rwsemSpinOnOwner(freed)).isTrue();
        assertThat(freed.log).containsExactly("read owner", "read owner", "on_cpu", "cpu_relax", "read owner", "read owner");

        SoloSem toReaders = new SoloSem();
        toReaders.owner = W1;
        toReaders.ownerLoads.add(W1);
        toReaders.ownerLoads.add(W1);
        toReaders.ownerLoads.add(RWSEM_READER_OWNED);
        toReaders.relaxes = 1;
        assertThat(new RwsemV48().rwsemSpinOnOwner(toReaders)).isFalse();
    }

    @Test
    void v48SpinOnOwnerStopsWhenTheOwnerSleepsOrWeShouldReschedule() {
        SoloSem sleeping = new SoloSem();
        sleeping.owner = W1;
        sleeping.onCpu[1] = false;
        assertThat(new RwsemV48().rwsemSpinOnOwner(sleeping)).isFalse();
        SoloSem resched = new SoloSem();
        resched.owner = W1;
        resched.needResched = true;
        assertThat(new RwsemV48().rwsemSpinOnOwner(resched)).isFalse();
    }

    @Test
    void v48CanSpinOnARunningWriterButNotWhenItShouldReschedule() {
        // if (need_resched()) return false; ... ret = owner->on_cpu;
        SoloSem sem = new SoloSem();
        sem.owner = W1;
        assertThat(new RwsemV48().rwsemCanSpinOnOwner(sem)).isTrue();
        sem.needResched = true;
        assertThat(new RwsemV48().rwsemCanSpinOnOwner(sem)).isFalse();
    }

    @Test
    void bothSpinOnARunningWriterAndTakeTheLockWhenItIsReleased() {
        for (AsmGenericRwsem v : new AsmGenericRwsem[] {new RwsemV47(), new RwsemV48()}) {
            SoloSem sem = new SoloSem();
            sem.count = AWB;
            sem.owner = W1;
            /* can_spin, the spin loop's owner load(s), then the writer's up_write: owner NULL, count 0 */
            sem.ownerLoads.add(W1);
            sem.ownerLoads.add(W1);
            sem.ownerLoads.add(W1);
            sem.ownerLoads.add(NULL);
            sem.loads.add(0L);
            sem.loads.add(0L);
            sem.relaxes = 1;
            boolean taken = v instanceof RwsemV48 v48 ? v48.rwsemOptimisticSpin(sem) : ((RwsemV47) v).rwsemOptimisticSpin(sem);
            assertThat(taken).isTrue();
            assertThat(sem.count).isEqualTo(AWB);
            assertThat(sem.owner).isEqualTo(RwsemCount.writerTask(0));
            assertThat(sem.log).contains("cpu_relax", "osq_lock", "cmpxchg count", "acquired", "osq_unlock");
            assertThat(sem.osqHeld).isFalse();
            assertThat(sem.preemptCountAtOsqLock).isEqualTo(1);
            assertThat(sem.preemptCount).isZero();
        }
    }

    @Test
    void v48SpinnerOnANullOwnerBreaksForAnRtTaskOrNeedResched() {
        // if (!sem->owner && (need_resched() || rt_task(current))) break;
        for (boolean rt : new boolean[] {true, false}) {
            SoloSem sem = new SoloSem();
            sem.count = 1;                                  /* a reader that has not stored READER_OWNED yet */
            sem.rt = rt;
            if (!rt) {
                sem.loads.add(1L);
                sem.needResched = false;
            }
            if (rt) {
                assertThat(new RwsemV48().rwsemOptimisticSpin(sem)).isFalse();
                assertThat(sem.log).endsWith("read count", "read owner", "osq_unlock").doesNotContain("cpu_relax");
            } else {
                assertThatThrownBy(() -> new RwsemV48().rwsemOptimisticSpin(sem)).hasMessage("spins");
            }
        }
    }

    @Test
    void v48SpinnerGoesRoundUntilTheReadersMarkTheOwner() {
        SoloSem sem = new SoloSem();
        sem.count = 1;
        sem.relaxes = 1;
        /* can_spin, spin_on_owner (owner, out), NULL-owner check; then round two finds READER_OWNED */
        sem.ownerLoads.add(NULL);
        sem.ownerLoads.add(NULL);
        sem.ownerLoads.add(NULL);
        sem.ownerLoads.add(NULL);
        sem.ownerLoads.add(RWSEM_READER_OWNED);
        assertThat(new RwsemV48().rwsemOptimisticSpin(sem)).isFalse();
        assertThat(sem.log).containsOnlyOnce("cpu_relax").endsWith("osq_unlock");
        assertThat(sem.osqHeld).isFalse();
        assertThat(sem.preemptCount).isZero();
    }

    @Test
    void v47SpinnerThatFoundTheCountTakenByAWriterWithoutOwnerYetDoesNotSpin() {
        // rwsem_can_spin_on_owner v4.7: owner NULL and an active count: no spinning
        SoloSem sem = new SoloSem();
        sem.count = RWSEM_WAITING_BIAS + 1;
        assertThat(new RwsemV47().rwsemOptimisticSpin(sem)).isFalse();
        assertThat(sem.log).containsExactly("read owner", "read count");
        assertThat(sem.preemptCount).isZero();
    }

    @Test
    void v47DownReadTakesTheLockInOneIncrement() {
        SoloSem sem = new SoloSem();
        sem.count = 2;
        new RwsemV47().downRead(sem);
        assertThat(sem.count).isEqualTo(3);
        assertThat(sem.log).containsExactly("count += 1", "acquired");
    }

    @Test
    void v47UnqueuedTrylockTakesAFreeLockAndSetsTheOwner() {
        SoloSem sem = new SoloSem();
        assertThat(new RwsemV47().rwsemTryWriteLockUnqueued(sem)).isTrue();
        assertThat(sem.count).isEqualTo(AWB);
        assertThat(sem.log).containsExactly("read count", "cmpxchg count", "acquired", "owner = writer 0");
    }

    @Test
    void unqueuedTrylockRetriesWithTheValueTheFailedCmpxchgFound() {
        // cmpxchg fails: count = old; loop: a reader got in, so the trylock gives up
        for (AsmGenericRwsem v : new AsmGenericRwsem[] {new RwsemV47(), new RwsemV48()}) {
            SoloSem sem = new SoloSem();
            sem.beforeWrites.add(() -> sem.count = RWSEM_WAITING_BIAS);      /* a reader queued meanwhile */
            boolean taken = v instanceof RwsemV48 v48 ? v48.rwsemTryWriteLockUnqueued(sem)
                    : ((RwsemV47) v).rwsemTryWriteLockUnqueued(sem);
            assertThat(taken).as("WB is free too: second cmpxchg succeeds").isTrue();
            assertThat(sem.count).isEqualTo(RWSEM_WAITING_BIAS + AWB);
            assertThat(sem.log).containsExactly("read count", "cmpxchg count", "cmpxchg count", "acquired", "owner = writer 0");
        }
    }
}
