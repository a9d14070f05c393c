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
