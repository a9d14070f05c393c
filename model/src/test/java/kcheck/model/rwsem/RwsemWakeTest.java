package kcheck.model.rwsem;

import static kcheck.model.rwsem.RwsemCount.NULL;
import static kcheck.model.rwsem.RwsemCount.RWSEM_ACTIVE_WRITE_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_READER_OWNED;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_BIAS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_FOR_READ;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAITING_FOR_WRITE;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_ANY;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_READERS;
import static kcheck.model.rwsem.RwsemCount.RWSEM_WAKE_READ_OWNED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Waking waiters (kernel/locking/rwsem-xadd.c): {@code __rwsem_do_wake()} (v4.7) and
 * {@code __rwsem_mark_wake()} (v4.8), {@code rwsem_wake()}, and the unlock fast paths that call
 * it ({@code __up_read}, {@code __up_write} of include/asm-generic/rwsem.h). WB is
 * {@code RWSEM_WAITING_BIAS}; a count is {@code active + k * WB}.
 */
class RwsemWakeTest {
    private static final long WB = RWSEM_WAITING_BIAS;
    private static final int R = RWSEM_WAITING_FOR_READ;
    private static final int W = RWSEM_WAITING_FOR_WRITE;

    /** SoloSem's log line for adding {@code d} to the count. */
    static String add(long d) {
        return "count += " + RwsemCount.show(d);
    }

    static List<AsmGenericRwsem> versions() {
        return List.of(new RwsemV47(), new RwsemV48());
    }

    /** The waker of the version: __rwsem_do_wake (v4.7) or __rwsem_mark_wake (v4.8). */
    private static void wake(AsmGenericRwsem v, SoloSem sem, int type) {
        if (v instanceof RwsemV48 v48) {
            v48.__rwsemMarkWake(sem, type);
        } else {
            ((RwsemV47) v).__rwsemDoWake(sem, type);
        }
    }

