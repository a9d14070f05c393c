package kcheck.litmus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Every litmus test of the kernel trees in {@code KCHECK_KERNEL_TREES} (colon-separated roots), under
 * tools/memory-model/litmus-tests and Documentation/litmus-tests, decided as its {@code Result:} line says
 * (as the kernel's judgelitmus.sh judges herd7's output); a test without one is decided without error.
 */
class KernelLitmusTestsTest {

    static List<Path> kernelLitmusFiles() throws IOException {
        String trees = System.getenv("KCHECK_KERNEL_TREES");
        Assumptions.assumeTrue(trees != null && !trees.isBlank(), "no kernel tree: set KCHECK_KERNEL_TREES");
        List<Path> files = new ArrayList<>();
        for (String root : trees.split(":")) {
            if (root.isBlank()) {
                continue;
            }
            for (String dir : new String[] {"tools/memory-model/litmus-tests", "Documentation/litmus-tests"}) {
                Path d = Path.of(root, dir);
                if (Files.isDirectory(d)) {
                    try (Stream<Path> s = Files.walk(d)) {
                        s.filter(p -> p.toString().endsWith(".litmus")).sorted().forEach(files::add);
                    }
                }
            }
        }
        Assumptions.assumeTrue(!files.isEmpty(), "no kernel tree: no litmus tests under KCHECK_KERNEL_TREES=" + trees);
        return files;
    }

    /**
     * herd7's own "Observation NAME WORD POSITIVE NEGATIVE" lines quoted in
     * tools/memory-model/Documentation/litmus-tests.txt: the counts of allowed executions satisfying the
     * condition and not, as well as the word.
     */
    @Test
    void herdsObservationsQuotedInTheKernelDocumentationAreMatchedExactly() throws IOException {
        java.util.Map<String, String> observations = java.util.Map.of(
                "MP+pooncerelease+poacquireonce.litmus", "Never 0 3",
                "LB+fencembonceonce+ctrlonceonce.litmus", "Never 0 2",
                "SB+rfionceonce-poonceonces.litmus", "Sometimes 1 3",
                "MP+onceassign+derefonce.litmus", "Never 0 2");
        int seen = 0;
        for (Path f : kernelLitmusFiles()) {
            String expected = observations.get(f.getFileName().toString());
            if (expected != null) {
                LitmusResult r = LitmusChecker.check(f);
                assertThat(r.word() + " " + r.positive() + " " + r.negative()).as(f.toString()).isEqualTo(expected);
                seen++;
            }
        }
        assertThat(seen).isGreaterThanOrEqualTo(observations.size());
    }

    @Test
    void everyKernelLitmusTestIsDecidedAsItsResultLineSays() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (Path f : kernelLitmusFiles()) {
            LitmusResult r = LitmusChecker.check(f);
            if (!r.matchesExpectation()) {
                wrong.add(f + ": expected " + r.expectedLabel() + ", got " + r.word() + (r.dataRace() ? " DATARACE" : "")
                        + " (" + r.positive() + " " + r.negative() + ")");
            }
        }
        assertThat(wrong).isEmpty();
    }
}
