package kcheck.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import kcheck.litmus.LitmusChecker;
import kcheck.litmus.LitmusException;
import kcheck.litmus.LitmusParser;
import kcheck.litmus.LitmusResult;
import kcheck.litmus.LitmusTest;
import kcheck.trace.TraceIO;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kcheck litmus FILE.litmus...}: decides C litmus tests under the Linux-kernel memory model, as
 * herd7 does with tools/memory-model's linux-kernel.cfg (module kcheck-litmus, docs/litmus.md): one line
 * per test with herd7's word, a witness execution for an allowed {@code exists}, and with {@code --expect}
 * a comparison with each file's {@code Result:} line.
 */
@Command(name = "litmus", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Decide C litmus tests under the Linux-kernel memory model (LKMM), as herd7 does with the kernel's "
            + "tools/memory-model: Always, Sometimes or Never for the final condition over the executions the model allows, "
            + "with herd7's \"Flag data-race\" for plain accesses, and a witness execution (each CPU's events, the rf and co "
            + "edges) when an exists condition is allowed. See docs/litmus.md."},
        footer = {"", "Exit codes: 0 every test decided (with --expect: each as its Result: line says); 1 with --expect, a test "
            + "decided otherwise than its Result: line; 2 a file that cannot be read or is not a supported litmus test (one "
            + "line: FILE:LINE: what).", "", "Examples:",
            "  kcheck litmus tools/memory-model/litmus-tests/MP+poonceonces.litmus",
            "  kcheck litmus --expect tools/memory-model/litmus-tests Documentation/litmus-tests",
            "  kcheck litmus --json --witness SB+fencembonceonces.litmus"})
final class LitmusCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "FILE.litmus", description = "C litmus tests (herd7's LKMM format), or directories "
            + "to search for *.litmus files")
    List<Path> files;

    @Option(names = "--expect", description = "compare each result with the file's Result: line (as the kernel's "
            + "judgelitmus.sh does: the word, DEADLOCK as no execution at all, DATARACE as a flagged data race); exit 1 if one differs")
    boolean expect;

    @Option(names = "--witness", description = "print a witness execution whenever the condition holds in one "
            + "(by default only for an exists condition that is allowed)")
    boolean witness;

    @Option(names = "--no-witness", description = "never print a witness")
    boolean noWitness;

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @Override
    public Integer call() {
        List<LitmusTest> tests = new ArrayList<>();
        for (Path f : expand(files)) {
            tests.add(parse(f));
        }
        List<LitmusResult> results = new ArrayList<>();
        boolean differs = false;
        for (LitmusTest t : tests) {
            LitmusResult r;
            try {
                r = LitmusChecker.decide(t);
            } catch (LitmusException e) {
                throw new UsageException(e.getMessage());
            }
            results.add(r);
            differs |= expect && !r.matchesExpectation();
            if (!json) {
                print(r);
            }
        }
        int exit = differs ? ExitCodes.VIOLATED : ExitCodes.OK;
        if (!json && expect && results.size() > 1) {
            long as = results.stream().filter(LitmusResult::matchesExpectation).count();
            System.out.println(results.size() + " tests: " + as + " as their Result: line says (or without one), "
                    + (results.size() - as) + " differ");
        }
        if (json) {
            printJson(results, exit);
        }
        return exit;
    }

    /** The files, each directory replaced by the *.litmus files under it, sorted. */
    private static List<Path> expand(List<Path> paths) {
        List<Path> out = new ArrayList<>();
        for (Path p : paths) {
            if (!Files.isDirectory(p)) {
                out.add(p);
                continue;
            }
            try (Stream<Path> s = Files.walk(p)) {
                s.filter(f -> f.toString().endsWith(".litmus") && Files.isRegularFile(f)).sorted().forEach(out::add);
            } catch (IOException e) {
                throw new UsageException("cannot read " + p + ": " + e.getMessage());
            }
        }
        if (out.isEmpty()) {
            throw new UsageException("no .litmus file under " + paths);
        }
        return out;
    }

    private static LitmusTest parse(Path f) {
        try {
            return LitmusParser.parse(f.toString(), Files.readString(f, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            throw new UsageException("cannot read " + f + ": no such file");
        } catch (IOException e) {
            throw new UsageException("cannot read " + f + ": " + e.getMessage());
        } catch (LitmusException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private boolean showWitness(LitmusResult r) {
        if (noWitness || r.witness() == null) {
            return false;
        }
        return witness || r.test().quantifier().equals("exists");
    }

    private void print(LitmusResult r) {
        StringBuilder b = new StringBuilder();
        b.append(r.test().name()).append("  ").append(r.word());
        if (r.dataRace()) {
            b.append("  Flag data-race");
        }
        b.append(String.format(Locale.ROOT, "  %d explored, %d allowed (%d satisfy, %d do not)  %.1f ms", r.explored(), r.allowed(),
                r.positive(), r.negative(), r.micros() / 1000.0));
        if (expect) {
            b.append(r.expectedLabel() == null ? "  no Result: line"
                    : "  Result: " + r.expectedLabel() + (r.matchesExpectation() ? " (as expected)" : " DIFFERS"));
        }
        System.out.println(b);
        if (showWitness(r)) {
            System.out.println("  witness (" + r.test().quantifier() + " " + r.test().conditionText() + "):");
            r.witness().lines().forEach(l -> System.out.println("  " + l));
        }
    }

    private void printJson(List<LitmusResult> results, int exit) {
        ObjectNode doc = Json.document("litmus", ExitCodes.outcome(exit), exit);
        ArrayNode arr = doc.putArray("results");
        for (LitmusResult r : results) {
            ObjectNode o = arr.addObject();
            o.put("file", r.test().file());
            o.put("name", r.test().name());
            o.put("result", r.word());
            o.put("quantifier", r.test().quantifier());
            o.put("condition", r.test().conditionText());
            o.put("validated", r.validated());
            o.put("explored", r.explored());
            o.put("allowed", r.allowed());
            o.put("positive", r.positive());
            o.put("negative", r.negative());
            o.put("dataRace", r.dataRace());
            o.put("millis", r.micros() / 1000.0);
            if (r.expectedLabel() != null) {
                o.put("expected", r.expectedLabel());
                o.put("asExpected", r.matchesExpectation());
            }
            if (showWitness(r)) {
                o.put("witness", r.witness());
            }
        }
        try {
            System.out.println(TraceIO.mapper().writeValueAsString(doc));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Session.documentPrinted = true;
    }
}
