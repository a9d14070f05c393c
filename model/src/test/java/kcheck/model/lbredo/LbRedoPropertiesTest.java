package kcheck.model.lbredo;

import static kcheck.model.lbredo.LoadBalance.AFTER_DETACH;
import static kcheck.model.lbredo.LoadBalance.MORE_BALANCE;
import static kcheck.model.lbredo.LoadBalance.OUT;
import static kcheck.model.lbredo.LoadBalance.REDO;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.model.Metric;
import kcheck.model.Property;
import kcheck.model.StepProperty;

/**
 * The lb-redo property monitors on hand-built states: each step property decides from the fields
 * it reads, and the redo decision's "a CPU still deserves a redo" looks at exactly the CPUs the
 * kernel would go on to.
 */
class LbRedoPropertiesTest {
    private static final long ALL = 0xfL;
    private static final long CPU3 = 1L << 3;
    private static final Set<String> ALL_IDS = Set.of("terminates", "call-returns", "all-pinned-sound", "no-spurious-redo",
            "pinned-redo-kept", "scan-bounded", "imbalance-kept", "newidle-pulls-here", "redos", "stat-passes",
            "spurious-redos", "stat-work");

    /** A layout with every monitor over one machine, and its properties by id. */
    private static final class Fixture {
        final LbRedoLayout l;
        final java.util.Map<String, Property> props = new java.util.HashMap<>();

        Fixture(LbDomain d) {
            l = new LbRedoLayout(d, LbRedoMonitors.of(ALL_IDS), "test");
            for (Property p : LbRedoProperties.build(l, ALL_IDS)) {
                props.put(p.id(), p);
            }
        }

        boolean holds(String id, long[] from, int action, long[] to) {
            return ((StepProperty) props.get(id)).holds(from, 0, action, to);
        }

        long[] state() {
            long[] s = new long[l.width];
            l.initial(s, new int[l.d.remote.length]);
            l.cpus.set(s, ALL);
            return s;
        }

        /** CPU 0's redo decision after detach_tasks found every examined task of {@code busiest} pinned away. */
        long[] allPinnedDecision(int busiest) {
            long[] s = state();
            l.pc.set(s, AFTER_DETACH);
            l.busiest.set(s, busiest + 1);
            l.allPinned.set(s, 1);
            l.examined.set(s, 1);
            l.allAffine.set(s, 1);
            return s;
        }

        long[] at(int pc) {
            long[] s = state();
            l.pc.set(s, pc);
            return s;
        }
    }

    /** A custom machine: CPUs 2 and 3 outside CPU 0's group {0,1}, with the given runqueues. */
    private static Fixture machine(long[] cpu2, long[] cpu3) {
        return new Fixture(LbDomain.custom(4, new int[] {0, 0, 1, 1}, ALL, new long[][] {null, null, cpu2, cpu3}, 0));
    }

    private final Fixture f = machine(new long[] {ALL, ALL}, new long[] {ALL, ALL});
    private final LbRedoLayout l = f.l;

    @Test
    void allPinnedBranchIsTakenWhenDstPinnedLeftNoImbalance() {
        long[] from = f.allPinnedDecision(2);
        l.examined.set(from, 0);
        l.dstPinned.set(from, 1);
        l.imbalance.set(from, 0);
        assertThat(f.holds("all-pinned-sound", from, 0, f.at(REDO))).as("redo with nothing examined").isFalse();
        l.imbalance.set(from, 1);
        assertThat(f.holds("all-pinned-sound", from, 0, f.at(MORE_BALANCE))).as("the LBF_DST_PINNED retry instead").isTrue();
    }

    @Test
    void terminatesFailsWhenEnvCpusGrowsInsideACall() {
        long[] from = f.at(MORE_BALANCE);
        l.cpus.set(from, 0b0111);
        long[] to = f.at(REDO);
        l.cpus.set(to, 0b1111);
        assertThat(f.holds("terminates", from, REDO << 8, to)).isFalse();
        l.cpus.set(to, 0b0011);
        assertThat(f.holds("terminates", from, REDO << 8, to)).isTrue();
    }

