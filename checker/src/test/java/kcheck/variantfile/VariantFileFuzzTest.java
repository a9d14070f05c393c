package kcheck.variantfile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import kcheck.model.ModelFactory;
import kcheck.model.Models;

/**
 * The variant-file loader's error paths: a corrupted variant file is loaded or refused with one
 * {@link VariantFileException} line (compiler diagnostics may follow it), never another
 * exception; and whatever loads can be instrumented with line probes that keep every line
 * number and still compile (the error path that names a variant's line relies on it).
 * {@code mvn verify} replays the committed inputs (VariantFileFuzzTestInputs/); {@code mvn verify
 * -Pfuzz} fuzzes (each input is one in-memory compile: a few per second).
 */
class VariantFileFuzzTest {
    private static final ModelFactory CPUDL = Models.get("cpudl");
    private static final String VALID = """
            import kcheck.model.cpudl.Cpudl;
            import kcheck.model.cpudl.CpudlV49;

            /** A cpudl variant: v4.9's insert, with the index update first. */
            public class Fuzz extends CpudlV49 {
                public static final String VARIANT = "fuzz";

                @Override
                public void set(Cpudl cp, int cpu, long dl) {
                    int before = cp.size;
                    switch (cpu) {
                        case 0:
                            before += 0;
                        default:
                            break;
                    }
                    for (int i = 0; i < before; i++) {
                        if (cp.dl(i) == dl) {
                            break;
                        }
                    }
                    super.set(cp, cpu, dl);
                }
            }
            """;

    @FuzzTest(maxDuration = "60s")
    void corruptedVariantFilesAreLoadedOrRefusedWithOneLine(FuzzedDataProvider data) throws Exception {
        int at = data.consumeInt(0, VALID.length());
        int cut = data.consumeInt(0, Math.min(40, VALID.length() - at));
        String insert = data.consumeString(200);
        String source = VALID.substring(0, at) + insert + VALID.substring(at + cut);
        if (source.contains("while") || source.contains("for (;") || source.contains("static {")) {
            return; /* a loop in a constructor or initializer would hang the fuzzer, not the loader */
        }
        Path dir = Files.createTempDirectory("kcheck-fuzz-");
        Path file = dir.resolve("Fuzz.java");
        try {
            Files.writeString(file, source, StandardCharsets.UTF_8);
            try {
                VariantFile vf = VariantFile.load(file, CPUDL);
                assertThat(vf.variantName()).isNotBlank();
                InMemoryCompiler.Instrumented ins = InMemoryCompiler.instrument(source);
                assertThat(ins).as("a file that compiles can be instrumented").isNotNull();
                assertThat(ins.source().lines().count()).isEqualTo(source.lines().count());
                InMemoryCompiler.compile(file, file.toString(), ins.source(), false, Models.class, VariantFile.class);
            } catch (VariantFileException e) {
                assertThat(e.getMessage()).isNotBlank().doesNotContain("\n");
            }
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }
}
