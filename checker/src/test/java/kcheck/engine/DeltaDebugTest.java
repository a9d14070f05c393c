package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class DeltaDebugTest {

    @Test
    void shrinksToTheTwoElementsThatTogetherFail() {
        List<Integer> in = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            in.add(i);
        }
        List<Integer> out = DeltaDebug.minimise(in, l -> l.contains(17) && l.contains(83));
        assertThat(out).containsExactly(17, 83);
    }

    @Test
    void resultIsOneMinimalAndKeepsOrder() {
        List<Integer> in = List.of(5, 3, 9, 3, 1, 7, 3);
        List<Integer> out = DeltaDebug.minimise(in, l -> l.stream().filter(x -> x == 3).count() >= 2);
        assertThat(out).containsExactly(3, 3);
    }
}
