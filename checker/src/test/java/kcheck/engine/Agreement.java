package kcheck.engine;

import static org.assertj.core.api.Assertions.assertThat;

/** What a search elsewhere (partitioned, on disk) must share with the one-machine search. */
public final class Agreement {
    private Agreement() {
    }

    /**
     * Same verdicts, metric maxima and counterexample lengths, and (when both searches were
     * exhaustive) the same distinct-state count and depth.
     */
    public static void assertSame(RunResult one, RunResult other) {
        assertThat(other.stats().complete()).as("exhaustive").isEqualTo(one.stats().complete());
        if (one.stats().complete()) {
            assertThat(other.stats().states()).as("distinct states").isEqualTo(one.stats().states());
            assertThat(other.stats().depth()).as("depth").isEqualTo(one.stats().depth());
        }
        for (PropertyResult p : one.properties()) {
            PropertyResult q = other.property(p.id());
            assertThat(q.verdict()).as(p.id()).isEqualTo(p.verdict());
            if (p.metric() != null) {
                assertThat(q.metric().max()).as(p.id() + " maxima").isEqualTo(p.metric().max());
            }
            if (p.trace() != null) {
                assertThat(q.trace()).as(p.id() + " trace").isNotNull();
                if (p.trace().loopStart() < 0) {
                    assertThat(q.trace().length()).as(p.id() + " shortest trace").isEqualTo(p.trace().length());
                }
            }
        }
    }
}
