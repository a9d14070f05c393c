package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The grading rq-lock claims for the disk search ({@link RqLockModel#rank}): where it claims one,
 * every step of every reachable state goes from rank r to rank r + 1 (the engine checks the same
 * during a search, but only in the configurations a search visits).
 */
class RqLockRankTest {

    static List<Arguments> configurations() {
        List<Arguments> out = new java.util.ArrayList<>();
        for (DoubleLockBalance impl : List.of(new DoubleLockBalanceV2627(), new DoubleLockBalanceV2628(), new DoubleLockBalanceV612())) {
            /* 2.6.27 takes more steps after a failed trylock than after a taken one; qspinlock's slow path is longer than its fast path */
            boolean even = !(impl instanceof DoubleLockBalanceV2627);
            for (String lock : RqSpinlocks.KINDS) {
                out.add(Arguments.of(impl, lock, "1", even && !lock.startsWith("qspinlock")));
            }
            out.add(Arguments.of(impl, "ticket", "2", even));
        }
        return out;
    }

    @ParameterizedTest(name = "{0} {1} rounds={2} graded={3}")
    @MethodSource("configurations")
    void everyStepGoesFromOneRankToTheNext(DoubleLockBalance impl, String lock, String rounds, boolean graded) {
        RqLockRig rig = new RqLockRig(impl, lock, Set.of("mutual-exclusion", "fifo-entry"), "cpus", "3", "rounds", rounds);
        RqLockModel m = rig.model();
        List<RqLockRig.Step> steps = rig.reachable();
        long claims = steps.stream().filter(st -> m.rank(st.from()) >= 0).count();
        assertThat(claims).as("steps from a state with a rank").isEqualTo(graded ? steps.size() : 0);
        for (RqLockRig.Step st : steps) {
            long r = m.rank(st.from());
            if (r >= 0) {
                assertThat(m.rank(st.to())).as("%s", st).isEqualTo(r + 1);
            }
        }
    }
}