    @Test
    void imbalanceKeptIgnoresStepsThatAreNotExits() {
        LbDomain two = LbDomain.of(new LbDomain.Spec(4, 2, LbDomain.RACE, 2, 1, LbDomain.CLUSTER, LbDomain.MASKS_OWN,
                LbEnv.CPU_NEWLY_IDLE, LbEnv.SYSCTL_SCHED_NR_MIGRATE, LbEnv.SCHED_NR_MIGRATE_BREAK));
        Fixture t = new Fixture(two);
        long[] from = t.at(AFTER_DETACH);
        t.l.groupImbalance.set(from, 1);
        assertThat(t.holds("imbalance-kept", from, REDO << 8, t.at(REDO))).as("a redo is not a return").isTrue();
        assertThat(t.holds("imbalance-kept", from, OUT << 8, t.at(LbRedoLayout.DONE))).as("returns with it cleared").isFalse();
        assertThat(t.holds("imbalance-kept", from, (OUT << 8) | LbRedoSteps.IMBALANCE_AFTER, t.at(LbRedoLayout.DONE))).isTrue();
    }

    @Test
    void pinnedRedoKeptDoesNotAskForARedoBecauseOfTheBusiestCpuItself() {
        Fixture t = machine(new long[] {ALL, ALL}, new long[] {CPU3, CPU3});
        long[] from = t.allPinnedDecision(2);
        assertThat(t.holds("pinned-redo-kept", from, OUT << 8, t.at(OUT))).isTrue();
    }

    @Test
    void pinnedRedoKeptDoesNotAskForARedoBecauseOfACpuNoLongerInEnvCpus() {
        Fixture t = machine(new long[] {ALL, ALL}, new long[] {ALL, ALL});
        long[] from = t.allPinnedDecision(3);
        t.l.cpus.set(from, 0b1011);
        assertThat(t.holds("pinned-redo-kept", from, OUT << 8, t.at(OUT))).isTrue();
        t.l.cpus.set(from, 0b1111);
        assertThat(t.holds("pinned-redo-kept", from, OUT << 8, t.at(OUT))).isFalse();
    }

    @Test
    void pinnedRedoKeptAsksForARedoWhenAnotherCpuHasTwoTasksOneAllowedOnDst() {
        Fixture t = machine(new long[] {ALL, ALL}, new long[] {CPU3, ALL});
        long[] from = t.allPinnedDecision(2);
        assertThat(t.holds("pinned-redo-kept", from, OUT << 8, t.at(OUT))).isFalse();
        assertThat(t.holds("pinned-redo-kept", from, REDO << 8, t.at(REDO))).isTrue();
        assertThat(((StepProperty) t.props.get("pinned-redo-kept")).explain(from, 0, OUT << 8, t.at(OUT)))
                .contains("busiest CPU 2").contains("CPU 3 still has a task CPU 0 could pull");
    }

    @Test
    void pinnedRedoKeptDoesNotAskForARedoForACpuWithOneTask() {
        Fixture t = machine(new long[] {ALL, ALL}, new long[] {ALL, ALL});
        long[] from = t.allPinnedDecision(2);
        t.l.len[3].set(from, 1);
        assertThat(t.holds("pinned-redo-kept", from, OUT << 8, t.at(OUT))).isTrue();
    }

    @Test
    void pinnedRedoKeptDoesNotAskForARedoWhenEveryTaskIsPinnedAwayFromDst() {
        Fixture t = machine(new long[] {ALL, ALL}, new long[] {CPU3, CPU3});
        long[] from = t.allPinnedDecision(2);
        assertThat(t.holds("pinned-redo-kept", from, OUT << 8, t.at(OUT))).isTrue();
    }

    @Test
    void pinnedRedoKeptReadsTheMovedDstCpu() {
        // after LBF_DST_PINNED, dst_cpu is CPU 1: a task that may run on CPU 1 only still deserves a redo
        long cpu1And3 = (1L << 1) | CPU3;
        Fixture t = machine(new long[] {ALL, ALL}, new long[] {cpu1And3, cpu1And3});
        long[] from = t.allPinnedDecision(2);
        t.l.setDstCpu(from, 1);
        assertThat(t.holds("pinned-redo-kept", from, OUT << 8, t.at(OUT))).isFalse();
        t.l.setDstCpu(from, 0);
        assertThat(t.holds("pinned-redo-kept", from, OUT << 8, t.at(OUT))).isTrue();
    }

    @Test
    void statWorkIsTheWorkMonitor() {
        long[] s = f.state();
        l.work.set(s, 5);
        assertThat(((Metric) f.props.get("stat-work")).value(s, 0)).isEqualTo(5);
    }
}
