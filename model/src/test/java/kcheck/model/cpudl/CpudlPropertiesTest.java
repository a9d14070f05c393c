package kcheck.model.cpudl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.model.Invariant;
import kcheck.model.Property;
import kcheck.model.StepProperty;

/** The cpudl monitors on packed states: the find steps they decode and the per-thread decoding cache. */
class CpudlPropertiesTest {
    private static final CpudlFactory F = new CpudlFactory();

    private static CpudlModel model(Map<String, String> params, String... props) {
        return (CpudlModel) F.create("after", F.params(params), Set.of(props));
    }

    private static Property property(CpudlModel m, String id) {
        return m.properties().stream().filter(p -> p.id().equals(id)).findFirst().orElseThrow();
    }

    private static long[] initial(CpudlModel m) {
        List<long[]> out = new ArrayList<>();
        m.initial(s -> out.add(s.clone()));
        return out.get(0);
    }

    @Test
    void theFirstFindStepIsChecked() {
        // step findBase: deadline 0, every CPU allowed, answer -1: wrong while every CPU is free
        CpudlModel m = model(Map.of("cpus", "2"), "find-sound");
        long[] s = initial(m);
        assertThat(((StepProperty) property(m, "find-sound")).holds(s, 0, m.findBase, s)).isFalse();
        assertThat(((StepProperty) property(m, "find-sound")).holds(s, 0, m.findBase + 1, s)).as("answer CPU 0").isTrue();
    }

    @Test
    void aV4FindWithAsymmetricCapacitiesIsDecodedPerTaskCpuAndDensity() {
        CpudlModel m = model(Map.of("cpus", "2", "capacity", "big-little"), "find-sound");
        long[] s = initial(m);
        int affOnly1 = 2;
        long task = (((long) 0 * m.affCount + affOnly1) * m.densities.length + 0) * m.taskCpus + 1;
        StepProperty p = (StepProperty) property(m, "find-sound");
        assertThat(p.holds(s, 0, (int) (m.findBase + task * m.codeCount + 2), s)).as("CPU 1, the only allowed CPU").isTrue();
        assertThat(p.holds(s, 0, (int) (m.findBase + task * m.codeCount + 1), s)).as("CPU 0 is not allowed").isFalse();
    }

    @Test
    void anAllZeroStateIsDecodedNotTakenFromTheCache() {
        CpudlModel m = model(Map.of("cpus", "2"), "free-cpus", "root-is-latest");
        Invariant free = (Invariant) property(m, "free-cpus");
        long[] zero = new long[m.width()];
        assertThat(free.holds(zero)).as("first state decoded: no CPU free, none in the heap").isFalse();
        CpudlModel m2 = model(Map.of("cpus", "2"), "free-cpus", "root-is-latest");
        Invariant free2 = (Invariant) property(m2, "free-cpus");
        assertThat(free2.holds(initial(m2))).isTrue();
        assertThat(free2.holds(zero)).as("after another state").isFalse();
    }

    @Test
    void theReferenceMapOfAnAllZeroStateIsDecodedNotTakenFromTheCache() {
        CpudlModel m = model(Map.of("cpus", "2"), "root-is-latest");
        Invariant root = (Invariant) property(m, "root-is-latest");
        List<long[]> next = new ArrayList<>();
        m.successors(initial(m), (a, action, t) -> {
            if (action == 0) {
                next.add(t.clone());
            }
        });
        assertThat(root.holds(next.get(0))).as("cpudl_set(0, ...)").isTrue();
        assertThat(root.holds(new long[m.width()])).as("empty heap, empty map").isTrue();
    }
}
