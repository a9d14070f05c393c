package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import kcheck.model.ModelLimitException;

/**
 * Exit codes mean one thing each, and --json is always one document with the kcheck version and
 * the outcome: for every verdict, for usage errors, and for kcheck's own internal errors (which
 * also leave a report file to attach to a bug report).
 */
class ExitCodesAndJsonTest {

    static JsonNode json(Cli c) throws Exception {
        JsonNode doc = new ObjectMapper().readTree(c.out);
        assertThat(doc.get("kcheck").asText()).isEqualTo(kcheck.report.BuildInfo.version());
        assertThat(doc.get("exitCode").asInt()).isEqualTo(c.exit);
        return doc;
    }

    @Test
    void everyOutcomeOfCheckIsOneDocumentWithTheVersionAndTheExitCode() throws Exception {
        Cli holds = Cli.run("check", "rq-lock", "--variant", "after", "--cpus", "2", "--property", "fifo-entry", "--json");
        assertThat(holds.exit).isZero();
        assertThat(json(holds).get("outcome").asText()).isEqualTo("HOLDS");
        Cli violated = Cli.run("check", "rq-lock", "--variant", "before", "--cpus", "2", "--property", "fifo-entry", "--json");
        assertThat(violated.exit).isEqualTo(1);
        assertThat(json(violated).get("outcome").asText()).isEqualTo("VIOLATED");
        Cli incomplete = Cli.run("check", "rq-lock", "--cpus", "3", "--max-states", "50", "--json");
        assertThat(incomplete.exit).isEqualTo(3);
        assertThat(json(incomplete).get("outcome").asText()).isEqualTo("INCOMPLETE");
        Cli usage = Cli.run("check", "rq-lock", "--cpus", "two", "--json");
        assertThat(usage.exit).isEqualTo(2);
        JsonNode u = json(usage);
        assertThat(u.get("outcome").asText()).isEqualTo("ERROR");
        assertThat(u.get("error").get("kind").asText()).isEqualTo("usage");
        assertThat(usage.err.strip().lines().count()).isEqualTo(1);
        Cli input = Cli.run("check", "no-such-model", "--json");
        assertThat(json(input).get("error").get("kind").asText()).isEqualTo("input");
    }

    @Test
    void anInternalErrorIsExitTwoWithAReportFileNeverAVerdict() throws Exception {
        Captured c = capture(() -> Main.failed(new IllegalStateException("boom")), "check", "rq-lock", "--json");
        assertThat(c.exit).isEqualTo(2);
        assertThat(c.err.strip().lines().count()).isEqualTo(1);
        Matcher m = Pattern.compile("^kcheck: internal error: java.lang.IllegalStateException: boom \\(at ExitCodesAndJsonTest.java:\\d+\\); "
                + "a bug of kcheck, not a verdict: please attach (\\S+) to a bug report$").matcher(c.err.strip());
        assertThat(m.matches()).as(c.err).isTrue();
        Path report = Path.of(m.group(1));
        try {
            assertThat(Files.readString(report)).contains(kcheck.report.BuildInfo.label() + " internal error")
                    .contains("command: kcheck check rq-lock --json").contains("java.lang.IllegalStateException: boom")
                    .contains("\tat kcheck.cli.ExitCodesAndJsonTest");
            JsonNode doc = new ObjectMapper().readTree(c.out);
            assertThat(doc.get("outcome").asText()).isEqualTo("ERROR");
            assertThat(doc.get("error").get("kind").asText()).isEqualTo("internal");
            assertThat(doc.get("error").get("report").asText()).isEqualTo(report.toString());
        } finally {
            Files.deleteIfExists(report);
        }
    }

    @Test
    void aBuiltInVariantReachingAModelLimitIsAnInternalError() throws Exception {
        Captured c = capture(() -> Main.failed(new ModelLimitException("rq-lock packs 4 CPUs: reached 5")), "check", "rq-lock");
        assertThat(c.exit).isEqualTo(2);
        assertThat(c.err).startsWith("kcheck: internal error (a built-in variant reached a limit of its model): "
                + "kcheck.model.ModelLimitException: rq-lock packs 4 CPUs: reached 5");
        Files.deleteIfExists(Path.of(c.err.replaceAll("(?s).*please attach (\\S+) to a bug report.*", "$1")));
    }

    record Captured(int exit, String out, String err) {
    }

    interface Work {
        int run();
    }

    static synchronized Captured capture(Work w, String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            Session.start(args);
            int code = w.run();
            return new Captured(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }
}
