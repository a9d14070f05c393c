package kcheck.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * The trace reader must refuse anything that is not a valid trace with one
 * {@link TraceFormatException} line, never another exception, and whatever it accepts must
 * render in every format. {@code mvn verify} replays the
 * committed inputs (TraceReaderFuzzTestInputs/); {@code mvn verify -Pfuzz} fuzzes.
 */
class TraceReaderFuzzTest {
    private static final String VALID = TraceIO.toJson(SampleTraces.lasso());

    @FuzzTest(maxDuration = "60s")
    void arbitraryTextIsReadOrRefusedWithOneLine(FuzzedDataProvider data) {
        readOrRefuse(data.consumeRemainingAsString());
    }

    @FuzzTest(maxDuration = "60s")
    void corruptedTracesAreReadOrRefusedWithOneLine(FuzzedDataProvider data) {
        int at = data.consumeInt(0, VALID.length());
        int cut = data.consumeInt(0, VALID.length() - at);
        String insert = data.consumeRemainingAsString();
        readOrRefuse(VALID.substring(0, at) + insert + VALID.substring(at + cut));
    }

    private static void readOrRefuse(String text) {
        try {
            Trace t = TraceIO.parse("fuzz.json", text);
            assertThat(t.violationStep()).isBetween(0, t.steps().size());
            assertThat(TimelineRenderer.render(t)).isNotEmpty();
            assertThat(HtmlRenderer.render(t)).contains("application/json");
            assertThat(DotRenderer.render(t)).startsWith("digraph");
        } catch (TraceFormatException e) {
            assertThat(e.getMessage()).doesNotContain("\n").startsWith("fuzz.json: ");
        }
    }
}
