package kcheck.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TraceIOTest {

    @Test
    void roundTripsAllFields() {
        Trace t = SampleTraces.lasso();
        assertThat(TraceIO.parse("x", TraceIO.toJson(t))).isEqualTo(t);
    }

    @Test
    void malformedTruncatedFutureAndIncompleteTracesAreRefusedWithOneLine() {
        String good = TraceIO.toJson(SampleTraces.fifo());
        assertThatThrownBy(() -> TraceIO.parse("a.json", "{nope")).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith("a.json: malformed JSON");
        assertThatThrownBy(() -> TraceIO.parse("b.json", good.substring(0, good.length() / 2)))
                .hasMessageStartingWith("b.json: truncated JSON");
        assertThatThrownBy(() -> TraceIO.parse("c.json", good.replace("\"format\" : 1", "\"format\" : 2")))
                .hasMessageContaining("newer than this kcheck reads");
        assertThatThrownBy(() -> TraceIO.parse("d.json", good.replace("\"model\" : \"rq-lock\",", "")))
                .hasMessageContaining("missing \"model\"");
        assertThatThrownBy(() -> TraceIO.parse("e.json", good.replace("\"actor\" : 1,", "\"actor\" : 9,")))
                .hasMessageContaining("names actor 9");
        assertThatThrownBy(() -> TraceIO.parse("f.json", "[1,2]")).hasMessageContaining("not a kcheck trace");
        assertThatThrownBy(() -> TraceIO.parse("g.json", good.replace("\"violationStep\" : 3", "\"violationStep\" : \"x\"")))
                .hasMessageContaining("bad field");
        for (String bad : new String[] {"{nope", "[1,2]"}) {
            try {
                TraceIO.parse("h.json", bad);
            } catch (TraceFormatException e) {
                assertThat(e.getMessage()).doesNotContain("\n");
            }
        }
    }
}
