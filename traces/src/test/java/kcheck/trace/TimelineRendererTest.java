package kcheck.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TimelineRendererTest {

    @Test
    void eachStepSitsInItsActorsColumnAndTheViolationIsMarked() {
        String text = TimelineRenderer.render(SampleTraces.fifo());
        assertThat(text).contains("| CPU 0").contains("| CPU 1");
        String unlock = text.lines().filter(l -> l.contains("spin_unlock(rq[1])")).findFirst().orElseThrow();
        assertThat(unlock.indexOf("spin_unlock")).as("CPU 1's step is in the second column")
                .isGreaterThan(text.lines().filter(l -> l.contains("| CPU 1")).findFirst().orElseThrow().indexOf("| CPU 1"));
        assertThat(text).contains("=>  3").contains("*** fifo-entry VIOLATED").contains("VIOLATION of fifo-entry at step 3");
    }

    @Test
    void lassoCycleIsBracketed() {
        String text = TimelineRenderer.render(SampleTraces.lasso());
        assertThat(text).contains("cycle: steps 2..3 repeat forever").contains("back to the state after step 1");
    }

    @Test
    void longTextWrapsWithinTheColumn() {
        assertThat(TimelineRenderer.wrap("a".repeat(30) + " " + "b".repeat(30), 40)).hasSize(2)
                .allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(40));
    }
}
