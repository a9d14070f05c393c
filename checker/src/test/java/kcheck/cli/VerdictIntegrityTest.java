package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Issue 14, "Verdict integrity": the seven cases a new user found on main, each of which ended in
 * a false verdict, a hang or a stack trace. Every one must now end with its own exit code and one
 * line on stderr, never 0 or 1 unless a verdict was computed. The variants are test resources
 * (src/test/resources/variants); the line each error must name is marked "kcheck-test: culprit".
 */
class VerdictIntegrityTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path VARIANTS = ROOT.resolve("checker/src/test/resources/variants");

    /** The variant file and the line marked as the culprit. */
    static Path variant(String name) {
        return VARIANTS.resolve(name + ".java");
    }

    static int culprit(Path file) throws Exception {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("kcheck-test: culprit")) {
                return i + 1;
            }
        }
        throw new AssertionError("no culprit line in " + file);
    }

    static void oneLine(int exit, String out, String err, int expected, String... fragments) {
        assertThat(exit).as(out + err).isEqualTo(expected);
        assertThat(err.strip().lines().count()).as(err).isEqualTo(1);
        assertThat(err).startsWith("kcheck: ").doesNotContain("Exception in").doesNotContain("\tat ");
        for (String f : fragments) {
            assertThat(err).contains(f);
        }
    }

    // case 1: System.exit(0) in cpudl_set

    @Test
    void aVariantCallingSystemExitIsRefusedBeforeItRunsWithExitTwoNamingItsLine() throws Exception {
        Path f = variant("ExitInSet");
        Cli c = Cli.run("check", "cpudl", "--variant-file", f.toString(), "--quiet");
        oneLine(c.exit, c.out, c.err, 2, f + ":" + culprit(f) + ": in ExitInSet.set: calls System.exit, which a variant may not do");
        assertThat(c.out).isEmpty();
    }

    @Test
    void withJsonTheSystemExitVariantGivesOneErrorDocumentNotAnEmptyPass() throws Exception {
        Path f = variant("ExitInSet");
        Cli c = Cli.run("check", "cpudl", "--variant-file", f.toString(), "--json");
        assertThat(c.exit).isEqualTo(2);
        JsonNode doc = new ObjectMapper().readTree(c.out);
        assertThat(doc.get("kcheck").asText()).isEqualTo(kcheck.report.BuildInfo.version());
        assertThat(doc.get("outcome").asText()).isEqualTo("ERROR");
        assertThat(doc.get("exitCode").asInt()).isEqualTo(2);
        assertThat(doc.has("results")).isFalse();
        JsonNode e = doc.get("error");
        assertThat(e.get("kind").asText()).isEqualTo("variant-file");
        assertThat(e.get("file").asText()).isEqualTo(f.toString());
        assertThat(e.get("line").asInt()).isEqualTo(culprit(f));
        assertThat(e.get("method").asText()).isEqualTo("ExitInSet.set");
    }

    @Test
    void aSystemExitTheStaticCheckDoesNotSeeIsCaughtAtRunTimeAndEndsWithExitTwo() throws Exception {
        Path f = variant("ExitInSet");
        ChildJvm c = ChildJvm.run(List.of("-Dkcheck.guard.staticCheck=false"), "check", "cpudl", "--variant-file", f.toString(),
                "--quiet", "--json");
        oneLine(c.exit, c.out, c.err, 2, f + ":" + culprit(f) + ": in ExitInSet.set: calls System.exit, which a variant may not do",
                "no verdict");
        JsonNode doc = new ObjectMapper().readTree(c.out);
        assertThat(doc.get("outcome").asText()).isEqualTo("ERROR");
        assertThat(doc.get("error").get("line").asInt()).isEqualTo(culprit(f));
    }

    // case 2: an endless loop, --time-limit

    @Test
    void aStepThatNeverReturnsIsReportedAsAnErrorOfTheFileNamingTheStuckLine() throws Exception {
        Path f = variant("EndlessClear");
        ChildJvm c = ChildJvm.run(List.of(), "check", "cpudl", "--variant-file", f.toString(), "--quiet", "--step-timeout", "1s",
                "--time-limit", "10s", "--json");
        int line = culprit(f);
        oneLine(c.exit, c.out, c.err, 2, "in EndlessClear.clear: one step has not returned after", "raise --step-timeout");
        assertThat(c.err).containsPattern(java.util.regex.Pattern.quote(f.toString()) + ":(" + line + "|" + (line - 1) + "): ");
        JsonNode doc = new ObjectMapper().readTree(c.out);
        assertThat(doc.get("outcome").asText()).isEqualTo("ERROR");
        assertThat(doc.get("error").get("kind").asText()).isEqualTo("variant-file");
    }

    @Test
    void theTimeLimitEndsALoopingVariantIncompleteWhateverTheStepBudget() throws Exception {
        Path f = variant("EndlessClear");
        ChildJvm c = ChildJvm.run(List.of(), "check", "cpudl", "--variant-file", f.toString(), "--quiet", "--step-timeout", "10m",
                "--time-limit", "2s", "--json");
        oneLine(c.exit, c.out, c.err, 3, "in EndlessClear.clear: still running one step when the time limit 2s passed",
                "INCOMPLETE, no verdict");
        JsonNode doc = new ObjectMapper().readTree(c.out);
        assertThat(doc.get("outcome").asText()).isEqualTo("INCOMPLETE");
        assertThat(doc.get("exitCode").asInt()).isEqualTo(3);
        assertThat(doc.get("limit").asText()).isEqualTo("time limit 2s");
    }

    // case 3: model assumptions broken by lb-redo variants

    @Test
    void lbRedoVariantsBreakingTheModelsAssumptionsExitTwoNamingTheAssignmentNotOneAsAViolation() throws Exception {
        for (String[] v : List.of(new String[] {"IdleOutOfRange", "idle"}, new String[] {"LoopTooWide", "loop"},
                new String[] {"LoopBreakNegative", "loopBreak"})) {
            Path f = variant(v[0]);
            Cli c = Cli.run("check", "lb-redo", "--variant-file", f.toString(), "--quiet");
            oneLine(c.exit, c.out, c.err, 2, f + ":", ": in " + v[0] + ".loadBalance: ", "no verdict");
            assertThat(c.out).isEmpty();
            if (c.err.contains("assignment to " + v[1] + " ")) {
                assertThat(c.err).as("the probe names the assignment").contains(f + ":" + culprit(f) + ": in " + v[0] + ".loadBalance");
            }
        }
    }

    @Test
    void aModelLimitReachedInTheVariantsOwnCodeIsExitTwoWithTheLimitInWords() throws Exception {
        Path f = variant("ThrowsModelLimit");
        Cli c = Cli.run("check", "cpudl", "--variant-file", f.toString(), "--quiet");
        oneLine(c.exit, c.out, c.err, 2, f + ":" + culprit(f) + ": in ThrowsModelLimit.set: cpudl keeps at most 2 heap slots in this test: "
                + "this variant reached 3 (a limit of the cpudl model, not a violation");
    }

    // case 4: one refused trace is not a proof

    @Test
    void aRefusedTraceIsAFactAboutOneRunAndProveFindsTheViolationTheRefusalHid() throws Exception {
        Path trace = ROOT.resolve("traces/corpus/rq-lock-before-fifo-entry.json");
        Path f = variant("KeepLower");
        Cli c = Cli.run("replay", trace.toString(), "--variant-file", f.toString());
        assertThat(c.exit).as(c.out + c.err).isEqualTo(3);
        assertThat(c.out).contains("REFUSED: step 6").contains("This one trace is refused by keep-lower at step 6: a fact about this run only")
                .contains("--prove").doesNotContain("Regression proof");
        Cli p = Cli.run("replay", trace.toString(), "--variant-file", f.toString(), "--prove");
        assertThat(p.exit).as(p.out + p.err).isEqualTo(1);
        assertThat(p.out).contains("No regression proof").contains("fifo-entry is VIOLATED on keep-lower at the trace's bounds "
                + "(cpus=2 rounds=1 lock=ticket").contains("VIOLATION of fifo-entry");
        Cli fix = Cli.run("replay", trace.toString(), "--variant", "after", "--prove");
        assertThat(fix.exit).as(fix.out + fix.err).isZero();
        assertThat(fix.out).contains("Regression proof: the fifo-entry counterexample of rq-lock/before reproduces on before, is refused "
                + "by after at step 6, and fifo-entry HOLDS on after exhaustively at the trace's bounds");
    }

    // case 5: a hand-corrupted trace on its own variant

    @Test
    void aTraceThatDoesNotReplayOnItsOwnVariantIsStaleOrEditedExitTwoNamingTheStep(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("t.json");
        Files.writeString(trace, Files.readString(ROOT.resolve("traces/corpus/rq-lock-before-fifo-entry.json"))
                .replace("\"spin_lock(rq[1]): take ticket\"", "\"spin_lock(rq[7]): take ticket\""));
        Cli c = Cli.run("replay", trace.toString());
        oneLine(c.exit, c.out, c.err, 2, trace + ": trace does not replay on its own variant before: stale or edited (first diverging step: "
                + "step 3 (CPU 1: spin_lock(rq[7]): take ticket) is not possible on variant before");
        Cli other = Cli.run("replay", trace.toString(), "--variant", "after");
        oneLine(other.exit, other.out, other.err, 2, "stale or edited");
    }

    // case 6: excessive input, memory

    @Test
    void renderRefusesDeepLongAndHugeInputWithOneLine(@TempDir Path dir) throws Exception {
        Path deep = dir.resolve("deep.json");
        Files.writeString(deep, "{\"a\":".repeat(50_000) + "1" + "}".repeat(50_000));
        oneLine(Cli.run("render", deep.toString()), 2, "nested deeper than 64 levels");
        Path digits = dir.resolve("digits.json");
        Files.writeString(digits, "{\"format\": 1" + "0".repeat(100_000) + "}");
        oneLine(Cli.run("render", digits.toString()), 2, "a number longer than 24 characters");
        Path big = dir.resolve("big.json");
        try (var ch = java.nio.channels.FileChannel.open(big, java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {' '}), 50L << 20);
        }
        oneLine(Cli.run("render", big.toString()), 2, "larger than the 32.0 MB kcheck reads");
        Path string = dir.resolve("string.json");
        Files.writeString(string, "{\"format\":1,\"message\":\"" + "x".repeat(2 << 20) + "\"}");
        oneLine(Cli.run("render", string.toString()), 2, "a string longer than 1,048,576 characters");
        Path bom = dir.resolve("bom.json");
        Files.write(bom, concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, "{}".getBytes(StandardCharsets.UTF_16LE)));
        oneLine(Cli.run("render", bom.toString()), 2, "the file is UTF-16LE (it starts with a byte-order mark)");
        Path bin = dir.resolve("bin.json");
        Files.write(bin, new byte[] {'{', 0, 1, 2, (byte) 0xC3, 0x28});
        oneLine(Cli.run("render", bin.toString()), 2, "not a JSON text file (binary data at byte 1)");
        Path utf8bom = dir.resolve("utf8bom.json");
        Files.write(utf8bom, concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                Files.readAllBytes(ROOT.resolve("traces/corpus/rq-lock-before-fifo-entry.json"))));
        assertThat(Cli.run("render", utf8bom.toString()).exit).isZero();
    }

    static void oneLine(Cli c, int expected, String... fragments) {
        oneLine(c.exit, c.out, c.err, expected, fragments);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void runningOutOfMemoryIsIncompleteWithOneLineAndAJsonDocument() throws Exception {
        /* a budget of nearly the whole 8 MiB heap (a budget above the heap is refused): the heap runs out first */
        ChildJvm c = ChildJvm.run(List.of("-Xmx8m"), "check", "rq-lock", "--cpus", "4", "--memory", "7m", "--json", "--quiet");
        oneLine(c.exit, c.out, c.err, 3, "out of memory", "KCHECK_JAVA_OPTS=-Xmx");
        JsonNode doc = new ObjectMapper().readTree(c.out);
        assertThat(doc.get("outcome").asText()).isEqualTo("INCOMPLETE");
        assertThat(doc.get("limit").asText()).isEqualTo("memory");
        assertThat(doc.get("error").get("kind").asText()).isEqualTo("memory");
    }

    // case 7: nothing saved is overwritten without --force

    @Test
    void verifyCorpusDoesNotOverwriteASavedTraceWithoutForce(@TempDir Path dir) throws Exception {
        Path saved = dir.resolve("rq-lock-before-fifo-entry.json");
        Files.writeString(saved, "my notes\n");
        Cli c = Cli.run("verify", "--baseline", ROOT.resolve("kcheck-baseline.json").toString(), "--quick", "--corpus", dir.toString(),
                "--quiet", "--trace-dir", dir.resolve("t").toString());
        oneLine(c, 2, saved + " exists", "pass --force to overwrite");
        assertThat(Files.readString(saved)).isEqualTo("my notes\n");
        Path html = dir.resolve("t.html");
        Files.writeString(html, "mine");
        oneLine(Cli.run("render", ROOT.resolve("traces/corpus/rq-lock-before-fifo-entry.json").toString(), "--format", "html", "-o",
                html.toString()), 2, "exists: pass --force");
        assertThat(Files.readString(html)).isEqualTo("mine");
        Path xml = dir.resolve("r.xml");
        Files.writeString(xml, "mine");
        oneLine(Cli.run("verify", "--baseline", ROOT.resolve("kcheck-baseline.json").toString(), "--quick", "--junit-xml", xml.toString()),
                2, xml + " exists");
        assertThat(Files.readString(xml)).isEqualTo("mine");
    }
}
