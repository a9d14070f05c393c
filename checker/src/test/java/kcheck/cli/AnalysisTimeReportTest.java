package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A check with progress properties says what its cycle analysis cost against its search: one line
 * in the text report, each property's share in --json; a check without one says nothing of it.
 */
class AnalysisTimeReportTest {

    private static final String[] RWSEM = {"check", "rwsem-owner", "--variant", "v6.12", "--param", "readers=1", "--param",
            "writers=1", "--property", "exclusion", "--property", "no-spin-on-readers", "--property", "no-spin-on-preempted-owner"};

    private static String[] with(String... more) {
        String[] a = java.util.Arrays.copyOf(RWSEM, RWSEM.length + more.length);
        System.arraycopy(more, 0, a, RWSEM.length, more.length);
        return a;
    }

    @Test
    void theTextReportGivesTheAnalysisTimePerPropertyAgainstTheSearch() throws Exception {
        Cli c = Cli.run(RWSEM);
        assertThat(c.exit).as(c.err).isZero();
        Matcher m = Pattern.compile("(?m)^cycle analysis ([0-9.]+) s after a search of ([0-9.]+) s: "
                + "no-spin-on-readers ([0-9.]+) s, no-spin-on-preempted-owner ([0-9.]+) s$").matcher(c.out);
        assertThat(m.find()).as(c.out).isTrue();
        double total = Double.parseDouble(m.group(1));
        double parts = Double.parseDouble(m.group(3)) + Double.parseDouble(m.group(4));
        assertThat(total).isCloseTo(parts, org.assertj.core.data.Offset.offset(0.02));
    }

    @Test
    void jsonGivesEachProgressPropertyItsAnalysisSecondsAndTheSearchsOwn() throws Exception {
        JsonNode doc = ExitCodesAndJsonTest.json(Cli.run(with("--json")));
        JsonNode props = doc.get("results");
        int progress = 0;
        for (JsonNode p : props) {
            String id = p.get("property").asText();
            if (id.startsWith("no-spin")) {
                progress++;
                assertThat(p.get("analysisSeconds").asDouble()).as(id).isNotNegative();
                assertThat(p.get("searchSeconds").asDouble()).as(id).isPositive()
                        .isLessThanOrEqualTo(p.get("seconds").asDouble());
            } else {
                assertThat(p.has("analysisSeconds")).as(id).isFalse();
            }
        }
        assertThat(progress).isEqualTo(2);
    }

    @Test
    void aCheckWithoutProgressPropertiesHasNoAnalysisLine() throws Exception {
        Cli c = Cli.run("check", "rq-lock", "--variant", "after", "--cpus", "2", "--property", "fifo-entry");
        assertThat(c.out).contains("distinct states").doesNotContain("cycle analysis");
    }
}
