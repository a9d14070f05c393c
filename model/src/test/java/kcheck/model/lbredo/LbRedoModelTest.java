package kcheck.model.lbredo;

import static kcheck.model.lbredo.Explore.params;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.model.Model;

/** What the lb-redo model says about itself: identity, actors, final states, decoding and reductions. */
class LbRedoModelTest {
    private static Model model(String scenario) {
        return Explore.model("test-variant", new LoadBalanceV513(), params("scenario", scenario), Set.of("terminates"));
    }

    private static long[] initial(Model m) {
        List<long[]> out = new ArrayList<>();
        m.initial(s -> out.add(s.clone()));
        return out.get(0);
    }

    @Test
    void theModelNamesItselfItsVariantAndItsParameters() {
        Model m = model(LbDomain.RACE);
        assertThat(m.name()).isEqualTo("lb-redo");
        assertThat(m.variant()).isEqualTo("test-variant");
        assertThat(m.params().get("scenario")).isEqualTo(LbDomain.RACE);
    }

    @Test
    void otherCpusAreAnActorOnlyWhenTheyPull() {
        assertThat(model(LbDomain.RACE).actors()).containsExactly("CPU 0 (newly idle)", "other CPUs");
        assertThat(model(LbDomain.PINNED).actors()).containsExactly("CPU 0 (newly idle)");
    }

    @Test
    void onlyTheReturnedCallIsFinal() {
        Model m = model(LbDomain.RACE);
        long[] s = initial(m);
        assertThat(m.isFinal(s)).isFalse();
        // the same layout as the model's: same domain, same monitors
        LbRedoLayout l = new LbRedoLayout(LbRedoFactory.domain(m.params()), LbRedoMonitors.of(Set.of("terminates")), "v");
        l.pc.set(s, LbRedoLayout.DONE);
        assertThat(m.isFinal(s)).isTrue();
    }

    @Test
    void decodeNamesTheCallsPosition() {
        Model m = model(LbDomain.RACE);
        List<String> fields = new ArrayList<>();
        m.decode(initial(m), (actor, name, value) -> fields.add(name + "=" + value));
        assertThat(fields).contains("lb.at=entry");
    }

    @Test
    void cpuSymmetryIsListedOnlyWhenTheDomainHasInterchangeableCpus() {
        assertThat(model(LbDomain.RACE).reductions()).singleElement().asString().startsWith("cpu-symmetry");
        LbRedoFactory f = new LbRedoFactory();
        long all = 0xfL;
        Model custom = f.create("v", new LoadBalanceV513(),
                LbDomain.custom(4, new int[] {0, 0, 1, 1}, all, new long[][] {null, null, {all, all}, {all}}, 0), Set.of("terminates"));
        assertThat(custom.reductions()).isEmpty();
    }
}
