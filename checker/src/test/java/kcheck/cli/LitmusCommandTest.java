package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import kcheck.trace.TraceIO;

/** {@code kcheck litmus}: a result line per test, the witness, --json, --expect, and bad input as one line, exit 2. */
class LitmusCommandTest {

    private static final String MP = """
            C MP+poonceonces

            (*
             * Result: Sometimes
             *)

            {}

            P0(int *x, int *y)
            {
            \tWRITE_ONCE(*x, 1);
            \tWRITE_ONCE(*y, 1);
            }

            P1(int *x, int *y)
            {
            \tint r0;
            \tint r1;

            \tr0 = READ_ONCE(*y);
            \tr1 = READ_ONCE(*x);
            }

            exists (1:r0=1 /\\ 1:r1=0)
            """;

    @Test
    void printsTheResultLineAndTheWitnessOfAnAllowedExists(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("mp.litmus"), MP);
        Cli c = Cli.run("litmus", f.toString());
        assertThat(c.exit).as(c.err).isZero();
        assertThat(c.out).startsWith("MP+poonceonces  Sometimes  4 explored, 4 allowed (1 satisfy, 3 do not)")
                .contains("witness (exists").contains("| A: W[once] x=1 | C: R[once] y=1").contains("rf:").contains("co:");
        assertThat(Cli.run("litmus", "--no-witness", f.toString()).out).doesNotContain("witness");
    }

    @Test
    void expectComparesWithTheResultLine(@TempDir Path dir) throws Exception {
        Path ok = Files.writeString(dir.resolve("ok.litmus"), MP);
        Cli c = Cli.run("litmus", "--expect", ok.toString());
        assertThat(c.exit).as(c.err).isZero();
        assertThat(c.out).contains("Result: Sometimes (as expected)");
        Path wrong = Files.writeString(dir.resolve("wrong.litmus"), MP.replace("Result: Sometimes", "Result: Never"));
        Cli w = Cli.run("litmus", "--expect", ok.toString(), wrong.toString());
        assertThat(w.exit).isEqualTo(1);
        assertThat(w.out).contains("Result: Never DIFFERS");
    }

    @Test
    void aDirectoryStandsForItsLitmusFilesAndExpectEndsWithASummary(@TempDir Path dir) throws Exception {
        Path sub = Files.createDirectories(dir.resolve("tests/sub"));
        Files.writeString(sub.resolve("a.litmus"), MP);
        Files.writeString(dir.resolve("tests/b.litmus"), MP.replace("C MP+poonceonces", "C MP2").replace("Result: Sometimes", "Result: Never"));
        Files.writeString(dir.resolve("tests/notes.txt"), "not a test");
        Cli c = Cli.run("litmus", "--expect", "--no-witness", dir.resolve("tests").toString());
        assertThat(c.exit).as(c.err).isEqualTo(1);
        assertThat(c.out.lines()).hasSize(3);
        assertThat(c.out).startsWith("MP2  Sometimes").contains("\nMP+poonceonces  Sometimes")
                .endsWith("2 tests: 1 as their Result: line says (or without one), 1 differ\n");
        BadInputCliTest.oneLine(Cli.run("litmus", Files.createDirectories(dir.resolve("empty")).toString()), "no .litmus file under");
    }

    @Test
    void jsonHasOneResultPerFile(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("mp.litmus"), MP);
        Cli c = Cli.run("litmus", "--json", f.toString());
        assertThat(c.exit).as(c.err).isZero();
        JsonNode doc = TraceIO.mapper().readTree(c.out);
        assertThat(doc.get("command").asText()).isEqualTo("litmus");
        JsonNode r = doc.get("results").get(0);
        assertThat(r.get("name").asText()).isEqualTo("MP+poonceonces");
        assertThat(r.get("result").asText()).isEqualTo("Sometimes");
        assertThat(r.get("explored").asLong()).isEqualTo(4);
        assertThat(r.get("dataRace").asBoolean()).isFalse();
        assertThat(r.get("expected").asText()).isEqualTo("Sometimes");
        assertThat(r.get("witness").asText()).contains("rf:");
    }

    @Test
    void badInputIsOneLineWithFileAndLineAndExit2(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("bad.litmus"), MP.replace("WRITE_ONCE(*y, 1);", "foo(y);"));
        BadInputCliTest.oneLine(Cli.run("litmus", f.toString()), f + ":12: unsupported macro 'foo'");
        BadInputCliTest.oneLine(Cli.run("litmus", dir.resolve("missing.litmus").toString()), "no such file");
    }
}
