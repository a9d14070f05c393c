package kcheck.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import kcheck.engine.Verdict;
import kcheck.gate.Baseline;
import kcheck.model.Models;
import kcheck.trace.Trace;
import kcheck.trace.TraceIO;

/**
 * The regression corpus (traces/corpus): every trace reproduces its violation on its own variant
 * and is refused by the after-variant; and there is one trace per expected violation of a
 * non-mutant variant in the baseline. Regenerate with {@code ./kcheck verify --quick --corpus traces/corpus --force}.
 */
class CorpusTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path CORPUS = ROOT.resolve("traces/corpus");

    static List<Path> files() throws IOException {
        try (Stream<Path> s = Files.list(CORPUS)) {
            return s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyTraceReproducesOnItsVariantAndIsRefusedByTheFix() throws IOException {
        return files().stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
            Trace t = TraceIO.read(f);
            Replay.Outcome own = Replay.run(t, null);
            assertThat(own.reproduced()).as("reproduces on %s: %s", t.variant(), own.detail()).isTrue();
            String fix = Models.get(t.model()).fixOf(t.variant());
            if (!t.variant().equals(fix)) {
                Replay.Outcome fixed = Replay.run(t, fix);
                assertThat(fixed.reproduced()).as("refused by %s: %s", fix, fixed.detail()).isFalse();
            }
        }));
    }

    @Test
    void corpusHoldsOneTracePerExpectedViolation() throws IOException {
        Baseline b = Baseline.read(ROOT.resolve("kcheck-baseline.json"));
        Set<String> expected = new TreeSet<>();
        for (Baseline.Entry e : b.entries()) {
            if (e.expected() == Verdict.VIOLATED && !Models.get(e.model()).variant(e.variant()).mutant()) {
                expected.add(e.model() + "-" + e.variant() + "-" + e.property() + ".json");
            }
        }
        Set<String> present = new TreeSet<>();
        files().forEach(f -> present.add(f.getFileName().toString()));
        assertThat(present).containsExactlyElementsOf(expected);
    }
}
