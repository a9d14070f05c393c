package kcheck.model.rwsem;

import static kcheck.model.rwsem.RwsemCount.NULL;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_WRITE_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_READER_OWNED;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_FOR_READ;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_FOR_WRITE;
import static kcheck.model.rwsem.RwsemWakeTest.add;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The slow paths of the xadd rwsem (kernel/locking/rwsem-xadd.c, v4.7 and v4.8):
 * {@code rwsem_down_read_failed()}, {@code __rwsem_down_write_failed_common()} and
 * {@code rwsem_try_write_lock()}, run by one task against {@link SoloSem}, with other tasks'
 * steps injected where they would interleave. WB is {@code RWSEM_WAITING_BIAS}.
 */
class RwsemSlowPathTest {
    private static final long WB = RWSEM_WAITING_BIAS;
    private static final long AWB = RWSEM_ACTIVE_WRITE_BIAS;
    private static final long ME = RwsemCount.writerTask(0);
    private static final int R = RWSEM_WAITING_FOR_READ;
    private static final int W = RWSEM_WAITING_FOR_WRITE;

    static List<AsmGenericRwsem> versions() {
        return List.of(new RwsemV47(), new RwsemV48());
    }

    private static boolean v48(AsmGenericRwsem v) {
        return v instanceof RwsemV48;
    }

    /** The owner readers leave behind: NULL on v4.7, RWSEM_READER_OWNED on v4.8. */
    private static long readerOwner(AsmGenericRwsem v) {
        return v48(v) ? RWSEM_READER_OWNED : NULL;
    }

    /* ---------------- rwsem_down_read_failed ---------------- */

