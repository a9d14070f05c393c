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
    void dotHasOneNodePerStateAndOneEdgePerStep() {
        String dot = DotRenderer.render(SampleTraces.fifo());
        assertThat(dot).startsWith("digraph kcheck {");
        assertThat(dot.lines().filter(l -> l.matches("\\s+s\\d+ \\[label=.*")).count()).isEqualTo(4);
        assertThat(dot.lines().filter(l -> l.contains(" -> ")).count()).isEqualTo(3);
        assertThat(dot).contains("color=red");
    }

    @Test
    void dotClosesALassoBackToItsStart() {
        assertThat(DotRenderer.render(SampleTraces.lasso())).contains("s3 -> s1");
    }
}
