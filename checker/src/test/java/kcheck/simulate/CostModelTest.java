package kcheck.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kcheck.model.ModelInputException;
import kcheck.model.SimulationProfile.Cost;

class CostModelTest {
    private static final List<Cost> COSTS = List.of(Cost.ns("cs", 1000, "exp", "a source"), Cost.number("sockets", 2, "sockets", "s"));

    @Test
    void aCostFileOverridesValuesAndDistributionsAndSaysWhere(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("c.cost");
        Files.writeString(f, "# comment\ncs = 250 fixed   # trailing comment\n\n");
        CostModel m = CostModel.resolve("x", COSTS, f, List.of("sockets=4"));
        assertThat(m.value(m.index("cs"))).isEqualTo(250);
        assertThat(m.sample(m.index("cs"), new SplittableRandom(1))).isEqualTo(250);
        assertThat(m.value(m.index("sockets"))).isEqualTo(4);
        assertThat(m.overrides()).containsExactly("cs = 250 fixed (" + f + ":2)", "sockets = 4 (--set-cost)");
    }

    @Test
    void badSettingsAreOneLineInputErrors(@TempDir Path dir) {
        assertThatThrownBy(() -> CostModel.resolve("x", COSTS, null, List.of("nope = 1")))
                .isInstanceOf(ModelInputException.class).hasMessageContaining("x has no cost 'nope' (known: cs, sockets)");
        assertThatThrownBy(() -> CostModel.resolve("x", COSTS, null, List.of("cs = -1")))
                .isInstanceOf(ModelInputException.class).hasMessageContaining("finite number >= 0");
        assertThatThrownBy(() -> CostModel.resolve("x", COSTS, null, List.of("cs = 1 gamma")))
                .isInstanceOf(ModelInputException.class).hasMessageContaining("exp, fixed or uniform");
        assertThatThrownBy(() -> CostModel.resolve("x", COSTS, null, List.of("sockets = 1 exp")))
                .isInstanceOf(ModelInputException.class).hasMessageContaining("plain number");
        assertThatThrownBy(() -> CostModel.resolve("x", COSTS, dir.resolve("missing"), List.of()))
                .isInstanceOf(ModelInputException.class).hasMessageContaining("cannot read --cost");
    }

    @Test
    void samplesFollowTheirDistribution() {
        CostModel m = CostModel.resolve("x", COSTS, null, List.of());
        SplittableRandom r = new SplittableRandom(3);
        double sum = 0;
        double max = 0;
        for (int i = 0; i < 200_000; i++) {
            double v = m.sample(m.index("cs"), r);
            sum += v;
            max = Math.max(max, v);
        }
        assertThat(sum / 200_000).isCloseTo(1000, within(15.0));
        assertThat(max).as("exponential: a long tail").isGreaterThan(8000);
        CostModel u = CostModel.resolve("x", COSTS, null, List.of("cs = 1000 uniform"));
        for (int i = 0; i < 1000; i++) {
            assertThat(u.sample(0, r)).isBetween(500.0, 1500.0);
        }
    }
}
