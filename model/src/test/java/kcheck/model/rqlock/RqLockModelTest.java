package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** What the rq-lock model hands the engine besides steps: initial state, reductions, canonical form, actors, decoding. */
class RqLockModelTest {

    /** The caller takes this_rq with a trylock first, so a CPU starts at the spinlock's trylock pc, not at pc 0. */
    static final class TrylockCaller extends DoubleLockBalanceV2628 {
        @Override
        public void callerLock(RqLocks k, int thisRq) {
            if (!k.spinTrylock(thisRq)) {
                k.spinLock(thisRq);
            }
        }
    }

    @Test
    void theInitialStatePutsEveryCpuAtTheSpinlockEntryOfItsFirstInstruction() {
        RqLockRig rig = new RqLockRig(new TrylockCaller(), "tas", Set.of("mutual-exclusion"));
        long[] expected = new long[rig.lay.width];
        rig.steps.initial(expected);
        assertThat(rig.lay.sub[0].getInt(expected)).isEqualTo(TasSpinlock.TRY);
        List<long[]> got = new ArrayList<>();
        rig.model().initial(s -> got.add(s.clone()));
        assertThat(got).hasSize(1);
        assertThat(got.get(0)).containsExactly(expected);
    }

    @Test
    void reductionsNameTheSpinlocksOwnReductionOnlyWhenItHasOne() {
        RqLockModel ticket = new RqLockRig(new DoubleLockBalanceV2628(), "ticket", Set.of("mutual-exclusion")).model();
        RqLockModel tas = new RqLockRig(new DoubleLockBalanceV2628(), "tas", Set.of("mutual-exclusion")).model();
        String ticketReduction = new TicketSpinlock().reduction();
        assertThat(ticketReduction).isNotNull();
        assertThat(new TasSpinlock().reduction()).isNull();
        assertThat(ticket.reductions()).hasSize(2).first().isEqualTo(ticketReduction);
        assertThat(ticket.reductions().get(1)).startsWith("partial-order");
        assertThat(tas.reductions()).hasSize(1).allMatch(r -> r.startsWith("partial-order"));
        assertThat(tas.partialOrder()).isTrue();
    }

    @Test
    void onlyASpinlockWithARetryLoopMakesTheModelCyclic() {
        assertThat(new RqLockRig(new DoubleLockBalanceV2628(), "tas", Set.of("mutual-exclusion")).model().acyclic()).isTrue();
        assertThat(new RqLockRig(new DoubleLockBalanceV612(), "qspinlock-virt", Set.of("mutual-exclusion")).model().acyclic())
                .isFalse();
    }

    @Test
    void theActorsAreTheCpus() {
        assertThat(new RqLockRig(new DoubleLockBalanceV2628(), "tas", Set.of("mutual-exclusion"), "cpus", "3").model().actors())
                .containsExactly("CPU 0", "CPU 1", "CPU 2");
    }

    @Test
    void canonicalizeIsTheSpinlocksCanonicalForm() {
        RqLockRig rig = new RqLockRig(new DoubleLockBalanceV2628(), "ticket", Set.of("mutual-exclusion"));
        RqLockModel model = rig.model();
        int changed = 0;
        for (RqLockRig.Step st : rig.reachable()) {
            long[] expected = st.to().clone();
            rig.steps.canonicalize(expected);
            long[] got = st.to().clone();
            model.canonicalize(got);
            assertThat(got).containsExactly(expected);
            changed += java.util.Arrays.equals(expected, st.to()) ? 0 : 1;
        }
        assertThat(changed).isPositive();
    }

    @Test
    void decodeShowsWhatEachCpuHoldsAndWhoWasWaitingAtEntry() {
        RqLockRig rig = new RqLockRig(new DoubleLockBalanceV2628(), "tas", Set.of("fifo-entry"), "cpus", "3");
        long[] s = new long[rig.lay.width];
        rig.steps.initial(s);
        /* a place of CPU 2 where it holds two rq locks */
        int pc = 0;
        while (Integer.bitCount(rig.prog.held[rig.prog.base[2] + pc]) < 2) {
            pc++;
        }
        rig.lay.pc[2].set(s, pc);
        int held = rig.prog.held[rig.prog.base[2] + pc];
        rig.lay.fifoMask[2].set(s, 0b011);
        Map<String, String> fields = new HashMap<>();
        rig.model().decode(s, (actor, name, value) -> fields.put(name, value));
        StringBuilder holds = new StringBuilder("{");
        for (int l = 0; l < 3; l++) {
            if ((held & (1 << l)) != 0) {
                holds.append(holds.length() > 1 ? ", " : "").append("rq").append(l);
            }
        }
        assertThat(fields).containsEntry("cpu2.holds", holds + "}").containsEntry("cpu0.holds", "{}")
                .containsEntry("cpu2.waiting-at-entry", "{cpu0, cpu1}").containsEntry("cpu0.waiting-at-entry", "{}");
    }

    @Test
    void locksListTheHoldersOfEachRqLock() {
        RqLockRig rig = new RqLockRig(new DoubleLockBalanceV2628(), "tas", Set.of("mutual-exclusion"));
        long[] s = new long[rig.lay.width];
        rig.steps.initial(s);
        int pc = 0;
        while (rig.prog.held[rig.prog.base[1] + pc] != 0b10) {
            pc++;
        }
        rig.lay.pc[1].set(s, pc);
        Map<String, int[]> holders = new HashMap<>();
        rig.model().locks(s, (name, h, waiters, ordered) -> holders.put(name, h));
        assertThat(holders).hasSize(2);
        assertThat(holders.values()).anySatisfy(h -> assertThat(h).containsExactly(1));
    }

    @Test
    void starvationFreeRunsForEverWithOneInitialStatePerWatchedCpu() {
        RqLockRig rig = new RqLockRig(new DoubleLockBalanceV2628(), "tas", Set.of("starvation-free"), "cpus", "3");
        List<long[]> got = new ArrayList<>();
        rig.model().initial(s -> got.add(s.clone()));
        assertThat(got).extracting(s -> rig.lay.victim.getInt(s)).containsExactly(0, 1, 2);
        assertThat(rig.model().acyclic()).isFalse();
        assertThat(rig.model().rank(got.get(0))).isEqualTo(-1);
        assertThat(rig.reachable()).noneMatch(st -> rig.model().isFinal(st.to()));
    }

    @Test
    void aSpinStepChangesNothingAndExistsOnlyWhileAnotherCpuCanMove() {
        RqLockRig rig = new RqLockRig(new DoubleLockBalanceV2628(), "tas", Set.of("starvation-free"));
        int spins = 0;
        for (RqLockRig.Step st : rig.reachable()) {
            if (rig.steps.isSpin(st.actor(), st.action())) {
                spins++;
                assertThat(st.to()).containsExactly(st.from());
                List<Integer> movers = new ArrayList<>();
                rig.steps.successors(st.from(), (a, act, nx) -> {
                    if (!rig.steps.isSpin(a, act)) {
                        movers.add(a);
                    }
                });
                assertThat(movers).isNotEmpty().doesNotContain(st.actor());
            }
        }
        assertThat(spins).isPositive();
    }

    @Test
    void withoutStarvationFreeThereAreNoSpinSteps() {
        RqLockRig rig = new RqLockRig(new DoubleLockBalanceV2628(), "tas", Set.of("mutual-exclusion"));
        assertThat(rig.reachable()).noneMatch(st -> rig.steps.isSpin(st.actor(), st.action()));
    }
}
