package kcheck.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import kcheck.model.ModelInputException;

/** A baseline that is not quite right is refused with one line naming the file, the entry and the key: never read as something else. */
class BaselineValidationTest {
    private static final Path FILE = Path.of("b.json");
    private static final String ENTRY = "\"model\": \"rq-lock\", \"variant\": \"before\", \"params\": {\"cpus\": \"2\"}, "
            + "\"property\": \"mutual-exclusion\"";

    private static String baseline(String entry) {
        return "{\"format\": 1, \"entries\": [{" + ENTRY + ", \"expected\": \"HOLDS\"},\n {" + entry + "}]}";
    }

    private static void refused(String text, String message) {
        assertThatThrownBy(() -> Baseline.parse(FILE, text)).isInstanceOf(ModelInputException.class).hasMessage(message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"expected\": 1|\"expected\" must be a string, got the number 1",
        "\"expected\": null|\"expected\" must be a string, got null",
        "\"expected\": [\"HOLDS\"]|\"expected\" must be a string, got an array",
        "\"expected\": \" \"|\"expected\" is empty",
        "\"expected\": \"HOLDS\", \"note\": {}|\"note\" must be a string, got an object"})
    void aKeyOfTheWrongTypeIsNamedWithItsType(String tail, String message) {
        refused(baseline(ENTRY + ", " + tail), "baseline b.json entry 2: " + message);
    }

    @Test
    void aKeyOfTheWrongTypeIsNotCalledMissingAndAMissingOneIs() {
        refused(baseline(ENTRY + ", \"expected\": 1"), "baseline b.json entry 2: \"expected\" must be a string, got the number 1");
        refused(baseline(ENTRY), "baseline b.json entry 2: missing \"expected\"");
    }

    @Test
    void paramsOrQuickOfTheWrongTypeNameTheirOwnKeyAndThePrefixOnce() {
        refused(baseline(ENTRY.replace("{\"cpus\": \"2\"}", "5") + ", \"expected\": \"HOLDS\""),
                "baseline b.json entry 2: \"params\" must be an object, got the number 5");
        refused(baseline(ENTRY + ", \"expected\": \"HOLDS\", \"quick\": [1]"),
                "baseline b.json entry 2: \"quick\" must be an object, got an array");
        refused(baseline(ENTRY.replace("\"2\"", "{}") + ", \"expected\": \"HOLDS\""),
                "baseline b.json entry 2: \"params\": the value of \"cpus\" must be a string or an integer, got an object");
    }

    @Test
    void anUnknownKeyIsRefusedWithTheKnownOnesWhichAreAllRead() {
        Baseline b = Baseline.parse(FILE, baseline(ENTRY + ", \"expected\": \"VIOLATED\", \"quick\": {\"rounds\": 1}, \"note\": \"n\""));
        assertThat(b.entries().get(1).expected()).isEqualTo(kcheck.engine.Verdict.VIOLATED);
        assertThat(b.entries().get(1).quick()).containsEntry("rounds", "1");
        assertThat(b.entries().get(1).note()).isEqualTo("n");
        refused(baseline(ENTRY + ", \"expected\": \"HOLDS\", \"expectd\": \"VIOLATED\""), "baseline b.json entry 2: unknown key "
                + "\"expectd\" (known: model, variant, params, property, expected, quick, note)");
        refused("{\"format\": 1, \"entries\": [{" + ENTRY + ", \"expected\": \"HOLDS\"}], \"entires\": []}",
                "baseline b.json: unknown key \"entires\" (known: format, entries)");
    }

    @Test
    void aDuplicateKeyIsRefusedNamingTheKeyAndTheEntry() {
        refused(baseline(ENTRY + ", \"expected\": \"HOLDS\", \"expected\": \"VIOLATED\""), "baseline b.json: the key \"expected\" "
                + "appears twice in \"entries\" item 2 at line 2, column 132: kcheck does not guess which one is meant");
    }

    @Test
    void theFormatMustBeTheNumberOne() {
        refused("{\"format\": \"1\", \"entries\": [{" + ENTRY + ", \"expected\": \"HOLDS\"}]}",
                "baseline b.json: unsupported format \"1\" (this kcheck reads \"format\": 1)");
    }
}
