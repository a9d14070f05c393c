package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * {@code fifo-monitor=one}: fifo-entry's monitor keeps the waiting-at-entry set of the one call it
 * watches, the search choosing at each call, while none is watched, to watch it or not; and the
 * watch's partial-order footprints ({@link FifoWatchFootprints}).
 */
class FifoWatchTest {
    private static RqLockRig rig(String variant) {
        DoubleLockBalance impl = variant.equals("before") ? new DoubleLockBalanceV2627() : new DoubleLockBalanceV2628();
        return new RqLockRig(impl, "ticket", Set.of("mutual-exclusion", "fifo-entry"), "cpus", "3", "fifo-monitor", "one");
    }

    @Test
    void atMostTheWatchedCpuHasAWaitingAtEntrySet() {
        RqLockRig r = rig("after");
        boolean someWatch = false;
        for (RqLockRig.Step st : r.reachable()) {
            long[] s = st.to();
            int w = r.lay.watch.getInt(s);
            someWatch |= w != 0;
            for (int c = 0; c < 3; c++) {
                if (c != w - 1) {
                    assertThat(r.lay.entryMask(s, c)).as("cpu %d, watch %d", c, w).isZero();
                }
            }
            if (w != 0) {
                assertThat(r.lay.entryMask(s, w - 1)).as("a watch with an empty set has ended").isNotZero();
            }
        }
        assertThat(someWatch).isTrue();
    }

    @Test
    void aCallWithWaitersWhileNoneIsWatchedIsTakenBothWays() {
        RqLockRig r = rig("after");
        List<RqLockRig.Step> all = r.reachable();
        int watched = 0;
        for (RqLockRig.Step st : all) {
            if (!r.steps.startsWatch(st.actor(), st.action())) {
                continue;
            }
            watched++;
            assertThat(r.lay.watch.getInt(st.from())).isZero();
            assertThat(r.lay.watch.getInt(st.to())).isEqualTo(st.actor() + 1);
            /* the unwatched twin: the same busiest, k without the watch's offset */
            int plain = st.action() - r.prog.branches;
            RqLockRig.Step twin = all.stream().filter(o -> o.from() == st.from() && o.actor() == st.actor() && o.action() == plain)
                    .findFirst().orElseThrow();
            assertThat(r.steps.resultOf(twin.actor(), twin.action())).isEqualTo(r.steps.resultOf(st.actor(), st.action()));
            long[] unwatched = st.to().clone();
            r.lay.watch.set(unwatched, 0);
            r.lay.watchMask.set(unwatched, 0);
            assertThat(twin.to()).as("the same step without the watch (action %d)", plain).isEqualTo(unwatched);
        }
        assertThat(watched).isPositive();
    }

    @Test
    void theWatchedReturnIsVisibleAndOtherCallsAreFreeWhileACallIsWatched() {
        RqLockRig r = rig("before");
        RqLockModel m = r.model();
        long[] step = new long[3];
        long[] future = new long[3];
        boolean sawWatchedReturn = false;
        boolean sawFreeCall = false;
        boolean sawReadingCall = false;
        for (RqLockRig.Step st : r.reachable()) {
            long[] s = st.from();
            m.footprints(s, step, future);
            int w = r.lay.watch.getInt(s);
            int g = r.lay.g(s, st.actor());
            if (w == st.actor() + 1 && r.returns(st)) {
                assertThat(step[st.actor()]).as("the watched call's return").isEqualTo(-1L);
                sawWatchedReturn = true;
            }
            if (r.prog.op[g] == RqLockProgram.CALL) {
                if (w != 0) {
                    assertThat(step[st.actor()]).as("a call while another is watched").isZero();
                    sawFreeCall = true;
                } else {
                    assertThat(step[st.actor()]).as("a call that may start a watch").isNotIn(0L, -1L);
                    sawReadingCall = true;
                }
            }
        }
        assertThat(Arrays.asList(sawWatchedReturn, sawFreeCall, sawReadingCall)).containsOnly(true);
    }
}
