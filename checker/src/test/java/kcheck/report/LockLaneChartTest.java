package kcheck.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.model.Model;
import kcheck.model.Models;
import kcheck.trace.HeadlessChromium;
import kcheck.trace.HtmlRenderer;
import kcheck.trace.Trace;

/**
 * The lock lane chart of the post's scenario: rq-lock before, 2 CPUs, the shortest fifo-entry
 * counterexample. CPU 1 queues on rq0 (held by CPU 0) at step 8; CPU 0 takes rq1 with a trylock
 * at step 10 and returns while CPU 1 is still first in rq0's queue. Opened in headless Chromium at
 * {@code #step=10}; the screenshot of the chart is kept in target/browser/.
 */
class LockLaneChartTest {

    private static Trace fifoTrace() {
        Model m = Models.get("rq-lock").create("before", Models.get("rq-lock").params(Map.of("cpus", "2")), Set.of("fifo-entry"));
        RunResult r = Engine.check(m, Options.defaults());
        PropertyResult p = r.property("fifo-entry");
        return TraceFactory.of(m, p, null, null, false, p.verdict().name());
    }

    private static Trace.Lock lock(List<Trace.Lock> locks, String name) {
        return locks.stream().filter(l -> l.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void rqLockTracesSayWhoHoldsAndWhoWaitsForEachRunqueueLock() {
        Trace t = fifoTrace();
        assertThat(t.steps()).hasSize(10);
        assertThat(t.initialLocks()).extracting(Trace.Lock::name).containsExactly("rq0", "rq1");
        assertThat(lock(t.initialLocks(), "rq0").holders()).isEmpty();
        Trace.Lock rq0at8 = lock(t.steps().get(7).locks(), "rq0");
        assertThat(rq0at8.holders()).as("CPU 0 holds rq0").containsExactly(0);
        assertThat(rq0at8.waiters()).as("CPU 1 queued on rq0 with its ticket").containsExactly(1);
        assertThat(rq0at8.ordered()).isTrue();
        Trace.Lock rq1at10 = lock(t.steps().get(9).locks(), "rq1");
        assertThat(rq1at10.holders()).as("CPU 0 took rq1 with its trylock").containsExactly(0);
        assertThat(lock(t.steps().get(9).locks(), "rq0").waiters()).as("and CPU 1 still waits").containsExactly(1);
    }

    @Test
    void browserOpensTheLinkedStepAndDrawsTheLockLanes() throws Exception {
        Path chromium = HeadlessChromium.required();
        Path out = Path.of("target", "browser");
        Files.createDirectories(out);
        Path html = out.resolve("rq-lock-before-fifo-entry.html").toAbsolutePath();
        Files.writeString(html, HtmlRenderer.render(fifoTrace()));
        Path profile = Files.createTempDirectory("kcheck-chromium-");
        try (HeadlessChromium b = new HeadlessChromium(chromium, profile, html.toUri() + "#step=10")) {
            b.await("document.readyState === 'complete' && document.body.dataset.step === '10'");
            assertThat(b.eval("document.querySelector('tr.current').dataset.step").asText()).isEqualTo("10");
            assertThat(b.eval("document.getElementById('lockchart').hidden").asBoolean()).isFalse();
            assertThat(b.eval("Array.from(document.querySelectorAll('#lockchartsvg g.waiter[data-step=\"10\"]'))"
                    + ".map(g => g.dataset.lock + ':' + g.dataset.actor + '#' + g.dataset.order).join()").asText())
                    .as("after step 10 CPU 1 is the first waiter of rq0").isEqualTo("rq0:1#1");
            assertThat(b.eval("Array.from(document.querySelectorAll('#lockchartsvg g.holder[data-step=\"10\"]'))"
                    + ".map(g => g.dataset.lock + ':' + g.dataset.actor).join()").asText())
                    .as("CPU 0 holds both").isEqualTo("rq0:0,rq1:0");
            assertThat(b.eval("document.getElementById('lockcursor').getAttribute('x')").asInt())
                    .as("the cursor marks column 10").isGreaterThan(b.eval("document.querySelector('#lockchartsvg rect.col[data-step=\"9\"]')"
                            + ".getAttribute('x')").asInt());
            byte[] png = b.screenshot("#lockchart");
            assertThat(png).startsWith(new byte[] {(byte) 0x89, 'P', 'N', 'G'});
            Files.write(out.resolve("rq-lock-before-lock-lanes.png"), png);

            b.click("#lockchartsvg rect.col[data-step=\"8\"]");
            b.await("document.body.dataset.step === '8'");
            assertThat(b.eval("location.hash").asText()).as("the URL follows the step").isEqualTo("#step=8");
            Files.write(out.resolve("rq-lock-before-step-8.png"), b.screenshot());
        } finally {
            HeadlessChromium.deleteQuietly(profile);
        }
    }
}
