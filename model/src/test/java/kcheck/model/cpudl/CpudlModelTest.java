package kcheck.model.cpudl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import kcheck.model.ModelInputException;

/** What the cpudl model offers and says about itself: affinities, find steps, limits, identity and decoding. */
class CpudlModelTest {
    private static final CpudlFactory F = new CpudlFactory();

    private static CpudlModel model(String variant, Map<String, String> params, String... props) {
        return (CpudlModel) F.create(variant, F.params(params), Set.of(props));
    }

    private static long[] masks(CpudlModel m) {
        return Arrays.stream(m.aff).mapToLong(Cpumask::low64).toArray();
    }

    private static long[] initial(CpudlModel m) {
        List<long[]> out = new ArrayList<>();
        m.initial(s -> out.add(s.clone()));
        assertThat(out).hasSize(1);
        return out.get(0);
    }

    @Test
    void findIsAskedForAllCpusEachSingleCpuAndAllButOne() {
        assertThat(masks(model("after", Map.of("cpus", "1"), "find-sound"))).containsExactly(0b1);
        assertThat(masks(model("after", Map.of("cpus", "2"), "find-sound"))).containsExactly(0b11, 0b01, 0b10);
        assertThat(masks(model("after", Map.of("cpus", "3"), "find-sound")))
                .containsExactly(0b111, 0b001, 0b010, 0b100, 0b110, 0b101, 0b011);
    }

    @Test
    void symmetricCapacitiesAskFindOncePerDeadlineAndAffinity() {
        CpudlModel m = model("after", Map.of("cpus", "2"), "find-sound");
        long[] finds = {0};
        m.successors(initial(m), (actor, action, next) -> finds[0] += action >= m.findBase ? 1 : 0);
        assertThat(finds[0]).isEqualTo((long) m.dn * m.affCount);
    }

    @Test
    void aMaskVariantWithFindStepsIsRefusedWhereItsStepNumbersDoNotFitNamingTheMaximum() {
        assertThatThrownBy(() -> model("v6.12", Map.of("cpus", "24"), "find-sound")).isInstanceOf(ModelInputException.class)
                .hasMessage("cpudl: with find-sound or find-capacity, a cpudl_find step is numbered by its task and its answer (the "
                        + "return value and later_mask, 2^(cpus+1) answers) within 2^31 step numbers: variant v6.12 with keys=edge "
                        + "capacity=sym hotplug=off fits at most 21 CPUs, got 24; use 21 or fewer, or leave find-sound and "
                        + "find-capacity out");
        assertThat(model("v6.12", Map.of("cpus", "21"), "find-sound").n).as("the maximum it names fits").isEqualTo(21);
        assertThatThrownBy(() -> model("v6.12", Map.of("cpus", "63"), "find-sound")).isInstanceOf(ModelInputException.class);
        assertThat(model("v6.12", Map.of("cpus", "63"), "heap-order").n).as("no find steps, no limit").isEqualTo(63);
    }

    @Test
    void asymmetricCapacitiesMultiplyTheFindTasksByDensityAndTaskCpu() {
        // 10 deadlines x 37 affinities x 2^19 answers fit in 2^31 step numbers; x 2 densities x 18 task CPUs do not
        assertThat(model("v6.12", Map.of("cpus", "18"), "find-sound").n).isEqualTo(18);
        assertThatThrownBy(() -> model("v6.12", Map.of("cpus", "18", "capacity", "big-little"), "find-sound"))
                .isInstanceOf(ModelInputException.class).hasMessageContaining("2^31 step numbers").hasMessageContaining("at most 16 CPUs");
        assertThat(model("v6.12", Map.of("cpus", "16", "capacity", "big-little"), "find-sound").n).as("the maximum it names fits")
                .isEqualTo(16);
    }

    @ParameterizedTest(name = "{0} CPUs")
    @ValueSource(ints = {52, 58, 60, 61, 62})
    void stepNumbersThatOverflowALongAreRefusedToo(int cpus) {
        assertThatThrownBy(() -> model("v6.12", Map.of("cpus", Integer.toString(cpus)), "find-sound"))
                .isInstanceOf(ModelInputException.class).hasMessageContaining("2^31 step numbers");
    }

    @Test
    void aCpuFindOnThousandsOfCpusWithEveryCapacityIsRefusedNamingTheMaximum() {
        assertThatThrownBy(() -> model("after", Map.of("cpus", "4096", "capacity", "any"), "find-sound"))
                .isInstanceOf(ModelInputException.class).hasMessageContaining("(a CPU)").hasMessageContaining("got 4096");
    }

    @Test
    void theModelNamesItselfItsVariantItsParametersAndItsImplementation() {
        CpudlModel m = model("after", Map.of("cpus", "2"), "heap-order");
        assertThat(m.name()).isEqualTo("cpudl");
        assertThat(m.variant()).isEqualTo("after");
        assertThat(m.params().integer("cpus")).isEqualTo(2);
        assertThat(m.implementation()).isInstanceOf(CpudlV49.class);
        assertThat(m.actors()).containsExactly("caller");
    }

    @Test
    void aSequenceIsFinalAtTheDepthBound() {
        CpudlModel m = model("after", Map.of("cpus", "2", "depth", "1"), "heap-order");
        long[] s = initial(m);
        assertThat(m.isFinal(s)).isFalse();
        List<long[]> next = new ArrayList<>();
        m.successors(s, (actor, action, t) -> next.add(t.clone()));
        assertThat(next).isNotEmpty().allMatch(m::isFinal);
    }

    @Test
    void heapOfDecodesTheStateTheCallsLeave() {
        CpudlModel m = model("after", Map.of("cpus", "2"), "heap-order");
        long[] s = initial(m);
        assertThat(m.heapOf(s).sameHeapAs(Cpudl.init(2))).isTrue();
        assertThat(m.heapOf(s).freeCpus.low64()).isEqualTo(0b11);
        List<long[]> set0 = new ArrayList<>();
        m.successors(s, (actor, action, t) -> {
            if (action == 0) {
                set0.add(t.clone());
            }
        });
        Cpudl after = m.heapOf(set0.get(0));
        assertThat(after.size).as("cpudl_set(0, ...)").isEqualTo(1);
        assertThat(after.idx(0)).isZero();
        assertThat(after.freeCpus.low64()).isEqualTo(0b10);
        List<Integer> kinds = new ArrayList<>();
        m.calls(s, (kind, cpu, dl, flag, task) -> kinds.add(kind));
        assertThat(kinds).contains(0, 1);
        List<String> fields = new ArrayList<>();
        m.decode(s, (actor, name, value) -> fields.add(name));
        assertThat(fields).isNotEmpty();
    }
}
