package kcheck.model.lbredo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code cfs_tasks} as the runqueue keeps it: head first, deletions anywhere, unnamed tasks counted in nr_running. */
class RqTest {
    private static Rq rq(int... tasks) {
        Rq rq = new Rq(2, 8);
        for (int p : tasks) {
            rq.append(p);
        }
        return rq;
    }

    private static int[] list(Rq rq) {
        int[] out = new int[rq.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = rq.task(i);
        }
        return out;
    }

    @Test
    void listDelOfTheHeadKeepsTheRestInOrder() {
        Rq rq = rq(1, 2, 3);
        rq.listDel(1);
        assertThat(list(rq)).containsExactly(2, 3);
        rq.listDel(3);
        assertThat(list(rq)).containsExactly(2);
    }

    @Test
    void containsSeesOnlyTasksOnTheList() {
        Rq rq = rq(1, 2);
        assertThat(rq.contains(1)).isTrue();
        assertThat(rq.contains(2)).isTrue();
        assertThat(rq.contains(3)).isFalse();
        rq.listDel(2);
        assertThat(rq.contains(2)).as("deleted: its old slot is past the list").isFalse();
    }

    @Test
    void aDeletedTaskIsNotOnTheListAnyMore() {
        Rq rq = rq(1, 2);
        rq.listDel(2);
        assertThatThrownBy(() -> rq.listMove(2)).isInstanceOf(LbCheck.Failed.class)
                .hasMessageContaining("task 2 is not on rq 2");
        assertThat(list(rq)).containsExactly(1);
    }

    @Test
    void nrRunningCountsUnnamedTasksWhateverTheOrderTheyAreSetIn() {
        Rq rq = new Rq(2, 8);
        rq.setExtra(1);
        rq.append(4);
        assertThat(rq.nrRunning).isEqualTo(2);
        rq.setExtra(2);
        assertThat(rq.nrRunning).isEqualTo(3);
    }
}
