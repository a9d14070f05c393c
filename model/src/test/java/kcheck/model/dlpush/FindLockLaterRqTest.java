package kcheck.model.dlpush;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The re-checks of find_lock_later_rq() on the task states the window can leave behind, read
 * through a hand-set {@link DlKernel}: rq A is CPU 2, later_rq CPU 0, the picked task is 0.
 */
class FindLockLaterRqTest {
    private static final int A = 2;
    private static final int LATER = 0;

    /** A hand-set kernel state: task 0 and task 1, and what pick_next_pushable_dl_task(A) returns. */
    private static final class Fake implements DlKernel {
        int[] cpu = {A, A};
        int[] mask = {0b111, 0b111};
        boolean[] running = {false, false};
        boolean[] md = {false, false};
        boolean[] queued = {true, true};
        int leftmost = 0;
        int picks;

        @Override
        public int taskCpu(int p) {
            return cpu[p];
        }

        @Override
        public boolean cpumaskTestCpu(int c, int p) {
            return (mask[p] >>> c & 1) != 0;
        }

        @Override
        public int nrCpusAllowed(int p) {
            return Integer.bitCount(mask[p]);
        }

        @Override
        public boolean taskOnCpu(int rq, int p) {
            return running[p];
        }

        @Override
        public boolean taskCurrent(int rq, int p) {
            return running[p] && cpu[p] == rq;
        }

        @Override
        public boolean isMigrationDisabled(int p) {
            return md[p];
        }

        @Override
        public boolean taskOnRqQueued(int p) {
            return queued[p];
        }

        @Override
        public int pickNextPushableDlTask(int rq) {
            picks++;
            return leftmost;
        }
    }

    private static final FindLockLaterRq FIXED = new FindLockLaterRqV612();
    private static final FindLockLaterRq V612 = new DlPushRealBugs.BeforeRaceFix();
    private static final FindLockLaterRq V62 = new DlPushRealBugs.BeforeMigrationDisabledFix();

    @Test
    void aTaskStillLeftmostAndMigratableIsPushedByEveryVersion() {
        Fake k = new Fake();
        assertThat(FIXED.taskUnfit(k, 0, A, LATER)).isFalse();
        assertThat(V612.taskUnfit(k, 0, A, LATER)).isFalse();
        assertThat(V62.taskUnfit(k, 0, A, LATER)).isFalse();
    }

    @Test
    void aTaskThatCalledMigrateDisableAndWasPreemptedPassesOnlyTheV62Recheck() {
        Fake k = new Fake();
        k.md[0] = true; // ran on A, migrate_disable(), preempted: queued on A, not running, still pushable
        assertThat(V62.taskUnfit(k, 0, A, LATER)).as("v6.2: no is_migration_disabled test").isFalse();
        assertThat(V612.taskUnfit(k, 0, A, LATER)).isTrue();
        assertThat(FIXED.taskUnfit(k, 0, A, LATER)).isTrue();
    }

    @Test
    void aTaskWokenBackOntoTheRqBehindAnEarlierTaskPassesTheV612RecheckButNotTheFixedOne() {
        Fake k = new Fake();
        k.leftmost = 1; // task 0 left rq A (ran, slept) and was woken onto it again behind task 1
        assertThat(V612.taskUnfit(k, 0, A, LATER)).as("v6.12: rq, affinity, on_cpu, class, md, queued all fine").isFalse();
        assertThat(FIXED.taskUnfit(k, 0, A, LATER)).isTrue();
        assertThat(k.picks).as("the fixed re-check asks pick_next_pushable_dl_task").isEqualTo(1);
    }

    @Test
    void everyVersionRefusesATaskThatMovedAwayOrRunsOrLostTheTargetCpu() {
        for (FindLockLaterRq impl : new FindLockLaterRq[] {FIXED, V612, V62}) {
            Fake moved = new Fake();
            moved.cpu[0] = 1;
            moved.leftmost = 1;
            assertThat(impl.taskUnfit(moved, 0, A, LATER)).as("%s: pulled to CPU 1", impl).isTrue();
            Fake running = new Fake();
            running.running[0] = true;
            running.leftmost = 1;
            assertThat(impl.taskUnfit(running, 0, A, LATER)).as("%s: running on A", impl).isTrue();
            Fake pinned = new Fake();
            pinned.mask[0] = 0b110;
            assertThat(impl.taskUnfit(pinned, 0, A, LATER)).as("%s: CPU 0 left its mask", impl).isTrue();
        }
    }
}
