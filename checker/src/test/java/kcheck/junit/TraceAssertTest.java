package kcheck.junit;

import static kcheck.junit.KcheckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import kcheck.trace.Trace;
import kcheck.trace.TraceIO;

/**
 * TraceAssert keeps apart what a replay shows: a refusal on another variant is a fact about one
 * run; the regression proof also needs the property to hold there exhaustively; a trace refused
 * by its own variant is stale or edited, never "refused".
 */
class TraceAssertTest {
    static final Path CORPUS = Path.of("..").toAbsolutePath().normalize().resolve("traces/corpus");

    static Trace corpus(String name) {
        return TraceIO.read(CORPUS.resolve(name));
    }

    @Test
    void theFixOfTheUnfairDoubleLockBalanceIsARegressionProof() {
        Trace t = corpus("rq-lock-before-fifo-entry.json");
        assertThat(t).reproduces().isRegressionProofOn("after");
        assertThat(t).replaysOn("after").isRefused().divergesAt(6);
    }

    @Test
    void aRefusalIsNotAProofWhenAnotherRunStillViolates() {
        Trace t = corpus("lb-redo-before-all-pinned-sound.json");
        assertThat(t).replaysOn("rfc").isRefused();
        assertThatThrownBy(() -> assertThat(t).isRegressionProofOn("rfc")).hasMessageContaining("No regression proof")
                .hasMessageContaining("all-pinned-sound is VIOLATED on rfc at the trace's bounds");
    }

    @Test
    void aTraceRefusedByItsOwnVariantIsStaleOrEditedNotRefused() throws Exception {
        String text = Files.readString(CORPUS.resolve("rq-lock-before-fifo-entry.json"))
                .replace("\"spin_lock(rq[1]): take ticket\"", "\"spin_lock(rq[7]): take ticket\"");
        Trace edited = TraceIO.parse("edited.json", text);
        assertThatThrownBy(() -> assertThat(edited).reproduces()).hasMessageContaining("stale or edited")
                .hasMessageContaining("step 3 (CPU 1: spin_lock(rq[7]): take ticket) is not possible on variant before");
        assertThatThrownBy(() -> assertThat(edited).replaysOn("before").isRefused()).hasMessageContaining("stale or edited");
        assertThatThrownBy(() -> assertThat(edited).isRegressionProofOn("after")).hasMessageContaining("stale or edited");
        assertThatThrownBy(() -> assertThat(corpus("rq-lock-before-fifo-entry.json")).replaysOn("before").isRefused())
                .hasMessageContaining("always reproduces on its own variant");
    }
}
