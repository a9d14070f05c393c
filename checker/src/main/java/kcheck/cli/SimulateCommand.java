package kcheck.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import kcheck.engine.Deadline;
import kcheck.engine.Durations;
import kcheck.model.ModelFactory;
import kcheck.model.ModelInputException;
import kcheck.model.Models;
import kcheck.model.SimulationProfile;
import kcheck.model.VariantInfo;
import kcheck.simulate.CostModel;
import kcheck.simulate.Report;
import kcheck.simulate.Simulation;
import kcheck.trace.TraceIO;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kcheck simulate MODEL}: the model's own steps under a stochastic scheduler with a cost
 * per step (statistical model checking): distributions with confidence intervals, per CPU id
 * where the measure has one, before vs after. Seeded: the seed is printed and {@code --seed}
 * repeats the numbers, with any number of workers.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, description = {"Timed, probabilistic simulation of a model's own steps: "
        + "distributions with confidence intervals, before vs after.", "", "Ctrl-C (SIGINT), SIGTERM or --time-limit stops it: "
        + "the figures are printed over the runs completed so far (those of --runs N with the same seed, N the runs completed), "
        + "marked INCOMPLETE, exit 3; a second signal quits at once."})
final class SimulateCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "MODEL", description = "rq-lock, cpudl, rwsem-owner, lb-redo")
    String model;

    @Option(names = "--variant", paramLabel = "V", description = "variant (repeatable; default: before and after)")
    List<String> variants = new ArrayList<>();

    @Option(names = "--cpus", paramLabel = "N[,N...]", split = ",", description = "CPU count, or several for a sweep "
            + "(default: 8, or what the model reaches)")
    List<Integer> cpus = new ArrayList<>();

    @Option(names = "--runs", paramLabel = "K", description = "runs per variant and CPU count (default 1000)")
    int runs = 1000;

    @Option(names = "--seed", paramLabel = "S", description = "seed (printed when not given; the same seed gives the same numbers)")
    Long seed;

    @Option(names = "--workload", paramLabel = "W", description = "workload (default: the model's first; --show-costs lists them)")
    String workload;

    @Option(names = "--cost", paramLabel = "FILE", description = "cost file: lines 'name = value [exp|fixed|uniform]'")
    Path costFile;

    @Option(names = "--set-cost", paramLabel = "NAME=VALUE", description = "one cost setting (repeatable; after --cost)")
    List<String> setCosts = new ArrayList<>();

    @Option(names = "--param", paramLabel = "KEY=VALUE", description = "model parameter (repeatable; overrides the workload's)")
    Map<String, String> params = new LinkedHashMap<>();

    @Option(names = "--workers", paramLabel = "N", description = "worker threads (default: available cores)")
    Integer workers;

    @Option(names = "--precision", paramLabel = "P", description = "half-width, relative to the estimate, for 'runs for +-P' "
            + "(default 0.05)")
    double precision = 0.05;

    @Option(names = "--max-steps", paramLabel = "N", description = "steps after which a run stops (default 10000000)")
    long maxSteps = Simulation.DEFAULT_MAX_STEPS;

    @Option(names = "--time-limit", paramLabel = "DURATION", description = "stop after this long (INCOMPLETE, exit 3) and print the "
            + "figures of the runs completed: 250ms, 90s, 5m, 1h")
    String timeLimit;

    @Option(names = "--json", description = "print one JSON document on stdout and nothing else there")
    boolean json;

    @Option(names = "--csv", paramLabel = "FILE", description = "write every distribution as CSV")
    Path csv;

    @Option(names = "--svg", paramLabel = "FILE", description = "write an SVG plot per measure (FILE, or FILE-MEASURE.svg when "
            + "there are several)")
    Path svg;

    @Option(names = "--force", description = "overwrite existing --csv / --svg files")
    boolean force;

    @Option(names = "--show-costs", description = "print the costs (values, distributions, sources) and workloads, and exit")
    boolean showCosts;

    @Option(names = "--quiet", description = "no progress on stderr")
    boolean quiet;

    @Option(names = "--jmh", description = "also measure the time per call of the model's reference code with JMH (cpudl)")
    boolean jmh;

    /** Models whose reference code has a JMH benchmark of one call on the simulated workload. */
    private static final Map<String, String> JMH = Map.of("cpudl", "kcheck.bench.CpudlCallBenchmark");

    @Override
    public Integer call() throws IOException {
        SimulationProfile profile = Simulation.profile(model);
        ModelFactory factory = Models.get(model);
        CostModel costs = CostModel.resolve(model, profile.costs(), costFile, setCosts);
        if (showCosts) {
            Report.costs(System.out, profile, costs);
            return ExitCodes.OK;
        }
        if (runs < 1 || runs > 100_000_000) {
            throw new UsageException("--runs must be in 1..100000000, got " + runs);
        }
        if (!(precision > 0 && precision < 1)) {
            throw new UsageException("--precision must be in (0, 1), got " + precision);
        }
        if (maxSteps < 1) {
            throw new UsageException("--max-steps must be at least 1, got " + maxSteps);
        }
        int w = workers == null ? Runtime.getRuntime().availableProcessors() : workers;
        if (w < 1 || w > 256) {
            throw new UsageException("--workers must be in 1..256, got " + w);
        }
        java.time.Duration limit = null;
        if (timeLimit != null) {
            try {
                limit = Durations.parse(timeLimit);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--time-limit: " + e.getMessage());
            }
        }
        String wl = Simulation.workload(profile, workload);
        if (jmh && !JMH.containsKey(model)) {
            throw new UsageException("--jmh: " + model + " has no JMH benchmark of its calls (only " + String.join(", ", JMH.keySet()) + ")");
        }
        List<String> vs = variants.isEmpty() ? defaultVariants(factory) : variants;
        for (String v : vs) {
            factory.variant(v);
        }
        List<Integer> counts = cpus.isEmpty() ? List.of(defaultCpus(profile, wl)) : cpus;
        long s = seed != null ? seed : System.nanoTime() & 0xFFFF_FFFFL;
        Map<String, Path> svgTargets = new LinkedHashMap<>();
        if (svg != null) {
            List<SimulationProfile.Measure> ms = profile.measures();
            for (SimulationProfile.Measure m : ms) {
                svgTargets.put(m.id(), ms.size() == 1 ? svg : named(svg, m.id()));
            }
        }
        List<Path> targets = new ArrayList<>(svgTargets.values());
        if (csv != null) {
            targets.add(csv);
        }
        checkWritable(targets);
        List<Simulation.Config> configs = new ArrayList<>();
        for (int c : counts) {
            for (String v : vs) {
                configs.add(new Simulation.Config(model, v, wl, c, params, runs, s, w, costs, maxSteps));
            }
        }
        for (Simulation.Config c : configs) {
            Simulation.instance(profile, c);
        }
        PrintStream err = System.err;
        if (!json && !quiet) {
            err.println("kcheck simulate: seed " + s + " (repeat with --seed " + s + ")");
        }
        Deadline deadline = new Deadline(limit, Interrupts::reason, System::nanoTime);
        List<Simulation.Result> results = new ArrayList<>();
        List<String> cutShort = new ArrayList<>();
        for (Simulation.Config c : configs) {
            Progress progress = new Progress(quiet, c.variant() + " cpus=" + c.cpus());
            Simulation.Result r = deadline.passed() ? null : Simulation.run(profile, c, progress, deadline);
            progress.done();
            if (r != null) {
                results.add(r);
            }
            int done = r == null ? 0 : r.config().runs();
            if (done < c.runs()) {
                cutShort.add(c.variant() + " cpus=" + c.cpus() + ": " + (done == 0 ? "no run completed" : done + " of " + c.runs() + " runs"));
            }
        }
        /* stopped (time limit, signal): what was found so far is printed, marked INCOMPLETE */
        boolean runsCut = !cutShort.isEmpty() && !results.isEmpty();
        List<Report.Timing> timings = jmh && cutShort.isEmpty() ? Jmh.run(JMH.get(model), vs, counts, json || quiet) : List.of();
        if (timings == null) {
            cutShort.add("the JMH timings");
            timings = List.of();
        }
        String stopped = cutShort.isEmpty() ? null : deadline.reason() + ": " + String.join("; ", cutShort);
        int exit = stopped == null ? ExitCodes.OK : ExitCodes.INCOMPLETE;
        Report.Outcome o = new Report.Outcome(profile, wl, s, runs, precision, costs, results,
                Report.compare(results, vs, precision), timings);
        if (json) {
            com.fasterxml.jackson.databind.node.ObjectNode doc = Json.document("simulate", stopped == null ? "OK" : "INCOMPLETE", exit);
            if (stopped != null) {
                doc.put("stopped", stopped);
            }
            doc.setAll(Report.json(o));
            System.out.println(TraceIO.mapper().writeValueAsString(doc));
            Session.documentPrinted = true;
        } else {
            Report.text(System.out, o);
            if (stopped != null) {
                System.out.println("INCOMPLETE, stopped by " + stopped + (runsCut ? ". The figures above are over the runs completed (the "
                        + "same as --runs with that number and this seed)." : "."));
            }
        }
        if (csv != null) {
            write(csv, Report.csv(o));
        }
        Map<String, String> plots = svg == null ? Map.of() : Report.svgs(o);
        List<Path> written = new ArrayList<>();
        for (Map.Entry<String, Path> e : svgTargets.entrySet()) {
            if (plots.containsKey(e.getKey())) {
                write(e.getValue(), plots.get(e.getKey()));
                written.add(e.getValue());
            }
        }
        if (!json) {
            if (csv != null) {
                System.out.println("CSV written to " + csv);
            }
            for (Path p : written) {
                System.out.println("SVG written to " + p);
            }
        }
        return exit;
    }

    /** 8 CPUs, or the most the profile simulates below that for this workload. */
    private static int defaultCpus(SimulationProfile p, String workload) {
        for (int n = 8; n > 1; n--) {
            try {
                p.params(workload, n);
                return n;
            } catch (ModelInputException e) {
                continue;
            }
        }
        return 1;
    }

    private static List<String> defaultVariants(ModelFactory f) {
        List<String> names = f.variants().stream().map(VariantInfo::name).toList();
        if (names.contains("before") && names.contains("after")) {
            return List.of("before", "after");
        }
        return List.of(names.get(0));
    }

    private static Path named(Path file, String measure) {
        String name = file.getFileName().toString();
        String stem = name.endsWith(".svg") ? name.substring(0, name.length() - 4) : name;
        return file.resolveSibling(stem + "-" + measure + ".svg");
    }

    private void checkWritable(List<Path> targets) {
        for (Path p : targets) {
            boolean isCsv = p.equals(csv);
            OutputFile.check(p, isCsv ? "--csv" : "--svg", force, isCsv ? "simulate.csv" : "simulate.svg");
        }
    }

    private static void write(Path p, String text) {
        try {
            Files.writeString(p, text);
        } catch (IOException e) {
            throw new UsageException("cannot write " + p + ": " + e.getMessage());
        }
    }

    /** Progress on stderr: in place on a terminal, a plain line every 10 s otherwise; silent with --quiet. */
    private static final class Progress implements Simulation.Listener {
        private final boolean quiet;
        private final boolean terminal = System.console() != null && !"dumb".equals(System.getenv("TERM"));
        private final String what;
        private double last;
        private boolean printed;

        Progress(boolean quiet, String what) {
            this.quiet = quiet;
            this.what = what;
        }

        @Override
        public void progress(int done, int total, double seconds) {
            if (quiet || seconds - last < (terminal ? 1 : 10) || done >= total) {
                return;
            }
            last = seconds;
            double rate = done / Math.max(1e-9, seconds);
            String line = String.format(Locale.ROOT, "simulate %s: %,d of %,d runs, %,.0f runs/s, %.0f s, about %.0f s left", what, done,
                    total, rate, seconds, (total - done) / Math.max(1e-9, rate));
            if (terminal) {
                System.err.print("\r" + line + "   ");
                printed = true;
            } else {
                System.err.println(line);
            }
            System.err.flush();
        }

        void done() {
            if (printed) {
                System.err.print("\r" + " ".repeat(100) + "\r");
                System.err.flush();
            }
        }
    }
}
