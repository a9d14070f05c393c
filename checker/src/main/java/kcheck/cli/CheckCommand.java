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
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Check the properties of one model variant: explore every reachable state (within the limits), "
            + "print each property's verdict, the figures of the search, each metric's maxima and the timeline of every "
            + "violation.", "", "Without --property the default selection is checked: every property the variant is expected "
            + "to satisfy. Opt-in properties (documented false claims, known gaps of the fixed code; 'kcheck list' marks "
            + "them) are checked only when named; '--property all' checks every property.",
            "", "Progress goes to stderr: a line rewritten in place on a terminal, a plain line every 10 s otherwise (CI "
            + "logs). Ctrl-C (SIGINT) or SIGTERM stops the run in whatever phase it is (search, cycle analysis, traces) and "
            + "prints the verdicts so far, with the traces of the violations found (in every --format), then exits 1 if a "
            + "violation was found, else 3; a second one quits at once. --time-limit covers the same phases."},
        footer = {"", "Exit codes: 0 every checked property holds; 1 a property is violated (however the run ended); 2 usage "
            + "or input error; 3 a limit was hit, or the run was interrupted, before every property was decided.", "", "Examples:",
            "  kcheck check rq-lock --variant before --cpus 2 --property fifo-entry",
            "  kcheck check rq-lock --variant before --cpus 2 --property fifo-entry --format mail",
            "  kcheck check rq-lock --variant after --param lock=tas --cpus 2 --trace-out t.json",
            "  kcheck check rq-lock --variant v6.12 --param lock=qspinlock --param memory-model=lkmm --cpus 3",
            "  kcheck check cpudl --variant-file /tmp/patch/Mine.java --property heap-order",
            "  kcheck check rwsem-owner --variant after --property wasted-spins --metrics-csv spins.csv"})
