package kcheck.model.cpudl;

import static kcheck.model.cpudl.Deadlines.dlTimeBefore;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The reference map's answers against a direct reading of its definition, on random maps: up to
 * 64 CPUs the map answers from bit sets, above from its arrays; both must give the same answers.
 */
class CpudlReferenceTest {

    @ParameterizedTest(name = "{0} CPUs")
    @ValueSource(ints = {1, 5, 63, 64, 65, 70, 130})
    void queriesAgreeWithTheDefinitionOnRandomMaps(int n) {
        SplittableRandom r = new SplittableRandom(n * 7919L);
        long[] keys = {1, 2, 3, Long.MIN_VALUE + 1, -2, 5};
        for (int round = 0; round < 300; round++) {
            CpudlReference ref = new CpudlReference(n);
            long[] dl = new long[n];
            boolean[] live = new boolean[n];
            boolean[] online = new boolean[n];
            for (int c = 0; c < n; c++) {
                online[c] = r.nextInt(4) != 0;
                ref.setOnline(c, online[c]);
                if (r.nextBoolean()) {
                    dl[c] = keys[r.nextInt(3)];
                    live[c] = true;
                    ref.set(c, dl[c]);
                }
            }
            for (int k = 0; k < 3; k++) { /* a few updates after the first queries: cached answers must follow */
                int c = r.nextInt(n);
                assertThat(ref.latest()).isEqualTo(latest(dl, live));
                if (r.nextBoolean()) {
                    ref.clear(c);
                    live[c] = false;
                    dl[c] = 0;
                } else {
                    dl[c] = keys[r.nextInt(3)];
                    live[c] = true;
                    ref.set(c, dl[c]);
                }
            }
            Cpumask allowed = new Cpumask(n);
            for (int c = 0; c < n; c++) {
                if (r.nextInt(3) != 0) {
                    allowed.setCpu(c);
                }
            }
            int first = -1;
            long mask = 0;
            for (int c = n - 1; c >= 0; c--) {
                if (online[c] && !live[c] && allowed.testCpu(c)) {
                    first = c;
                    if (c < 64) {
                        mask |= 1L << c;
                    }
                }
            }
            assertThat(ref.firstFreeAllowed(allowed)).isEqualTo(first);
            assertThat(ref.freeAllowedMask(allowed)).isEqualTo(mask);
            long m = latest(dl, live);
            assertThat(ref.latest()).isEqualTo(m);
            long deadline = keys[r.nextInt(keys.length)];
            for (int answer = -1; answer < n; answer++) {
                assertThat(ref.findAccepts(answer, deadline, allowed)).as("answer %d", answer)
                        .isEqualTo(accepts(answer, deadline, allowed, first, m, dl, live));
            }
        }
    }

    @Test
    void anOfflineRunqueueIsNeverFree() {
        CpudlReference ref = new CpudlReference(3);
        Cpumask all = new Cpumask(3);
        all.setAll();
        ref.setOnline(0, false);
        assertThat(ref.firstFreeAllowed(all)).isEqualTo(1);
        ref.set(1, 7);
        assertThat(ref.freeAllowedMask(all)).isEqualTo(0b100);
        ref.setOnline(0, true);
        assertThat(ref.freeAllowedMask(all)).isEqualTo(0b101);
    }

    private static Cpumask all(int n) {
        Cpumask m = new Cpumask(n);
        m.setAll();
        return m;
    }

    @Test
    void theMaskContractWithoutAFreeCpuIsTheLatestCpuOrNothing() {
        CpudlReference ref = new CpudlReference(2);
        Cpudl env = Cpudl.init(2);
        ref.set(0, 7);
        ref.set(1, 9);
        DlTask earlier = new DlTask(5, all(2), 0, 0);
        assertThat(ref.findAcceptsMask(1, 0b10, earlier, env)).as("the latest CPU").isTrue();
        assertThat(ref.findAcceptsMask(1, 0b01, earlier, env)).as("not the latest CPU").isFalse();
        assertThat(ref.findAcceptsMask(0, 0, earlier, env)).as("nothing although the task is earlier").isFalse();
        Cpumask only0 = new Cpumask(2);
        only0.setCpu(0);
        assertThat(ref.findAcceptsMask(0, 0, new DlTask(5, only0, 0, 0), env)).as("the latest CPU is not allowed").isTrue();
        assertThat(ref.findAcceptsMask(0, 0, new DlTask(11, all(2), 0, 0), env)).as("the task is later").isTrue();
    }

    @Test
    void theMaskContractWithAnEmptyMapAndEveryRunqueueOfflineIsNothing() {
        CpudlReference ref = new CpudlReference(2);
        ref.setOnline(0, false);
        ref.setOnline(1, false);
        DlTask p = new DlTask(5, all(2), 0, 0);
        assertThat(ref.findAcceptsMask(0, 0, p, Cpudl.init(2))).isTrue();
        assertThat(ref.findAcceptsMask(1, 0b01, p, Cpudl.init(2))).isFalse();
    }

    @Test
    void withoutAFittingFreeCpuTheBiggestIsExpectedTaskCpuFirst() {
        Cpudl env = Cpudl.init(3);
        env.setCapacities(512, 1024, 1024);
        env.setAsymCpucap(true);
        long tooDense = 2L << 20;
        assertThat(CpudlReference.expectedFreeCandidates(0b111, new DlTask(5, all(3), 0, tooDense), env)).isEqualTo(0b010);
        assertThat(CpudlReference.expectedFreeCandidates(0b111, new DlTask(5, all(3), 2, tooDense), env)).isEqualTo(0b100);
        assertThat(CpudlReference.expectedFreeCandidates(0b101, new DlTask(5, all(3), 1, tooDense), env)).isEqualTo(0b100);
    }

    @Test
    void onlyCpusGivenADeadlineAreLive() {
        CpudlReference ref = new CpudlReference(2);
        assertThat(ref.isLive(0)).isFalse();
        ref.set(0, 3);
        assertThat(ref.isLive(0)).isTrue();
        assertThat(ref.count()).isEqualTo(1);
        ref.clear(0);
        assertThat(ref.isLive(0)).isFalse();
        assertThat(ref.count()).isZero();
    }

    private static long latest(long[] dl, boolean[] live) {
        long m = 0;
        boolean any = false;
        for (int c = 0; c < dl.length; c++) {
            if (live[c] && (!any || dlTimeBefore(m, dl[c]))) {
                m = dl[c];
                any = true;
            }
        }
        return m;
    }

    private static boolean accepts(int answer, long deadline, Cpumask allowed, int first, long m, long[] dl, boolean[] live) {
        if (first >= 0) {
            return answer == first;
        }
        boolean none = true;
        for (boolean l : live) {
            none &= !l;
        }
        if (none) {
            return answer == -1;
        }
        for (int c = 0; c < dl.length; c++) {
            if (live[c] && dl[c] == m && answer == (allowed.testCpu(c) && dlTimeBefore(deadline, m) ? c : -1)) {
                return true;
            }
        }
        return false;
    }
}
