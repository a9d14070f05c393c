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
    ClusterOptions clusterOptions = new ClusterOptions();

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
        Options options = search.toOptions();
        int nodes = clusterOptions.validate();
        ClusterSupport cluster = null;
        if (nodes > 0) {
            if (variantFile != null) {
                throw new UsageException("--cluster runs built-in variants only (the workers load the model by name): "
                        + "--variant-file is checked on one machine");
            }
            if (options.strategy() != Strategy.BFS || options.store() == kcheck.engine.StoreMode.DISK) {
                throw new UsageException("--cluster runs a breadth-first search in each node's RAM: it takes --strategy bfs "
                        + "and --store exact, fingerprint or compact");
            }
            cluster = ClusterSupport.require("--cluster");
        }
        VariantFile vf = VariantFiles.load(variantFile, variant, Models.get(model));
        Model m = Instances.create(model, variant == null ? "after" : variant, vf, cpus, params, properties);
        List<Path> targets = traceTargets(m);
        Options run = options.withListener(search.withCheckpointNotes(ProgressPrinter.create(quiet)));
        RunResult r;
        try {
            if (cluster != null) {
                r = cluster.check(m, run, clusterOptions.cluster, nodes);
            } else {
                r = vf == null ? Engine.check(m, run) : vf.guard(() -> Engine.check(m, run));
            }
        } catch (kcheck.engine.CheckpointException e) {
            throw new UsageException(e.getMessage());
        }
        ProgressPrinter.done(run.listener());
        Long seed = run.strategy() == Strategy.RANDOM ? run.seed() : null;
        String label = vf == null ? null : vf.label();
        List<Trace> traces = Report.traces(r, seed, fullStates, label);
        Map<String, Path> written = write(traces, targets);
        if (json) {
            System.out.println(TraceIO.mapper().writeValueAsString(Json.results(List.of(r), seed, written, vf)));
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
        return ExitCodes.of(r.properties().stream().map(PropertyResult::verdict).toList());
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