    @ParameterizedTest
    @MethodSource("versions")
    void aReaderBehindAWriterQueuesWithTheWaitingBiasAndSleeps(AsmGenericRwsem v) {
        // adjustment = -RWSEM_ACTIVE_READ_BIAS; if (list_empty) adjustment += RWSEM_WAITING_BIAS; no wake: a writer is active
        SoloSem sem = new SoloSem();
        sem.count = AWB;
        sem.owner = RwsemCount.writerTask(1);
        assertThatThrownBy(() -> ((RwsemVariant) v).downRead(sem)).isInstanceOf(SoloSem.WouldBlock.class).hasMessage("sleeps");
        assertThat(sem.count).isEqualTo(2 * WB + 1);
        assertThat(sem.waitList).extracting(SoloSem.Waiter::type).containsExactly(R);
        assertThat(sem.log).containsSubsequence(add(1), "wait_lock", "list_add_tail", add(WB - 1), "wait_unlock")
                .doesNotContain("wake writer", "acquired");
        assertThat(sem.waitLockHeld).isFalse();
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aReaderQueuedWhenNobodyIsActiveWakesTheWriterAtTheFront(AsmGenericRwsem v) {
        // count == RWSEM_WAITING_BIAS after queueing: __rwsem_do_wake(sem, RWSEM_WAKE_ANY)
        SoloSem sem = new SoloSem().queued(W);
        sem.count = WB;
        assertThatThrownBy(() -> ((RwsemVariant) v).downRead(sem)).hasMessage("sleeps");
        assertThat(sem.count).isEqualTo(WB);
        assertThat(sem.log).containsSubsequence("list_add_tail", add(-1), "wake writer", "wait_unlock");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aReaderQueuedBehindOthersWhileReadersAreActiveDoesNotWakeAnyone(AsmGenericRwsem v) {
        // count > RWSEM_WAITING_BIAS but adjustment == -RWSEM_ACTIVE_READ_BIAS: not first in the queue
        SoloSem sem = new SoloSem().queued(W);
        sem.count = WB + 1;
        assertThatThrownBy(() -> ((RwsemVariant) v).downRead(sem)).hasMessage("sleeps");
        assertThat(sem.count).isEqualTo(WB + 1);
        assertThat(sem.log).doesNotContain("wake writer").noneMatch(l -> l.startsWith("grant"));
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aReaderWhoseWriterLeftBeforeItQueuedGrantsItselfTheLock(AsmGenericRwsem v) {
        SoloSem sem = new SoloSem();
        sem.count = AWB;
        sem.beforeWrites.add(() -> { });                        /* the reader's increment */
        sem.beforeWrites.add(() -> sem.count -= AWB);           /* the writer's up_write before the reader queues */
        ((RwsemVariant) v).downRead(sem);
        assertThat(sem.count).isEqualTo(1);
        assertThat(sem.granted).isTrue();
        assertThat(sem.waitList).isEmpty();
        assertThat(sem.log).contains("grant 1", "acquired").doesNotContain("schedule");
        assertThat(sem.owner).isEqualTo(readerOwner(v));
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aReaderFirstInTheQueueJoinsTheActiveReaders(AsmGenericRwsem v) {
        // "If there are no writers and we are first in the queue, wake our own waiter to join the existing active readers!"
        SoloSem sem = new SoloSem();
        sem.count = AWB;
        sem.beforeWrites.add(() -> { });
        sem.beforeWrites.add(() -> sem.count += 1 - AWB);       /* the writer leaves, another reader gets in */
        ((RwsemVariant) v).downRead(sem);
        assertThat(sem.count).isEqualTo(2);
        assertThat(sem.granted).isTrue();
    }

    /* ---------------- __rwsem_down_write_failed_common ---------------- */

    @ParameterizedTest
    @MethodSource("versions")
    void aWriterBehindAReaderSleepsAndTakesTheLockWhenNoLockerIsActive(AsmGenericRwsem v) {
        SoloSem sem = new SoloSem();
        sem.count = 1;
        sem.owner = readerOwner(v);
        sem.whileAsleep.add(() -> { });                         /* woken, but the reader is still there */
        sem.whileAsleep.add(() -> sem.count -= 1);              /* the reader's up_read */
        ((RwsemVariant) v).downWrite(sem);
        assertThat(sem.count).isEqualTo(AWB);
        assertThat(sem.owner).isEqualTo(ME);
        assertThat(sem.waitList).isEmpty();
        assertThat(sem.waitLockHeld).isFalse();
        assertThat(sem.log).containsSubsequence(add(AWB), add(-AWB), "wait_lock", "list_add_tail", add(WB), "wait_unlock",
                "schedule", "read count", "schedule", "read count", "wait_lock", "cmpxchg count", "acquired",
                "owner = writer 0", "wait_unlock");
        assertThat(sem.log).filteredOn("schedule"::equals).hasSize(2);
        assertThat(sem.osqHeld).isFalse();
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aWriterQueuedBehindWaitersOfAReadOwnedLockWakesTheReadersAheadOfIt(AsmGenericRwsem v) {
        // if (waiting) { count = READ_ONCE(sem->count); if (count > RWSEM_WAITING_BIAS) __rwsem_do_wake(sem, RWSEM_WAKE_READERS); }
        SoloSem sem = new SoloSem().queued(R);
        sem.count = WB + 1;
        sem.owner = readerOwner(v);
        assertThatThrownBy(() -> ((RwsemVariant) v).downWrite(sem)).hasMessage("sleeps");
        assertThat(sem.log).contains("grant 1");
        assertThat(sem.count).isEqualTo(WB + 2);
        assertThat(sem.waitList).extracting(SoloSem.Waiter::own).containsExactly(true);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aWriterQueuedBehindWaitersOfAWriterHeldLockWakesNobody(AsmGenericRwsem v) {
        SoloSem sem = new SoloSem().queued(R);
        sem.count = AWB + WB;
        sem.owner = RwsemCount.writerTask(1);
        sem.onCpu[1] = false;                                   /* no spinning on a sleeping owner */
        assertThatThrownBy(() -> ((RwsemVariant) v).downWrite(sem)).hasMessage("sleeps");
        assertThat(sem.count).isEqualTo(AWB + WB);
        assertThat(sem.log).noneMatch(l -> l.startsWith("grant") || l.equals("osq_lock"));
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aWriterThatMayNotSpinTakesAnIdleLockAheadOfTheQueuedReaders(AsmGenericRwsem v) {
        // nobody active (count == WB): no reader wake-up, and rwsem_try_write_lock succeeds at once
        SoloSem sem = new SoloSem().queued(R);
        sem.count = WB;
        sem.needResched = true;
        ((RwsemVariant) v).downWrite(sem);
        assertThat(sem.count).as("write bias plus the waiting bias of the reader still queued").isEqualTo(AWB + WB);
        assertThat(sem.owner).isEqualTo(ME);
        assertThat(sem.waitList).extracting(SoloSem.Waiter::type).containsExactly(R);
        assertThat(sem.log).doesNotContain("schedule").noneMatch(l -> l.startsWith("grant"));
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aWriterStealsAFreedLockFromTheQueuedReadersBySpinning(AsmGenericRwsem v) {
        // rwsem_optimistic_spin: owner NULL and no active locker: spin, and rwsem_try_write_lock_unqueued takes it
        SoloSem sem = new SoloSem().queued(R);
        sem.count = WB;
        ((RwsemVariant) v).downWrite(sem);
        assertThat(sem.count).isEqualTo(AWB + WB);
        assertThat(sem.owner).isEqualTo(ME);
        assertThat(sem.log).contains("osq_lock", "osq_unlock").doesNotContain("wait_lock", "list_add_tail");
        assertThat(sem.osqHeld).isFalse();
        assertThat(sem.preemptCountAtOsqLock).as("preempt_disable() around the spin").isEqualTo(1);
        assertThat(sem.preemptCount).isZero();
    }

    /* ---------------- rwsem_try_write_lock ---------------- */

    @ParameterizedTest
    @MethodSource("versions")
    void tryWriteLockOnlyTriesWhenTheCountIsTheWaitingBiasAlone(AsmGenericRwsem v) {
        SoloSem sem = new SoloSem();
        sem.waitList.add(new SoloSem.Waiter(W, true));
        sem.count = WB + 1;
        assertThat(tryWriteLock(v, WB + 1, sem)).isFalse();
        assertThat(sem.log).as("no cmpxchg when count != RWSEM_WAITING_BIAS").isEmpty();
        assertThat(tryWriteLock(v, WB, sem)).as("the count changed since it was read").isFalse();
        assertThat(sem.count).isEqualTo(WB + 1);
        assertThat(sem.owner).isEqualTo(NULL);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void tryWriteLockOfTheOnlyWaiterLeavesNoWaitingBias(AsmGenericRwsem v) {
        SoloSem sem = new SoloSem();
        sem.waitList.add(new SoloSem.Waiter(W, true));
        sem.count = WB;
        assertThat(tryWriteLock(v, WB, sem)).isTrue();
        assertThat(sem.count).isEqualTo(AWB);
        assertThat(sem.log).containsExactly("cmpxchg count", "acquired", "owner = writer 0");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void tryWriteLockWithOthersStillQueuedKeepsTheWaitingBias(AsmGenericRwsem v) {
        // v4.7: cmpxchg to ACTIVE_WRITE_BIAS, then rwsem_atomic_update(RWSEM_WAITING_BIAS); v4.8: one cmpxchg to both
        SoloSem sem = new SoloSem().queued(R);
        sem.waitList.add(new SoloSem.Waiter(W, true));
        sem.count = WB;
        assertThat(tryWriteLock(v, WB, sem)).isTrue();
        assertThat(sem.count).isEqualTo(AWB + WB);
        assertThat(sem.owner).isEqualTo(ME);
        if (v48(v)) {
            assertThat(sem.log).containsExactly("cmpxchg count", "acquired", "owner = writer 0");
        } else {
            assertThat(sem.log).containsExactly("cmpxchg count", "acquired", add(WB), "owner = writer 0");
        }
    }

    private static boolean tryWriteLock(AsmGenericRwsem v, long count, SoloSem sem) {
        return v instanceof RwsemV48 v48 ? v48.rwsemTryWriteLock(count, sem) : ((RwsemV47) v).rwsemTryWriteLock(count, sem);
    }
}
