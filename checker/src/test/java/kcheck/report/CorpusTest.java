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

    /**
     * Each trace is what the tool writes today: the lock lane chart's data where the model
     * describes its locks, and the kernel file:line or function each step mirrors, never a line of
     * kcheck's Java port.
     */
    @TestFactory
    Stream<DynamicTest> everyTraceCarriesItsLocksAndCitesTheKernelNotThePort() throws IOException {
        return files().stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
            Trace t = TraceIO.read(f);
            kcheck.model.ModelFactory factory = Models.get(t.model());
            kcheck.model.Model m = factory.create(t.variant(), factory.params(t.params()), Set.of(t.property()));
            List<long[]> initial = new java.util.ArrayList<>();
            m.initial(s -> initial.add(s.clone()));
            List<String> locks = new java.util.ArrayList<>();
            m.locks(initial.get(0), (name, holders, waiters, ordered) -> locks.add(name));
            if (!locks.isEmpty()) {
                assertThat(t.initialLocks()).as("initial locks").extracting(Trace.Lock::name).containsExactlyElementsOf(locks);
                assertThat(t.steps()).allSatisfy(s -> assertThat(s.locks()).as("step %d's locks", s.index()).isNotEmpty());
            }
            assertThat(TraceIO.toJson(t)).doesNotContainPattern("[A-Z][A-Za-z0-9]*\\.java:[0-9]+");
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
