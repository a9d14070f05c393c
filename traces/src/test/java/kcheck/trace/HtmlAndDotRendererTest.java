package kcheck.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HtmlAndDotRendererTest {

    @Test
    void htmlIsSelfContained() {
        String html = HtmlRenderer.render(SampleTraces.fifo());
        assertThat(html).startsWith("<!DOCTYPE html>").contains("application/json").contains("fifo-entry")
                .doesNotContain("src=\"http").doesNotContain("href=\"http").doesNotContain("<link").doesNotContain("@import");
        assertThat(html).contains("id=\"next\"").contains("id=\"prev\"").contains("ArrowRight");
    }

    @Test
    void htmlEscapesScriptEndTagsInsideTheEmbeddedTrace() {
        Trace t = SampleTraces.fifo();
        Trace evil = new Trace(t.format(), t.model(), t.variant(), t.params(), t.property(), t.kind(), t.verdict(),
                "</script><script>alert(1)</script>", null, t.actors(), t.initial(), t.steps(), null, 3, null, null);
        String html = HtmlRenderer.render(evil);
        assertThat(html).doesNotContain("</script><script>alert(1)");
    }

    @Test
    void dotIsASequenceChartWithOneLanePerActorAndOneRankPerStep() {
        String dot = DotRenderer.render(SampleTraces.fifo());
        assertThat(dot).startsWith("digraph kcheck {");
        assertThat(dot).contains("a0 [label=\"CPU 0\"").contains("a1 [label=\"CPU 1\"");
        assertThat(dot.lines().filter(l -> l.contains("rank=same; r")).count()).as("one row per step").isEqualTo(3);
        assertThat(dot).as("step 2 is CPU 1's: a box in lane 1, a point in lane 0")
                .containsPattern("a0_2 \\[shape=point").containsPattern("a1_2 \\[label=\"spin_unlock\\(rq\\[1\\]\\)");
        assertThat(dot).contains("a0 -> a0_1 -> a0_2 -> a0_3;").contains("a1 -> a1_1 -> a1_2 -> a1_3;");
        assertThat(dot).containsPattern("a0_3 \\[label=\"spin_trylock[^\\n]*color=red");
    }

    @Test
    void dotClosesALassoBackToItsStart() {
        assertThat(DotRenderer.render(SampleTraces.lasso())).contains("a0_3 -> a1_2 [label=\"repeats from step 2");
    }

    @Test
    void metricsPlotHasOneBarPerComponentAndSeriesAndHatchesSaturatedValues() {
        String svg = MetricsPlot.svg("wasted-spins", java.util.List.of("reader-held", "owner stored"),
                java.util.List.of(new MetricsPlot.Series("before", new long[] {3, 3}), new MetricsPlot.Series("after", new long[] {1, 1})),
                3, Long.MAX_VALUE);
        assertThat(svg).startsWith("<svg");
        assertThat(svg.split("class=\"bar\"", -1)).hasSize(5);
        assertThat(svg).contains("data-series=\"before\" data-component=\"reader-held\" data-value=\"3\"")
                .contains("fill=\"url(#sat)\"").contains("\u22653").contains("saturated: unbounded in this model");
    }

    @Test
    void htmlCarriesTheLegendAndLockLanes() {
        String html = HtmlRenderer.render(SampleTraces.withLocks());
        assertThat(html).contains("id=\"lockchart\"").contains("rqN.serving").contains("initialLocks");
    }
}
