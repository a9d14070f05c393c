package kcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Issue 10 from the command line: {@code kcheck variant new}, then {@code --variant-file} on
 * check, replay, verify and bench; the bad files (syntax error, wrong shape, missing) give exit 2
 * with one clear message, and nothing is written into the repository.
 */
class VariantFileCliTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** The v4.9 insert with v4.8's {@code dl = 0} store and {@code cpudl_change_key()} put back. */
    static final String V49_INSERT = """
                        cp.setDl(newIdx, dl);
                        cp.setCpu(newIdx, cpu);
                        cp.setIdx(cpu, newIdx);
                        cpudlHeapifyUp(cp, newIdx);
            """;
    static final String DL_ZERO_INSERT = """
                        cp.setDl(newIdx, 0);
                        cp.setCpu(newIdx, cpu);
                        cp.setIdx(cpu, newIdx);
                        /* cpudl_change_key(cp, newIdx, dl) as in v4.8: an earlier dl sifts down */
                        if (dlTimeBefore(dl, cp.dl(newIdx))) {
                            cp.setDl(newIdx, dl);
                            cpudlHeapifyDown(cp, newIdx);
                        } else {
                            cp.setDl(newIdx, dl);
                            cpudlHeapifyUp(cp, newIdx);
                        }
            """;

    static Path newVariant(Path dir, String model, String name, String... more) {
        String[] args = Stream.concat(Stream.of("variant", "new", model, name, "-o", dir.toString()), Stream.of(more)).toArray(String[]::new);
        Cli c = Cli.run(args);
        assertThat(c.exit).as(c.out + c.err).isZero();
        String cls = kcheck.variantfile.VariantSource.className(name);
        Path file = dir.resolve(cls + ".java");
        assertThat(c.out).contains("wrote " + file.toAbsolutePath().normalize());
        return file;
    }

    static Path withDlZeroInsert(Path file) throws IOException {
        String src = Files.readString(file);
        assertThat(src).contains(V49_INSERT);
        Files.writeString(file, src.replace(V49_INSERT, DL_ZERO_INSERT));
        return file;
    }

    static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    static void assertOneLine(Cli c, String fragment) {
        assertThat(c.exit).as(c.out + c.err).isEqualTo(2);
        assertThat(c.err.strip().lines().count()).as(c.err).isEqualTo(1);
        assertThat(c.err).startsWith("kcheck: ").contains(fragment).doesNotContain("Exception in").doesNotContain("\tat ");
        assertThat(c.out).isEmpty();
    }

    @Test
    void editingTheInsertToStoreZeroFirstViolatesHeapOrderWithATwoOperationTrace(@TempDir Path dir) throws Exception {
        Path file = withDlZeroInsert(newVariant(dir, "cpudl", "mine"));
        Cli c = Cli.run("check", "cpudl", "--variant-file", file.toString(), "--property", "heap-order", "--quiet");
        assertThat(c.exit).as(c.out + c.err).isEqualTo(1);
        assertThat(c.out).contains("model cpudl, variant mine (cpus=4 depth=4 keys=edge hotplug=off capacity=sym find-race=on)")
                .contains("variant file: " + file.toAbsolutePath().normalize() + " (sha256 " + sha256(file) + ")")
                .contains("heap-order    VIOLATED    shortest trace 2 steps")
                .contains("cpudl_set(cpu=0, dl=2^63)").contains("cpudl_set(cpu=1, dl=2^63+1)")
                .contains("heap = op 2: [0:2^63 1:2^63+1]").contains("VIOLATION of heap-order at step 2");
    }

    @Test
    void theUneditedCopyHoldsHeapOrder(@TempDir Path dir) {
        Path file = newVariant(dir, "cpudl", "mine");
        Cli c = Cli.run("check", "cpudl", "--variant-file", file.toString(), "--property", "heap-order", "--quiet");
        assertThat(c.exit).as(c.out + c.err).isZero();
        assertThat(c.out).contains("heap-order    HOLDS       exhaustive");
    }

    @Test
    void aSyntaxErrorExitsTwoWithTheCompilersFileLineAndMessage(@TempDir Path dir) throws Exception {
        Path file = newVariant(dir, "cpudl", "mine");
        List<String> lines = Files.readAllLines(file);
        int ln = lines.indexOf("            cp.setIdx(cpu, newIdx);");
        lines.set(ln, "            cp.setIdx(cpu, newIdx)");
        Files.write(file, lines);
        Cli c = Cli.run("check", "cpudl", "--variant-file", file.toString(), "--quiet");
        assertThat(c.exit).isEqualTo(2);
        assertThat(c.out).isEmpty();
        assertThat(c.err).startsWith("kcheck: " + file + " does not compile:\n")
                .contains(file + ":" + (ln + 1) + ": error: ';' expected\n")
                .contains("            cp.setIdx(cpu, newIdx)\n").contains("1 error").doesNotContain("Exception");
    }

    @Test
    void aClassThatIsNotACpudlHeapExitsTwoNamingTheContract(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("Shape.java");
        Files.writeString(file, "public class Shape {\n    public void set(int cpu, long dl) {\n    }\n}\n");
        assertOneLine(Cli.run("check", "cpudl", "--variant-file", file.toString()),
                "class Shape in " + file + " does not implement kcheck.model.cpudl.CpudlHeap (the variant contract of cpudl)");
    }

    @Test
    void anotherModelsVariantExitsTwoNamingWhatItIs(@TempDir Path dir) {
        Path file = newVariant(dir, "cpudl", "mine");
        assertOneLine(Cli.run("check", "rq-lock", "--variant-file", file.toString()),
                "does not implement kcheck.model.rqlock.DoubleLockBalance (the variant contract of rq-lock); it implements "
                        + "kcheck.model.cpudl.CpudlHeap, the contract of cpudl");
    }

    @Test
    void aMissingFileExitsTwoWithOneLine(@TempDir Path dir) {
        Path file = dir.resolve("Nope.java");
        assertOneLine(Cli.run("check", "cpudl", "--variant-file", file.toString()), "variant file " + file + " not found");
    }

    @Test
    void otherWrongShapesExitTwoWithOneLine(@TempDir Path dir) throws Exception {
        Path mine = newVariant(dir, "cpudl", "mine");
        String src = Files.readString(mine);

        Path hidden = dir.resolve("Hidden.java");
        Files.writeString(hidden, src.replace("public class Mine", "class Hidden").replace("\"mine\"", "\"hidden\""));
        assertOneLine(Cli.run("check", "cpudl", "--variant-file", hidden.toString()), "class Hidden in " + hidden + " is not public");

        Path noCtor = dir.resolve("NoCtor.java");
        Files.writeString(noCtor, src.replace("public class Mine", "public class NoCtor").replace("\"mine\"", "\"no-ctor\"")
                .replace("    public static final String VARIANT", "    public NoCtor(int x) {\n    }\n\n    public static final String VARIANT"));
        assertOneLine(Cli.run("check", "cpudl", "--variant-file", noCtor.toString()), "has no public no-argument constructor");

        Path named = dir.resolve("Named.java");
        Files.writeString(named, src.replace("public class Mine", "public class Named").replace("\"mine\"", "\"after\""));
        assertOneLine(Cli.run("check", "cpudl", "--variant-file", named.toString()),
                "names the variant 'after', which is a built-in cpudl variant");

        Path other = dir.resolve("Other.java");
        Files.writeString(other, src.replace("public class Mine", "class Mine"));
        assertOneLine(Cli.run("check", "cpudl", "--variant-file", other.toString()),
                other + " declares no class Other (the variant class must be named like its file; it declares Mine)");

        Path txt = dir.resolve("mine.txt");
        Files.writeString(txt, src);
        assertOneLine(Cli.run("check", "cpudl", "--variant-file", txt.toString()), "must be a Java source file named CLASS.java");

        assertOneLine(Cli.run("check", "cpudl", "--variant-file", mine.toString(), "--variant", "before"),
                "--variant and --variant-file exclude each other");
    }

    @Test
    void aFileNamedUnlikeItsPublicClassGetsTheCompilersMessage(@TempDir Path dir) throws Exception {
        Path mine = newVariant(dir, "cpudl", "mine");
        Path copy = dir.resolve("Copy.java");
        Files.copy(mine, copy);
        Cli c = Cli.run("check", "cpudl", "--variant-file", copy.toString());
        assertThat(c.exit).isEqualTo(2);
        assertThat(c.err).contains("error: class Mine is public, should be declared in a file named Mine.java");
    }

    @Test
    void anExceptionInTheVariantExitsTwoNamingItsLine(@TempDir Path dir) throws Exception {
        Path mine = newVariant(dir, "cpudl", "mine");
        String src = Files.readString(mine).replace("    public void clear(Cpudl cp, int cpu) {\n",
                "    public void clear(Cpudl cp, int cpu) {\n        if (cpu == 1) {\n            throw new IllegalArgumentException(\"boom\");\n        }\n");
        Files.writeString(mine, src);
        int line = List.of(src.split("\n")).indexOf("            throw new IllegalArgumentException(\"boom\");") + 1;
        assertOneLine(Cli.run("check", "cpudl", "--variant-file", mine.toString(), "--quiet"),
                mine + ":" + line + ": in Mine.clear: threw java.lang.IllegalArgumentException: boom; no verdict");
    }

    @Test
    void variantNewRefusesToOverwriteAndToTakeABuiltInName(@TempDir Path dir) throws Exception {
        Path mine = newVariant(dir, "cpudl", "mine");
        Files.writeString(mine, "// my work\n");
        assertOneLine(Cli.run("variant", "new", "cpudl", "mine", "-o", dir.toString()), "exists: not overwritten");
        assertThat(Files.readString(mine)).isEqualTo("// my work\n");
        assertOneLine(Cli.run("variant", "new", "cpudl", "after", "-o", dir.toString()), "'after' is a built-in cpudl variant");
        assertOneLine(Cli.run("variant", "new", "cpudl", "x", "--from", "nope", "-o", dir.toString()), "unknown variant 'nope'");
        assertOneLine(Cli.run("variant", "new", "cpudl", "cpudl", "-o", dir.toString()), "would hide kcheck.model.cpudl.Cpudl");
        assertOneLine(Cli.run("variant", "new", "cpudl", "x", "-o", mine.toString()), "not a directory");
    }

    @Test
    void variantNewCreatesAMissingOutputDirectory(@TempDir Path dir) {
        Path out = dir.resolve("patch/nested");
        Cli c = Cli.run("variant", "new", "cpudl", "mine", "-o", out.toString());
        assertThat(c.exit).as(c.err).isZero();
        assertThat(out.resolve("Mine.java")).isRegularFile();
    }

    @Test
    void jsonAndWrittenTracesNameTheFileAndItsSha256(@TempDir Path dir) throws Exception {
        Path file = withDlZeroInsert(newVariant(dir, "cpudl", "mine"));
        Path out = dir.resolve("t.json");
        Cli c = Cli.run("check", "cpudl", "--variant-file", file.toString(), "--property", "heap-order", "--json", "--trace-out",
                out.toString());
        assertThat(c.exit).as(c.err).isEqualTo(1);
        String sha = sha256(file);
        String abs = file.toAbsolutePath().normalize().toString();
        JsonNode r = new ObjectMapper().readTree(c.out).get("results").get(0);
        assertThat(r.get("variant").asText()).isEqualTo("mine");
        assertThat(r.get("variantFile").asText()).isEqualTo(abs);
        assertThat(r.get("sha256").asText()).isEqualTo(sha);
        assertThat(r.get("trace").get("variantFile").asText()).isEqualTo(abs + " (sha256 " + sha + ")");
        JsonNode t = new ObjectMapper().readTree(out.toFile());
        assertThat(t.get("variantFile").asText()).isEqualTo(abs + " (sha256 " + sha + ")");

        Cli again = Cli.run("replay", out.toString(), "--variant-file", file.toString());
        assertThat(again.exit).as(again.out + again.err).isEqualTo(1);
        assertThat(again.out).contains("on variant mine (its own):").contains("REPRODUCED");
        assertOneLine(Cli.run("replay", out.toString()), "replay it with --variant-file FILE");
    }

    @Test
    void aVariantFilesTraceCarriesTheLockLanesOfItsModel(@TempDir Path dir) throws Exception {
        Path file = newVariant(dir, "rq-lock", "mine", "--from", "before");
        Path out = dir.resolve("t.json");
        Cli c = Cli.run("check", "rq-lock", "--variant-file", file.toString(), "--cpus", "2", "--property", "fifo-entry",
                "--trace-out", out.toString());
        assertThat(c.exit).as(c.out + c.err).isEqualTo(1);
        kcheck.trace.Trace t = kcheck.trace.TraceIO.read(out);
        assertThat(t.initialLocks()).as("the lock lane chart's data").extracting(kcheck.trace.Trace.Lock::name)
                .containsExactly("rq0", "rq1");
        assertThat(t.steps()).allSatisfy(s -> assertThat(s.locks()).isNotEmpty());
    }

    @Test
    void replayOfTheCorpusWithProveGivesTheRegressionProofForTheCleanCopyAndReproducesOnTheEditedOne(@TempDir Path dir)
            throws Exception {
        Path trace = ROOT.resolve("traces/corpus/cpudl-before-heap-order.json");
        Path clean = newVariant(dir, "cpudl", "clean");
        Cli refused = Cli.run("replay", trace.toString(), "--variant-file", clean.toString());
        assertThat(refused.exit).as(refused.out + refused.err).isEqualTo(3);
        assertThat(refused.out).contains("REFUSED").contains("This one trace is refused by clean").doesNotContain("Regression proof");
        Cli ok = Cli.run("replay", trace.toString(), "--variant-file", clean.toString(), "--prove");
        assertThat(ok.exit).as(ok.out + ok.err).isZero();
        assertThat(ok.out).contains("REFUSED").contains("Regression proof: the heap-order counterexample of cpudl/before reproduces "
                + "on before, is refused by clean, and heap-order HOLDS on clean exhaustively at the trace's bounds");
        Path mine = withDlZeroInsert(newVariant(dir, "cpudl", "mine"));
        Cli bad = Cli.run("replay", trace.toString(), "--variant-file", mine.toString());
        assertThat(bad.exit).isEqualTo(1);
        assertThat(bad.out).contains("REPRODUCED").contains("also happens on mine").doesNotContain("Regression proof");
    }

    @Test
    void verifyRunsTheAfterEntriesOnTheFileAndReportsWhereTheyDiffer(@TempDir Path dir) throws Exception {
        Path fix = newVariant(dir, "rq-lock", "my-fix");
        Cli ok = Cli.run("verify", "--variant-file", fix.toString(), "--baseline", ROOT.resolve("kcheck-baseline.json").toString(),
                "--quick", "--quiet", "--trace-dir", dir.resolve("ok").toString());
        assertThat(ok.exit).as(ok.out + ok.err).isZero();
        assertThat(ok.out).contains("variant my-fix of rq-lock from " + fix.toAbsolutePath().normalize() + " (sha256 " + sha256(fix) + ")")
                .contains("in place of rq-lock/after").contains("all 22 verdicts match the baseline");

        Path unordered = newVariant(dir, "rq-lock", "unordered", "--from", "mutant-unordered");
        Cli bad = Cli.run("verify", "--variant-file", unordered.toString(), "--baseline",
                ROOT.resolve("kcheck-baseline.json").toString(), "--quick", "--quiet", "--trace-dir", dir.resolve("traces").toString());
        assertThat(bad.exit).isEqualTo(1);
        assertThat(bad.out).contains("rq-lock/unordered/deadlock-free [cpus=3 rounds=2 lock=ticket]: expected HOLDS, got VIOLATED");
        JsonNode t = new ObjectMapper().readTree(dir.resolve("traces/rq-lock-unordered-deadlock-free.json").toFile());
        assertThat(t.get("variantFile").asText()).contains("Unordered.java (sha256 " + sha256(unordered) + ")");
    }

    @Test
    void benchMeasuresTheFilesVariant(@TempDir Path dir) throws Exception {
        Path clean = newVariant(dir, "cpudl", "clean");
        Cli c = Cli.run("bench", "--variant-file", clean.toString(), "--max-states", "500", "--json", "--quiet");
        assertThat(c.exit).as(c.err).isEqualTo(3);
        JsonNode doc = new ObjectMapper().readTree(c.out);
        assertThat(doc.get("outcome").asText()).isEqualTo("INCOMPLETE");
        JsonNode b = doc.get("benchmarks").get(0);
        assertThat(b.get("benchmark").asText()).isEqualTo("cpudl clean cpus=4");
        assertThat(b.get("sha256").asText()).isEqualTo(sha256(clean));
    }

    @Test
    void nothingIsWrittenIntoTheRepository(@TempDir Path dir) throws Exception {
        Map<String, Long> before = repositoryFiles();
        Path mine = withDlZeroInsert(newVariant(dir, "cpudl", "mine"));
        Cli.run("check", "cpudl", "--variant-file", mine.toString(), "--property", "heap-order", "--quiet");
        Path broken = dir.resolve("Broken.java");
        Files.writeString(broken, "public class Broken {", StandardCharsets.UTF_8);
        Cli.run("check", "cpudl", "--variant-file", broken.toString());
        Cli.run("check", "cpudl", "--variant-file", dir.resolve("Missing.java").toString());
        Cli.run("replay", ROOT.resolve("traces/corpus/cpudl-before-heap-order.json").toString(), "--variant-file", mine.toString());
        assertThat(repositoryFiles()).isEqualTo(before);
    }

    /** Every file of the repository outside build output, with its size. */
    private static Map<String, Long> repositoryFiles() throws IOException {
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(ROOT)) {
            s.filter(Files::isRegularFile).filter(p -> !ROOT.relativize(p).toString().contains("target"))
                    .filter(p -> !ROOT.relativize(p).startsWith(".git")).forEach(p -> {
                        try {
                            out.put(ROOT.relativize(p).toString(), Files.size(p));
                        } catch (IOException e) {
                            out.put(ROOT.relativize(p).toString(), -1L);
                        }
                    });
        }
        return out;
    }
}
