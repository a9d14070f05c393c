package kcheck.verdicts;

import static kcheck.verdicts.Checks.params;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import kcheck.model.Model;

/**
 * A model that says its state graph is acyclic lets the partial-order reduction drop its cycle
 * proviso; if the claim were false, the reduction could ignore a CPU for ever and a verdict could
 * be wrong. Each claim is checked here against the graph itself (the canonical graph the engine
 * explores), by a depth-first search for a back edge. A lock with a retry loop (qspinlock's
 * cmpxchg loops, virt_spin_lock) does not claim it, which is always safe. The search itself is
 * shown to find cycles where there are some (rwsem's endless workload).
 */
class AcyclicClaimTest {

    @ParameterizedTest(name = "rq-lock {0}, {1}")
    @CsvSource({
        "before, cpus=3 rounds=2 lock=ticket, true",
        "after, cpus=3 rounds=2 lock=ticket, true",
        "after, cpus=3 lock=tas, true",
        "after, cpus=3 calls=2 preempt=n lock=ticket, true",
        "v6.12, cpus=3 lock=qspinlock, false",
        "v6.12, cpus=2 lock=qspinlock-virt, false"})
    void aModelClaimsAnAcyclicGraphOnlyWhenItHasOne(String variant, String kv, boolean claimed) {
        Model m = Checks.model("rq-lock", variant, params(kv.split("[ =]")), "mutual-exclusion");
        assertThat(m.acyclic()).as("claimed acyclic").isEqualTo(claimed);
        if (claimed) {
            assertThat(hasCycle(m)).as("state graph has a cycle").isFalse();
        }
    }

    @org.junit.jupiter.api.Test
    void theSearchFindsTheCycleOfAnEndlessWorkload() {
        Model m = Checks.model("rwsem-owner", "after", params("readers", "1", "writers", "1", "rounds", "0"), "exclusion");
        assertThat(m.acyclic()).isFalse();
        assertThat(hasCycle(m)).isTrue();
    }

    /** Iterative DFS: a successor on the current path is a back edge. */
    private static boolean hasCycle(Model m) {
        Map<Key, Boolean> onPath = new HashMap<>(); /* true: on the DFS path; false: finished */
        List<long[]> init = new ArrayList<>();
        m.initial(s -> init.add(canonical(m, s)));
        ArrayDeque<Frame> stack = new ArrayDeque<>();
        for (long[] s0 : init) {
            if (onPath.containsKey(new Key(s0))) {
                continue;
            }
            stack.push(new Frame(s0, successors(m, s0)));
            onPath.put(new Key(s0), true);
            while (!stack.isEmpty()) {
                Frame f = stack.peek();
                if (f.next == f.succ.size()) {
                    onPath.put(new Key(f.state), false);
                    stack.pop();
                    continue;
                }
                long[] t = f.succ.get(f.next++);
                Boolean c = onPath.get(new Key(t));
                if (c == null) {
                    onPath.put(new Key(t), true);
                    stack.push(new Frame(t, successors(m, t)));
                } else if (c) {
                    return true;
                }
                assertThat(onPath.size()).as("graph small enough for this test").isLessThan(3_000_000);
            }
        }
        return false;
    }

    private static List<long[]> successors(Model m, long[] s) {
        List<long[]> out = new ArrayList<>();
        m.successors(s, (actor, action, next) -> out.add(canonical(m, next)));
        return out;
    }

    private static long[] canonical(Model m, long[] s) {
        long[] c = s.clone();
        m.canonicalize(c);
        return c;
    }

    private static final class Frame {
        final long[] state;
        final List<long[]> succ;
        int next;

        Frame(long[] state, List<long[]> succ) {
            this.state = state;
            this.succ = succ;
        }
    }

    private record Key(long[] s) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(s, k.s);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(s);
        }
    }
}
