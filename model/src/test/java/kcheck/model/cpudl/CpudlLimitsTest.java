package kcheck.model.cpudl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.model.Model;
import kcheck.model.ModelLimitException;

/**
 * Each limit of {@link CpudlFactory#limits()}: a variant that crosses it gets a ModelLimitException saying which. What the
 * kernel would flag is a verdict instead: {@link CpudlFaultTest}.
 */
class CpudlLimitsTest {
    private static final CpudlFactory F = new CpudlFactory();

    /** Expands the initial state and every state one call later. */
    private static void explore(CpudlHeap impl, Map<String, String> params, String... props) {
        Model m = F.create("limit-test", impl, F.params(params), Set.of(props));
        List<long[]> states = new ArrayList<>();
        m.initial(s -> states.add(s.clone()));
        List<long[]> next = new ArrayList<>();
        for (long[] s : states) {
            m.successors(s, (a, action, t) -> next.add(t.clone()));
        }
        for (long[] s : next) {
            m.successors(s, (a, action, t) -> { });
        }
    }

    @Test
    void aDeadlineTheVariantWasNeverGivenIsOutsideThePackedDomain() {
        CpudlHeap v = new CpudlV49() {
            @Override
            public void set(Cpudl cp, int cpu, long dl) {
                super.set(cp, cpu, dl + 5);
            }
        };
        assertThatThrownBy(() -> explore(v, Map.of(), "heap-order")).isInstanceOf(ModelLimitException.class)
                .hasMessageStartingWith("cpudl packs heap deadlines as indices into the keys domain edge {0, 2^63")
                .hasMessageContaining("this variant stored 5 in elements[0].dl, a value it was never given");
    }

    @Test
    void aMaskFindMustReturnZeroOrOne() {
        CpudlHeap v = new CpudlV612() {
            @Override
            public int find(Cpudl cp, DlTask p, Cpumask laterMask) {
                return super.find(cp, p, laterMask) == 1 ? 2 : 0;
            }
        };
        assertThatThrownBy(() -> explore(v, Map.of(), "find-sound")).isInstanceOf(ModelLimitException.class)
                .hasMessage("cpudl expects a v4.15+ cpudl_find (findReturnsCpu() false) to return 0 or 1: this variant returned 2");
    }

    @Test
    void aMaskFindOnTooManyCpusCannotBeNumbered() {
        assertThatThrownBy(() -> F.create("v6.12", F.params(Map.of("cpus", "40")), Set.of("find-sound")))
                .isInstanceOf(kcheck.model.ModelInputException.class).hasMessageContaining("within 2^31 step numbers")
                .hasMessageContaining("fits at most");
        assertThat(F.create("v6.12", F.params(Map.of("cpus", "40")), Set.of("heap-order"))).isNotNull();
    }

    @Test
    void everyLimitIsListed() {
        assertThat(F.limits()).hasSize(2).allSatisfy(l -> assertThat(l).endsWith("."));
    }
}
