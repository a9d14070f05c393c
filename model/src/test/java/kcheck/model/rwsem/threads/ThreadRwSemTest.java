package kcheck.model.rwsem.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import kcheck.model.rwsem.RwSem;
import kcheck.model.rwsem.RwsemCount;
import kcheck.model.rwsem.RwsemOwnerFactory;
import kcheck.model.threads.SpinBudgetExceeded;
import kcheck.model.threads.Workers;

class ThreadRwSemTest {

    @Test
    void grantedReadersLeaveTheListInQueueOrderAndStopWaiting() {
        ThreadRwSem sem = new ThreadRwSem(2, 1, new boolean[1], 10);
        List<String> log = new ArrayList<>();
        RwsemObserver obs = new RwsemObserver() {
            @Override
            public void readersGranted(int waker, int[] readers) {
                log.add("granted " + readers.length + " by " + waker);
            }
        };
        RwSem r0 = sem.forTask(0, obs);
        RwSem r1 = sem.forTask(1, obs);
        RwSem w = sem.forTask(2, obs);
        r0.rawSpinLockIrq();
        r0.listAddTail(RwsemCount.RWSEM_WAITING_FOR_READ);
        r0.rawSpinUnlockIrq();
        r1.rawSpinLockIrq();
        r1.listAddTail(RwsemCount.RWSEM_WAITING_FOR_READ);
        r1.rawSpinUnlockIrq();
        w.rawSpinLockIrq();
        w.listAddTail(RwsemCount.RWSEM_WAITING_FOR_WRITE);
        assertThat(w.waitListFrontIsWriter()).isFalse();
        assertThat(w.waitListLeadingReaders()).isEqualTo(2);
        assertThat(w.waitListWriterAfter(2)).isTrue();
        assertThat(r0.waiterTaskIsNull()).isFalse();
        w.waitListGrantReaders(2);
        assertThat(r0.waiterTaskIsNull()).isTrue();
        assertThat(r1.waiterTaskIsNull()).isTrue();
        assertThat(w.waitListFrontIsWriter()).isTrue();
        assertThat(w.listIsSingular()).isTrue();
        w.rawSpinUnlockIrq();
        r0.schedule();
        assertThat(log).containsExactly("granted 2 by 2");
    }

    @Test
    void aWriterSleepsUntilWokenAndTheWakeUpIsUsedOnce() {
        ThreadRwSem sem = new ThreadRwSem(0, 2, new boolean[2], 50);
        RwSem w0 = sem.forTask(0, RwsemObserver.NONE);
        RwSem w1 = sem.forTask(1, RwsemObserver.NONE);
        w1.rawSpinLockIrq();
        w1.listAddTail(RwsemCount.RWSEM_WAITING_FOR_WRITE);
        w1.rawSpinUnlockIrq();
        w0.rawSpinLockIrq();
        w0.wakeUpFrontWriter();
        w0.rawSpinUnlockIrq();
        w1.schedule();
        assertThatThrownBy(w1::schedule).isInstanceOf(SpinBudgetExceeded.class)
                .hasMessage("writer 1 spun 50 times in schedule() waiting for a wake-up without getting it (spin budget exhausted)");
    }

    @Test
    void theOsqIsExclusiveAndWaitingForItIsBounded() {
        ThreadRwSem sem = new ThreadRwSem(0, 2, new boolean[2], 20);
        RwSem w0 = sem.forTask(0, RwsemObserver.NONE);
        RwSem w1 = sem.forTask(1, RwsemObserver.NONE);
        assertThat(w0.osqLock()).isTrue();
        assertThat(w1.osqIsLocked()).isTrue();
        assertThatThrownBy(w1::osqLock).isInstanceOf(SpinBudgetExceeded.class).hasMessageContaining("in osq_lock");
        w0.osqUnlock();
        assertThat(w1.osqLock()).isTrue();
    }

    @Test
    void theWaitListIsOnlyTouchedUnderWaitLock() {
        ThreadRwSem sem = new ThreadRwSem(1, 1, new boolean[1], 10);
        RwSem r = sem.forTask(0, RwsemObserver.NONE);
        assertThatThrownBy(r::listEmpty).isInstanceOf(IllegalStateException.class).hasMessageContaining("without holding wait_lock");
        assertThatThrownBy(r::current).as("a reader's task pointer is no owner value").isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aWriterTaskPointerIsItsOwnerValue() {
        ThreadRwSem sem = new ThreadRwSem(1, 2, new boolean[] {false, true}, 10);
        assertThat(sem.forTask(2, RwsemObserver.NONE).current()).isEqualTo(RwsemCount.writerTask(1));
        assertThat(sem.forTask(2, RwsemObserver.NONE).rtTask()).isTrue();
        assertThat(sem.forTask(1, RwsemObserver.NONE).rtTask()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"before", "after"})
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theReferenceCodeRunsOnPlainThreadsAndLeavesTheLockFree(String variant) throws InterruptedException {
        ThreadRwSem sem = new ThreadRwSem(1, 2, new boolean[2], 1L << 40);
        Workers.run("task ", 3, task -> RwsemTask.run(RwsemOwnerFactory.implementation(variant),
                sem.forTask(task, RwsemObserver.NONE), RwsemObserver.NONE, task, sem.isWriter(task), 200));
        RwSem any = sem.forTask(0, RwsemObserver.NONE);
        assertThat(any.atomicLongRead()).isEqualTo(RwsemCount.RWSEM_UNLOCKED_VALUE);
        assertThat(any.readOwner()).isIn(RwsemCount.NULL, RwsemCount.RWSEM_READER_OWNED);
        assertThat(any.osqIsLocked()).isFalse();
    }
}
