package kcheck.model.rwsem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.StateKey;

/**
 * The canonical form may only pick, for each state, a symmetric image of it (readers sorted,
 * interchangeable tasks renamed with every pointer to them): such an image is reachable whenever
 * the state is. So over the whole unreduced state graph, every state's canonical form must be a
 * reachable state too, and canonical forms must be fixed points. A renaming that forgets one
 * pointer (the handoff waiter, the owner) makes a state that no schedule reaches, and an unsound
 * merge: PIT found such mutants surviving every other test, {@code ReductionsAgreeTest} included.
 */
class RwsemCanonicalFormTest {

    @ParameterizedTest(name = "{0} readers={1} writers={2} rt={3} rounds={4} wakeups={5}")
    @CsvSource({
        "v6.12, 0, 2, all, 0, atomic",
        "v6.12, 2, 1, none, 0, atomic",
        "after, 2, 1, none, 0, atomic",
        "after, 1, 2, none, 0, atomic",
        "after, 2, 1, none, 0, wake-q",
        "after, 1, 2, none, 1, spurious",
        "v6.12, 2, 1, none, 1, wake-q",
    })
    void everyCanonicalFormIsAReachableStateAndItsOwnCanonicalForm(String variant, String readers, String writers, String rt,
            String rounds, String wakeups) {
        ModelFactory f = Models.get("rwsem-owner");
        Model m = f.create(variant, f.params(Map.of("readers", readers, "writers", writers, "rt", rt, "rounds", rounds,
                "preempt", "writers", "wakeups", wakeups)), Set.of("exclusion", "owner-sound", "deadlock-free", "no-lost-wakeup"));
        assertThat(m.reductions()).as("a configuration with a symmetry to check").isNotEmpty();
        Set<StateKey> seen = new HashSet<>();
        ArrayDeque<long[]> queue = new ArrayDeque<>();
        m.initial(s -> {
            if (seen.add(new StateKey(s))) {
                queue.add(s.clone());
            }
        });
        while (!queue.isEmpty()) {
            long[] s = queue.poll();
            m.successors(s, (actor, action, next) -> {
                if (seen.add(new StateKey(next))) {
                    queue.add(next.clone());
                }
            });
            assertThat(seen.size()).as("state graph small enough for this test").isLessThan(300_000);
        }
        int merged = 0;
        for (StateKey k : seen) {
            long[] c = k.s().clone();
            m.canonicalize(c);
            assertThat(seen.contains(new StateKey(c))).as("canonical form of %s is reachable", k).isTrue();
            long[] cc = c.clone();
            m.canonicalize(cc);
            assertThat(cc).as("canonical form of a canonical form").containsExactly(c);
            if (!Arrays.equals(c, k.s())) {
                merged++;
            }
        }
        assertThat(merged).as("states the canonical form moves").isPositive();
    }

    @org.junit.jupiter.api.Test
    void theHandoffWaiterKeepsItsPlaceInItsProgramWhenTheCanonicalFormSwapsTheWriters() {
        RwsemRig rig = new RwsemRig("v6.12", Set.of("handoff"), "readers", "0", "writers", "2", "rt", "all", "rounds", "0");
        assertThat(rig.model.reductions()).as("writer symmetry").isNotEmpty();
        int a = rig.l.prog[0].root;
        int b = rig.nodeOf(0, Op.OSQ_LOCK);
        assertThat(rig.l.prog[0].op[a]).isNotEqualTo(rig.l.prog[0].op[b]);
        int swapped = 0;
        for (int[] pcs : new int[][] {{a, b}, {b, a}}) {
            for (int waiter = 0; waiter < 2; waiter++) {
                long[] s = rig.initial();
                rig.l.pc[0].set(s, pcs[0]);
                rig.l.pc[1].set(s, pcs[1]);
                rig.l.handoffFor.set(s, waiter + 1);
                long[] c = s.clone();
                rig.model.canonicalize(c);
                int w = (int) rig.l.handoffFor.get(c) - 1;
                assertThat(w).as("the handoff waiter after renaming").isBetween(0, 1);
                assertThat(rig.l.prog[w].op[rig.l.pc[w].getInt(c)]).as("the waiter's place in its program")
                        .isEqualTo(rig.l.prog[waiter].op[pcs[waiter]]);
                if (!Arrays.equals(c, s)) {
                    swapped++;
                }
            }
        }
        assertThat(swapped).as("states the canonical form renamed").isPositive();
    }
}