    private static boolean v48(AsmGenericRwsem v) {
        return v instanceof RwsemV48;
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aWriterAtTheFrontIsWokenButNotGrantedTheLock(AsmGenericRwsem v) {
        // if (waiter->type == RWSEM_WAITING_FOR_WRITE) { if (wake_type == RWSEM_WAKE_ANY) wake it; goto out; }
        SoloSem sem = new SoloSem().queued(W, R);
        sem.count = WB;
        wake(v, sem, RWSEM_WAKE_ANY);
        assertThat(sem.log).containsExactly("wake writer");
        assertThat(sem.count).isEqualTo(WB);
        assertThat(sem.waitList).hasSize(2);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aWriterAtTheFrontIsLeftAsleepWhenOnlyReadersAreToBeWoken(AsmGenericRwsem v) {
        SoloSem sem = new SoloSem().queued(W, R);
        sem.count = WB + 1;
        wake(v, sem, RWSEM_WAKE_READERS);
        assertThat(sem.log).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("versions")
    void theReadersAtTheFrontAreGrantedTogetherUpToTheFirstWriter(AsmGenericRwsem v) {
        // one trial grant, then woken * RWSEM_ACTIVE_READ_BIAS minus the trial; the writer keeps the waiting bias
        SoloSem sem = new SoloSem().queued(R, R, W, R);
        sem.count = WB;
        wake(v, sem, RWSEM_WAKE_ANY);
        assertThat(sem.count).isEqualTo(WB + 2);
        if (v48(v)) {
            assertThat(sem.log).containsSubsequence("grant 1", "grant 1");   /* v4.8: one reader at a time (wake_q_add, task = NULL) */
        } else {
            assertThat(sem.log).contains("grant 2");
        }
        assertThat(sem.waitList).extracting(SoloSem.Waiter::type).containsExactly(W, R);
        // v4.8: rwsem_set_reader_owned(sem) after the trial grant
        assertThat(sem.owner).isEqualTo(v48(v) ? RWSEM_READER_OWNED : NULL);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void theLastWaitersTakeTheWaitingBiasWithThem(AsmGenericRwsem v) {
        // if (waiter->list.next == &sem->wait_list) adjustment -= RWSEM_WAITING_BIAS;  (hit end of list)
        SoloSem sem = new SoloSem().queued(R, R);
        sem.count = WB;
        wake(v, sem, RWSEM_WAKE_ANY);
        assertThat(sem.count).isEqualTo(2);
        assertThat(sem.waitList).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aWriterThatStoleTheLockMakesTheWakerUndoItsTrialGrant(AsmGenericRwsem v) {
        // oldcount < RWSEM_WAITING_BIAS: a writer is active; undo, and the writer is still there: out
        SoloSem sem = new SoloSem().queued(R);
        sem.count = 2 * WB + 1;
        wake(v, sem, RWSEM_WAKE_ANY);
        assertThat(sem.count).isEqualTo(2 * WB + 1);
        assertThat(sem.log).hasSize(2).noneMatch(l -> l.startsWith("grant") || l.startsWith("owner"));
        assertThat(sem.waitList).hasSize(1);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void whenTheStealerHasLeftByTheUndoTheWakerTriesAgainAndGrants(AsmGenericRwsem v) {
        // v4.7: undo leaves no active locker: goto try_reader_grant; v4.8: undo leaves count >= WB: retry
        SoloSem sem = new SoloSem().queued(R);
        sem.count = 2 * WB + 1;
        sem.beforeWrites.add(() -> { });
        sem.beforeWrites.add(() -> sem.count -= RWSEM_ACTIVE_WRITE_BIAS);   /* the writer's up_write */
        wake(v, sem, RWSEM_WAKE_ANY);
        assertThat(sem.log).containsSubsequence(add(1), add(-1), add(1), "grant 1");
        assertThat(sem.count).isEqualTo(1);
        assertThat(sem.waitList).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("versions")
    void aDowngradeWakeGrantsTheReadersWithoutATrialGrant(AsmGenericRwsem v) {
        // rwsem_downgrade_wake: __rwsem_do_wake(sem, RWSEM_WAKE_READ_OWNED): the caller already holds a read lock
        SoloSem sem = new SoloSem().queued(R, W);
        sem.count = WB + 1;
        wake(v, sem, RWSEM_WAKE_READ_OWNED);
        assertThat(sem.log).containsExactly(add(1), "grant 1");
        assertThat(sem.count).isEqualTo(WB + 2);

        SoloSem last = new SoloSem().queued(R);
        last.count = WB + 1;
        wake(v, last, RWSEM_WAKE_READ_OWNED);
        assertThat(last.count).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("versions")
    void rwsemWakeWakesTheFrontUnderTheWaitLock(AsmGenericRwsem v) {
        SoloSem sem = new SoloSem().queued(W);
        sem.count = WB;
        v.rwsemWake(sem);
        assertThat(sem.log).containsExactly("wait_lock", "wake writer", "wait_unlock");
        assertThat(sem.waitLockHeld).isFalse();

        SoloSem empty = new SoloSem();
        v.rwsemWake(empty);
        assertThat(empty.log).as("do nothing if list empty").containsExactly("wait_lock", "wait_unlock");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void withASpinnerPresentTheWakerOnlyTriesTheWaitLock(AsmGenericRwsem v) {
        // if (rwsem_has_spinner(sem)) { if (!raw_spin_trylock_irqsave(&sem->wait_lock, flags)) return sem; goto locked; }
        SoloSem busy = new SoloSem().queued(W);
        busy.osqHeld = true;
        busy.waitLockHeld = true;
        v.rwsemWake(busy);
        assertThat(busy.log).containsExactly("wait_lock trylock failed");
        assertThat(busy.waitLockHeld).as("still the other holder's").isTrue();

        SoloSem free = new SoloSem().queued(W);
        free.osqHeld = true;
        v.rwsemWake(free);
        assertThat(free.log).containsExactly("wait_lock", "wake writer", "wait_unlock");

        SoloSem noSpinner = new SoloSem().queued(W);
        noSpinner.waitLockHeld = true;
        assertThatThrownBy(() -> v.rwsemWake(noSpinner)).as("without a spinner it waits for the wait_lock")
                .isInstanceOf(SoloSem.WouldBlock.class).hasMessage("wait_lock held");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void upWriteWithWaitersQueuedWakesThem(AsmGenericRwsem v) {
        // __up_write: if (unlikely(atomic_long_sub_return_release(RWSEM_ACTIVE_WRITE_BIAS, ...) < 0)) rwsem_wake(sem);
        SoloSem sem = new SoloSem().queued(W);
        sem.count = RWSEM_ACTIVE_WRITE_BIAS + WB;
        sem.owner = RwsemCount.writerTask(0);
        ((RwsemVariant) v).upWrite(sem);
        assertThat(sem.count).isEqualTo(WB);
        assertThat(sem.owner).isEqualTo(NULL);
        assertThat(sem.log).endsWith("released", "wait_lock", "wake writer", "wait_unlock");
    }

    @ParameterizedTest
    @MethodSource("versions")
    void upReadWakesOnlyWhenTheLastActiveLockerLeavesWithWaitersQueued(AsmGenericRwsem v) {
        // __up_read: if (unlikely(tmp < -1 && (tmp & RWSEM_ACTIVE_MASK) == 0)) rwsem_wake(sem);
        SoloSem last = new SoloSem().queued(W);
        last.count = WB + 1;
        ((RwsemVariant) v).upRead(last);
        assertThat(last.count).isEqualTo(WB);
        assertThat(last.log).endsWith("released", "wait_lock", "wake writer", "wait_unlock");

        SoloSem notLast = new SoloSem().queued(W);
        notLast.count = WB + 2;
        ((RwsemVariant) v).upRead(notLast);
        assertThat(notLast.log).containsExactly(add(-1), "released");

        SoloSem noWaiters = new SoloSem();
        noWaiters.count = 1;
        ((RwsemVariant) v).upRead(noWaiters);
        assertThat(noWaiters.count).isZero();
        assertThat(noWaiters.log).containsExactly(add(-1), "released");
    }
}
