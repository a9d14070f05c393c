package kcheck.model.cpudl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The real-bug variants do exactly what their fix commit undid. */
class CpudlBugsTest {
    private static Cpumask all(int n) {
        Cpumask m = new Cpumask(n);
        m.setAll();
        return m;
    }

    @Test
    void before382748c05e58ClearingAnOfflineCpuMarksItFree() {
        CpudlHeap bug = new CpudlBugs.OnlyFreeWhenOnline();
        CpudlHeap fix = new CpudlV612();
        for (CpudlHeap h : new CpudlHeap[] {bug, fix}) {
            Cpudl cp = Cpudl.init(2);
            h.rqOfflineDl(cp, 0);
            h.set(cp, 0, 3);
            h.clear(cp, 0, false);
            assertThat(cp.freeCpus.testCpu(0)).as(h.version()).isEqualTo(h == bug);
        }
    }

    @Test
    void before16b269436b72ACpuThatLeftTheRootDomainStaysFreeAndIsOffered() {
        CpudlHeap bug = new CpudlBugs.FreeCpusReflectOnline();
        Cpudl cp = Cpudl.init(2);
        bug.rqOfflineDl(cp, 0);
        assertThat(cp.freeCpus.testCpu(0)).isTrue();
        assertThat(bug.find(cp, 5, all(2), new Cpumask(2))).as("CPU 0 is still active").isZero();
        cp.cpuActiveMask.clearCpu(0);
        assertThat(bug.find(cp, 5, all(2), new Cpumask(2))).as("cpu_active_mask hides a CPU going down").isEqualTo(1);
        Cpudl fixed = Cpudl.init(2);
        new CpudlV48().rqOfflineDl(fixed, 0);
        assertThat(fixed.freeCpus.testCpu(0)).isFalse();
    }

    @Test
    void before23e71d8ba429NoFittingFreeCpuMeansNoAnswer() {
        Cpudl cp = Cpudl.init(2);
        cp.setCapacities(512, 512);
        cp.setAsymCpucap(true);
        DlTask big = new DlTask(5, all(2), 0, 3L << 18);
        Cpumask later = new Cpumask(2);
        assertThat(new CpudlBugs.NoFitFallback().find(cp, big, later)).isZero();
        assertThat(new CpudlV612().find(cp, big, later)).isEqualTo(1);
        assertThat(later).hasToString("{0}");
    }
}
