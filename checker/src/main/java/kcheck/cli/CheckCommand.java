package kcheck.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ObjectNode;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Strategy;
import kcheck.model.Model;
import kcheck.model.Models;
import kcheck.trace.Trace;
import kcheck.trace.TraceIO;
import kcheck.variantfile.VariantFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kcheck check MODEL ...}: explore one model instance and report verdicts, figures, traces. */
@Command(name = "check", description = "Check the properties of one model variant.")
final class CheckCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "MODEL", description = "rq-lock, cpudl, rwsem-owner, lb-redo")
    String model;

    @Option(names = "--variant", paramLabel = "V", description = "variant (default after)")
    String variant;

    @Option(names = "--variant-file", paramLabel = "FILE.java", description = "check your own variant: a Java source file "
            + "implementing the model's variant contract, compiled in memory (start one with 'kcheck variant new')")
    Path variantFile;

    @Option(names = "--property", paramLabel = "P", description = "property to check (repeatable; default all)")
    List<String> properties = new ArrayList<>();

    @Option(names = "--cpus", paramLabel = "N", description = "number of CPUs (same as --param cpus=N)")
    Integer cpus;

    @Option(names = "--param", paramLabel = "KEY=VALUE", description = "model parameter (repeatable)")
    Map<String, String> params = new LinkedHashMap<>();

    @Mixin
    SearchOptions search = new SearchOptions();

    @Mixin
    GuardOptions guard = new GuardOptions();

    @Option(names = "--trace-out", paramLabel = "FILE", description = "write the trace(s) as JSON")
    Path traceOut;

    @Option(names = "--force", description = "overwrite an existing --trace-out file")
    boolean force;

    @Option(names = "--full-states", description = "include the full state in every step of written traces")
    boolean fullStates;

    @Option(names = "--json", description = "print one JSON document on stdout and nothing else there")
    boolean json;

    @Option(names = "--quiet", description = "no progress line")
    boolean quiet;

    @Override
    public Integer call() throws IOException {
        guard.apply();
        Options options = search.toOptions();
        VariantFile vf = VariantFiles.load(variantFile, variant, Models.get(model));
        Model m = Instances.create(model, variant == null ? "after" : variant, vf, cpus, params, properties);
        List<Path> targets = traceTargets(m);
        Options run = options.withListener(ProgressPrinter.create(quiet));
        RunResult r = vf == null ? Engine.check(m, run) : vf.guard(run.timeLimit(), () -> Engine.check(m, run));
        ProgressPrinter.done(run.listener());
        return vf == null ? report(m, r, run, targets, null) : VariantFiles.guard(vf, () -> report(m, r, run, targets, vf));
    }

    /** Prints the result (text or the --json document), writes the traces; the exit code. */
    private int report(Model m, RunResult r, Options run, List<Path> targets, VariantFile vf) throws IOException {
        Long seed = run.strategy() == Strategy.RANDOM ? run.seed() : null;
        String label = vf == null ? null : vf.label();
        List<Trace> traces = Report.traces(r, seed, fullStates, label);
        Map<String, Path> written = write(traces, targets);
        int exit = ExitCodes.of(r.properties().stream().map(PropertyResult::verdict).toList());
        if (json) {
            ObjectNode doc = Json.document("check", ExitCodes.outcome(exit), exit);
            doc.setAll(Json.results(List.of(r), seed, written, vf));
            System.out.println(TraceIO.mapper().writeValueAsString(doc));
            Session.documentPrinted = true;
        } else {
            PrintStream out = System.out;
            Report.header(out, m, vf);
            Report.search(out, r);
            Report.verdicts(out, r);
            Report.metrics(out, r);
            Report.timelines(out, r, seed, !properties.isEmpty(), label);
            for (Map.Entry<String, Path> e : written.entrySet()) {
                out.println("trace of " + e.getKey() + " written to " + e.getValue());
            }
        }
        return exit;
    }

    /** File names the traces would go to; refused before the search if unwritable or existing without --force. */
    private List<Path> traceTargets(Model m) {
        if (traceOut == null) {
            return List.of();
        }
        Path abs = traceOut.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new UsageException("cannot write --trace-out " + traceOut + ": directory " + dir + " does not exist");
        }
        try {
            Files.delete(Files.createTempFile(dir, ".kcheck-probe-", ".json"));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            throw new UsageException("cannot write --trace-out " + traceOut + ": directory " + dir + " is not writable");
        }
        if (Files.isDirectory(abs)) {
            throw new UsageException("cannot write --trace-out " + traceOut + ": it is a directory");
        }
        List<Path> out = new ArrayList<>();
        out.add(abs);
        for (kcheck.model.Property p : m.properties()) {
            out.add(named(abs, p.id()));
        }
        if (!force) {
            for (Path p : out) {
                if (Files.exists(p)) {
                    throw new UsageException("--trace-out " + p + " exists: pass --force to overwrite it");
                }
            }
        }
        return out;
    }

    private static Path named(Path file, String property) {
        String name = file.getFileName().toString();
        String stem = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return file.resolveSibling(stem + "-" + property + ".json");
    }

    private Map<String, Path> write(List<Trace> traces, List<Path> targets) throws IOException {
        Map<String, Path> out = new LinkedHashMap<>();
        if (targets.isEmpty() || traces.isEmpty()) {
            return out;
        }
        for (Trace t : traces) {
            Path p = traces.size() == 1 ? targets.get(0) : named(targets.get(0), t.property());
            try {
                TraceIO.write(t, p);
            } catch (IOException e) {
                throw new UsageException("cannot write --trace-out " + p + ": " + e.getMessage());
            }
            out.put(t.property(), p);
        }
        return out;
    }
}
