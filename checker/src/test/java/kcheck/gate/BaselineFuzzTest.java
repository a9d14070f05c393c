package kcheck.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import kcheck.model.ModelInputException;

/**
 * The baseline reader must refuse anything that is not a valid baseline with one
 * {@link ModelInputException} line naming the file, never another exception. {@code mvn verify}
 * replays the committed inputs (BaselineFuzzTestInputs/); {@code mvn verify -Pfuzz} fuzzes.
 */
class BaselineFuzzTest {
    private static final Path FILE = Path.of("fuzz.json");
    private static final String VALID = valid();

    private static String valid() {
        try {
            return Files.readString(Path.of("..").toAbsolutePath().normalize().resolve("kcheck-baseline.json"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @FuzzTest(maxDuration = "60s")
    void arbitraryTextIsReadOrRefusedWithOneLine(FuzzedDataProvider data) {
        readOrRefuse(data.consumeRemainingAsString());
    }

    @FuzzTest(maxDuration = "60s")
    void corruptedBaselinesAreReadOrRefusedWithOneLine(FuzzedDataProvider data) {
        int at = data.consumeInt(0, VALID.length());
        int cut = data.consumeInt(0, Math.min(200, VALID.length() - at));
        String insert = data.consumeRemainingAsString();
        readOrRefuse(VALID.substring(0, at) + insert + VALID.substring(at + cut));
    }

    private static void readOrRefuse(String text) {
        try {
            Baseline b = Baseline.parse(FILE, text);
            assertThat(b.entries()).isNotEmpty();
            for (Baseline.Entry e : b.entries()) {
                assertThat(e.name()).isNotBlank();
                assertThat(e.effectiveParams(true)).isNotNull();
            }
        } catch (ModelInputException e) {
            assertThat(e.getMessage()).doesNotContain("\n").startsWith("baseline fuzz.json");
        }
    }
}