final class CheckCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "MODEL", description = "the model: rq-lock, cpudl, rwsem-owner, lb-redo, dl-push ('kcheck list' "
            + "shows their variants, parameters and properties)")
    String model;

    @Option(names = "--variant", paramLabel = "V", description = "variant (default after; for a model without one, its first variant: dl-push's v6.12-fixed)")
    String variant;

    @Option(names = "--kernel-tree", paramLabel = "DIR", description = "rq-lock, cpudl: check this kernel tree's own C "
            + "(rq-lock: the double_lock_balance family of kernel/sched/sched.h and core.c; cpudl: kernel/sched/cpudeadline.c), compiled "
            + "with gcc, with no Java port")
    Path kernelTree;

    @Option(names = "--variant-file", paramLabel = "FILE.java", description = "check your own variant: a Java source file "
            + "implementing the model's variant contract, compiled in memory (start one with 'kcheck variant new')")
    Path variantFile;

    @Option(names = "--property", paramLabel = "P", description = "property to check (repeatable; default: every property "
            + "that is not opt-in; 'all': every property)")
    List<String> properties = new ArrayList<>();

    @Option(names = "--cpus", paramLabel = "N", description = "number of CPUs (same as --param cpus=N)")
    Integer cpus;

    @Option(names = "--param", paramLabel = "KEY=VALUE", description = "model parameter (repeatable); memory-model=lkmm checks "
            + "rq-lock's qspinlock under the Linux-kernel memory model instead of sequential consistency (docs/lkmm-models.md)")
    Map<String, String> params = new LinkedHashMap<>();

    @Mixin
    SearchOptions search = new SearchOptions();

    @Mixin
    GuardOptions guard = new GuardOptions();

    @Mixin
    ClusterOptions clusterOptions = new ClusterOptions();

    @Option(names = "--trace-out", paramLabel = "FILE", description = "write the trace as JSON to FILE (with several traces: "
            + "the first to FILE, each other one to FILE-PROPERTY.json, all named in the output; violations first, then the "
            + "witness of each metric named with --property)")
    Path traceOut;

    @Option(names = "--metrics-csv", paramLabel = "FILE", description = "write each metric's maximum per component as CSV "
            + "(model, variant, params, metric, component, max, saturated, bound, verdict, complete, witness_steps)")
    Path metricsCsv;

    @Option(names = "--force", description = "overwrite existing --trace-out / --metrics-csv files")
    boolean force;

    @Option(names = "--full-states", description = "include the full state in every step of written traces")
    boolean fullStates;

    @Option(names = "--json", description = "print one JSON document on stdout and nothing else there (same as --format json)")
    boolean json;

    @Option(names = "--format", paramLabel = "text|mail|json", description = "output: text (default), mail (a plain-text report "
            + "of at most 72 columns to paste under a patch: verdicts, each violation's steps one per line, legend, reproduce "
            + "command with the variant's SHA-256), json")
    String format = "text";

    @Option(names = "--width", paramLabel = "N", description = "wrap timelines to N columns (default: $COLUMNS, else the "
            + "terminal's width, else 100)")
    Integer width;

    @Option(names = "--quiet", description = "no header before the search, no progress")
    boolean quiet;

    @Option(names = "--progress-interval", hidden = true, description = "seconds between progress lines when stderr is not a terminal")
    double progressInterval = ProgressPrinter.LOG_INTERVAL;

    @Override
    public Integer call() throws IOException {
        StartupClock.mark("parsed");
        guard.apply();
        String fmt = json ? "json" : format.toLowerCase(java.util.Locale.ROOT);
        if (!fmt.equals("text") && !fmt.equals("mail") && !fmt.equals("json")) {
            throw new UsageException("--format must be text, mail or json, got '" + format + "'");
        }
        if (json && !format.equals("text") && !format.equals("json")) {
            throw new UsageException("--json and --format " + format + " exclude each other");
        }
        if (width != null && width < kcheck.trace.TimelineRenderer.MIN_WIDTH) {
            throw new UsageException("--width must be at least " + kcheck.trace.TimelineRenderer.MIN_WIDTH + ", got " + width);
        }
        Options options = search.toOptions();
        if (LkmmRun.asked(params)) {
            if (kernelTree != null) {
                throw new UsageException("--kernel-tree runs the tree's C under sequential consistency: --param memory-model=lkmm does not "
                        + "apply");
            }
            if (clusterOptions.validate() > 0) {
                throw new UsageException("--param memory-model=lkmm runs on one machine: --cluster does not apply");
            }
            return LkmmRun.check(model, variant, variantFile, cpus, params, properties, options.timeLimit(), fmt, quiet, traceOut,
                    metricsCsv);
        }
        int nodes = clusterOptions.validate();
        ClusterSupport cluster = null;
        if (nodes > 0 && kernelTree != null) {
            throw new UsageException("--cluster runs built-in variants only: --kernel-tree is checked on one machine");
        }
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
        VariantFile vf = kernelTree != null ? null : VariantFiles.load(variantFile, variant, Models.get(model));
        Model m = kernelTree != null ? kcheck.conform.CModels.create(model, kernelTree, variant, variantFile, cpus, params, properties)
                : Instances.create(model, variant == null ? defaultVariant(model) : variant, vf, cpus, params, properties);
        StartupClock.mark("model");
        List<Path> targets = traceTargets(m);
        MetricsCsv.checkTarget(metricsCsv, force);
        Options run = options.withListener(search.withCheckpointNotes(ProgressPrinter.create(quiet, progressInterval)));
        int cols = width != null ? width : Terminal.width();
        if (!quiet) {
            /* the header before the search: on stdout for text, on stderr when stdout carries a document (json, mail) */
            PrintStream head = fmt.equals("text") ? System.out : System.err;
            Report.header(head, m, vf);
            Report.plan(head, m, run, properties.isEmpty(), fmt.equals("text") ? cols : kcheck.trace.MailRenderer.WIDTH);
            head.flush();
        }
        RunResult r;
        try {
            if (cluster != null) {
                r = cluster.check(m, run, clusterOptions.cluster, nodes);
            } else {
                r = vf == null ? Engine.check(m, run) : vf.guard(run.timeLimit(), () -> Engine.check(m, run));
            }
        } catch (kcheck.engine.CheckpointException e) {
            throw new UsageException(e.getMessage());
        }
        ProgressPrinter.done(run.listener());
        StartupClock.mark("searched");
        return vf == null ? report(m, r, run, targets, null, fmt, cols)
                : VariantFiles.guard(vf, () -> report(m, r, run, targets, vf, fmt, cols));
    }

    /** Prints the result (text, mail or the --json document), writes the traces; the exit code. */
    private int report(Model m, RunResult r, Options run, List<Path> targets, VariantFile vf, String fmt, int cols) throws IOException {
        String interrupted = Interrupts.reason();
        Long seed = run.strategy() == Strategy.RANDOM ? run.seed() : null;
        String label = vf == null ? null : vf.label();
        /* a metric's witness is shown and written only for a metric named with --property (a trace file is for a violation) */
        java.util.Set<String> witnesses = java.util.Set.copyOf(properties);
        List<Trace> traces = Report.traces(r, seed, fullStates, witnesses, label);
        Map<String, Path> written = write(traces, targets);
        if (metricsCsv != null) {
            MetricsCsv.write(metricsCsv, r, force);
        }
        /* from the verdicts however the run ended: a violation found before a signal or a limit is exit 1 */
        int exit = ExitCodes.of(r.properties().stream().map(PropertyResult::verdict).toList());
        PrintStream out = System.out;
        if (fmt.equals("json")) {
            ObjectNode doc = Json.document("check", ExitCodes.outcome(exit), exit);
            doc.setAll(Json.results(List.of(r), seed, written, vf));
            out.println(TraceIO.mapper().writeValueAsString(doc));
            Session.documentPrinted = true;
        } else if (fmt.equals("mail")) {
            out.print(MailReport.render(m, r, vf, seed, traces, properties));
        } else {
            if (quiet) {
                Report.header(out, m, vf);
                Report.plan(out, r);
            }
            Report.figures(out, r);
            Report.verdicts(out, r);
            Report.metrics(out, r);
            Report.timelines(out, r, seed, witnesses, label, cols);
            for (Map.Entry<String, Path> e : written.entrySet()) {
                boolean witness = r.property(e.getKey()).verdict() != kcheck.engine.Verdict.VIOLATED;
                out.println((witness ? "witness of the maximum " : "trace of ") + e.getKey() + " written to " + e.getValue());
            }
            if (metricsCsv != null) {
                out.println("metrics written to " + metricsCsv);
            }
        }
        if (interrupted != null && r.properties().stream().anyMatch(p -> p.verdict() == kcheck.engine.Verdict.INCOMPLETE)) {
            System.err.println("kcheck: " + interrupted + ": " + (r.stats().complete() ? "the analysis after the search was stopped"
                    : "the search was not exhaustive") + "; the verdicts above are those found so far");
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

    private Map<String, Path> write(List<Trace> traces, List<Path> targets) {
        Map<String, Path> out = new LinkedHashMap<>();
        if (targets.isEmpty() || traces.isEmpty()) {
            return out;
        }
        boolean first = true;
        for (Trace t : traces) {
            /* the first trace goes to the name asked for (so 'kcheck render FILE' works next), the others beside it */
            Path p = first ? targets.get(0) : named(targets.get(0), t.property());
            first = false;
            OutputFile.write(p, t, force, "--trace-out");
            out.put(t.property(), p);
        }
        return out;
    }

    /** {@code after}, or for a model that has no variant of that name its first variant. */
    static String defaultVariant(String model) {
        List<kcheck.model.VariantInfo> vs = Models.get(model).variants();
        return vs.isEmpty() || vs.stream().anyMatch(v -> v.name().equals("after")) ? "after" : vs.get(0).name();
    }
}
