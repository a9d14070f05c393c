package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.model.StepProperty;

/** The step properties of the rq-lock model, read on real steps of small models (2 CPUs, test-and-set locks). */
class RqLockPropertiesTest {

    /** Drops and re-takes this_rq, never takes busiest, returns 0. */
    static final class KeepsOnlyThis implements DoubleLockBalance {
        @Override
        public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
            k.spinUnlock(thisRq);
            k.spinLock(thisRq);
            return 0;
        }

        @Override
        public void doubleUnlockBalance(RqLocks k, int thisRq, int busiest) {
        }
    }

    /** Drops this_rq, takes busiest only, returns 1; double_unlock_balance swaps them back. */
    static final class KeepsOnlyBusiest implements DoubleLockBalance {
        @Override
        public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
            k.spinUnlock(thisRq);
            k.spinLock(busiest);
            return 1;
        }

        @Override
        public void doubleUnlockBalance(RqLocks k, int thisRq, int busiest) {
            k.spinUnlock(busiest);
            k.spinLock(thisRq);
        }
    }

    /** Takes busiest with plain spin_lock (subclass 0) while holding this_rq (also subclass 0). */
    static final class NoNesting extends DoubleLockBalanceV2628 {
        @Override
        public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
            k.spinLock(busiest);
            return 0;
        }
    }

    private static List<RqLockRig.Step> returns(RqLockRig rig) {
        return rig.reachable().stream().filter(rig::returns).toList();
    }

    @Test
    void everyCpuReturningWithoutBusiestViolatesHoldsBothOnReturn() {
        RqLockRig rig = new RqLockRig(new KeepsOnlyThis(), "tas", Set.of("holds-both-on-return"));
        StepProperty p = rig.step("holds-both-on-return");
        List<RqLockRig.Step> rets = returns(rig);
        assertThat(rets).extracting(RqLockRig.Step::actor).contains(0, 1);
        assertThat(rets).extracting(rig::returnValue).containsOnly(0);
        for (RqLockRig.Step st : rets) {
            assertThat(p.holds(st.from(), st.actor(), st.action(), st.to())).as("CPU %d returns holding only its own rq", st.actor())
                    .isFalse();
        }
    }

    @Test
    void everyCpuReturningWithoutThisRqViolatesHoldsBothOnReturn() {
        RqLockRig rig = new RqLockRig(new KeepsOnlyBusiest(), "tas", Set.of("holds-both-on-return"));
        StepProperty p = rig.step("holds-both-on-return");
        List<RqLockRig.Step> rets = returns(rig);
        assertThat(rets).extracting(RqLockRig.Step::actor).contains(0, 1);
        for (RqLockRig.Step st : rets) {
            assertThat(p.holds(st.from(), st.actor(), st.action(), st.to())).as("CPU %d returns holding only busiest", st.actor())
                    .isFalse();
        }
    }

    @Test
    void returningHoldingBothLocksKeepsHoldsBothOnReturn() {
        RqLockRig rig = new RqLockRig(new DoubleLockBalanceV2628(), "tas", Set.of("holds-both-on-return"), "preempt", "n");
        StepProperty p = rig.step("holds-both-on-return");
        List<RqLockRig.Step> rets = returns(rig);
        assertThat(rets).extracting(rig::returnValue).contains(0, 1);
        for (RqLockRig.Step st : rets) {
            assertThat(p.holds(st.from(), st.actor(), st.action(), st.to())).isTrue();
        }
    }

    @Test
    void aReturnOfZeroAfterRetakingTheLocksWithoutClearingTheClockViolatesRqClockCleared() {
        RqLockRig rig = new RqLockRig(new KeepsOnlyThis(), "tas", Set.of("rq-clock-cleared"));
        StepProperty p = rig.step("rq-clock-cleared");
        List<RqLockRig.Step> rets = returns(rig);
        assertThat(rets).isNotEmpty();
        for (RqLockRig.Step st : rets) {
            assertThat(p.holds(st.from(), st.actor(), st.action(), st.to())).isFalse();
        }
    }

    @Test
    void takingASecondRqLockAtSubclassZeroViolatesLockdepSubclass() {
        RqLockRig rig = new RqLockRig(new NoNesting(), "tas", Set.of("lockdep-subclass"));
        StepProperty p = rig.step("lockdep-subclass");
        List<RqLockRig.Step> all = rig.reachable();
        assertThat(all).anyMatch(st -> !p.holds(st.from(), st.actor(), st.action(), st.to()));
        assertThat(all).anyMatch(st -> rig.steps.edge(st.actor(), st.action()) >= 0 && p.holds(st.from(), st.actor(), st.action(), st.to()));
    }

    @Test
    void nestedLockingKeepsLockdepSubclass() {
        RqLockRig rig = new RqLockRig(new DoubleLockBalanceV2628(), "tas", Set.of("lockdep-subclass"));
        StepProperty p = rig.step("lockdep-subclass");
        assertThat(rig.reachable()).allMatch(st -> p.holds(st.from(), st.actor(), st.action(), st.to()));
    }

    /**
     * fifo-entry on real return steps: CPU {@code a} waits in {@code from} for a lock the returning
     * CPU holds after the step; the step violates fifo-entry exactly when {@code a} is in the
     * returning CPU's waiting-at-entry set.
     */
    /** The CPUs that wait in {@code s} for a lock in {@code locks}. */
    private static long waitingForHeld(RqLockRig rig, long[] s, int locks) {
        long out = 0;
        for (int b = 0; b < rig.lay.n; b++) {
            int l = rig.lay.waitsFor(s, b);
            if (l >= 0 && (locks & (1 << l)) != 0) {
                out |= 1L << b;
            }
        }
        return out;
    }

    private static void checkFifoVictims(RqLockRig rig, List<Integer> victims, List<Integer> returnValues) {
        StepProperty p = rig.step("fifo-entry");
        List<int[]> seen = new ArrayList<>();
        for (RqLockRig.Step st : returns(rig)) {
            int after = rig.held(st.to(), st.actor());
            for (int a = 0; a < rig.lay.n; a++) {
                int l = rig.lay.waitsFor(st.from(), a);
                if (a == st.actor() || l < 0 || (after & (1 << l)) == 0) {
                    continue;
                }
                seen.add(new int[] {a, rig.returnValue(st)});
                long[] with = st.from().clone();
                rig.lay.fifoMask[st.actor()].set(with, 1L << a);
                long[] without = st.from().clone();
                rig.lay.fifoMask[st.actor()].set(without, 0);
                long[] others = st.from().clone();
                rig.lay.fifoMask[st.actor()].set(others, ((1L << rig.lay.n) - 1) & ~waitingForHeld(rig, st.from(), after));
                assertThat(p.holds(with, st.actor(), st.action(), st.to())).as("CPU %d was waiting at entry", a).isFalse();
                assertThat(p.holds(without, st.actor(), st.action(), st.to())).as("nobody was waiting at entry").isTrue();
                assertThat(p.holds(others, st.actor(), st.action(), st.to())).as("only CPUs that wait for other locks were waiting at entry").isTrue();
            }
        }
        assertThat(seen).extracting(x -> x[0]).containsAll(victims);
        assertThat(seen).extracting(x -> x[1]).containsAll(returnValues);
    }

    @Test
    void fifoVictimIsACpuThatWasWaitingAtEntryForTheLockTheReturnerHolds() {
        checkFifoVictims(new RqLockRig(new DoubleLockBalanceV2627(), "tas", Set.of("fifo-entry")), List.of(1), List.of(0));
    }

    @Test
    void fifoVictimOfTheFairBodyMayBeEitherCpu() {
        checkFifoVictims(new RqLockRig(new DoubleLockBalanceV2628(), "tas", Set.of("fifo-entry")), List.of(0, 1),
                List.of(1));
    }

    /** Drops this_rq, then takes busiest and this_rq in that order, whatever their order: CPUs wait for either lock. */
    static final class BusiestFirst implements DoubleLockBalance {
        @Override
        public int doubleLockBalance(RqLocks k, int thisRq, int busiest) {
            k.spinUnlock(thisRq);
            k.spinLock(busiest);
            k.spinLock(thisRq);
            return 1;
        }

        @Override
        public void doubleUnlockBalance(RqLocks k, int thisRq, int busiest) {
            k.spinUnlock(busiest);
        }
    }

    @Test
    void aCpuWaitingAtEntryIsAFifoVictimOnlyIfTheReturnerHoldsTheLockItWaitsFor() {
        List<Integer> victimLocks = new ArrayList<>();
        int spared = 0;
        for (DoubleLockBalance impl : List.of(new BusiestFirst(), new KeepsOnlyThis())) {
            RqLockRig rig = new RqLockRig(impl, "tas", Set.of("fifo-entry"));
            StepProperty p = rig.step("fifo-entry");
            for (RqLockRig.Step st : returns(rig)) {
                int after = rig.held(st.to(), st.actor());
                for (int a = 0; a < rig.lay.n; a++) {
                    int l = rig.lay.waitsFor(st.from(), a);
                    if (a == st.actor() || l < 0) {
                        continue;
                    }
                    long[] with = st.from().clone();
                    rig.lay.fifoMask[st.actor()].set(with, 1L << a);
                    boolean victim = (after & (1 << l)) != 0;
                    assertThat(p.holds(with, st.actor(), st.action(), st.to())).as("CPU %d waits for rq%d", a, l).isEqualTo(!victim);
                    if (victim) {
                        victimLocks.add(l);
                    } else {
                        spared++;
                    }
                }
            }
        }
        assertThat(victimLocks).contains(0, 1);
        assertThat(spared).isPositive();
    }
}
