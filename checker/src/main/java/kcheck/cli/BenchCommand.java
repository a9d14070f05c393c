package kcheck.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.RunResult;
import kcheck.model.Model;
import kcheck.model.Models;
import kcheck.trace.TraceIO;
import kcheck.variantfile.VariantFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kcheck bench}: a fixed set of exhaustive runs, each reported with distinct states,
 * states/s, bytes/state, wall time and workers. Speed is measured here (and by JMH), never by
 * timed unit tests.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmark the engine on a fixed set of model runs.")
final class BenchCommand implements Callable<Integer> {

    /**
     * One benchmark: a model instance checked for the named properties ({@code label} names the
     * set in the output), or for all its properties when the list is empty.
     */
    record Entry(String model, String variant, Map<String, String> params, String label, List<String> properties) {
        Entry(String model, String variant, Map<String, String> params) {
            this(model, variant, params, "", List.of());
        }

        String name() {
            StringBuilder b = new StringBuilder(model + " " + variant);
            new TreeMap<>(params).forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
            if (!label.isEmpty()) {
                b.append(" (").append(label).append(')');
            }
            return b.toString();
        }
    }

    /** rq-lock's four safety properties: no monitor state, so the reachable lock states alone. */
    static final List<String> RQ_SAFETY = List.of("mutual-exclusion", "deadlock-free", "holds-both-on-return", "return-contract");

    static final List<Entry> FIXED = List.of(
            new Entry("rq-lock", "after", Map.of("cpus", "4", "lock", "ticket")),
            new Entry("rq-lock", "after", Map.of("cpus", "5", "lock", "ticket"), "safety", RQ_SAFETY),
            new Entry("rq-lock", "after", Map.of("cpus", "5", "lock", "ticket"), "safety+fifo-entry",
                    concat(RQ_SAFETY, "fifo-entry")),
            new Entry("rq-lock", "after", Map.of("cpus", "5", "lock", "ticket", "fifo-monitor", "one"),
                    "safety+fifo-entry, one watched call", concat(RQ_SAFETY, "fifo-entry")),
            new Entry("rq-lock", "v6.12", Map.of("cpus", "4", "lock", "qspinlock"), "safety", RQ_SAFETY),
            new Entry("cpudl", "after", Map.of("cpus", "4")),
            new Entry("rwsem-owner", "after", Map.of()),
            /* issue 31: today's rwsem.c at its default bounds, every default property (two cycle analyses), and the
               three opt-in fair properties at 2 readers + 2 writers (three fair-cycle analyses of 22 M states) */
            new Entry("rwsem-owner", "v6.12", Map.of(), "defaults", List.of()),
            new Entry("rwsem-owner", "v6.12", Map.of(), "fair",
                    List.of("no-writer-starvation", "sleeping-writer-woken", "reader-stream-starvation")),
            new Entry("lb-redo", "before", Map.of()),
            new Entry("lb-redo", "before", Map.of("cpus", "16", "groups", "16", "scenario", "pinned", "hot", "none")),
            new Entry("lb-redo", "v6.12", Map.of("cpus", "6", "groups", "2", "topology", "cluster")));

    private int startup() throws Exception {
        if (jmh || variantFile != null || !models.isEmpty()) {
            throw new UsageException("--startup measures fixed short commands: it takes no MODEL, --variant-file or --jmh");
        }
        if (runs < 1 || runs > 1000) {
            throw new UsageException("--runs must be between 1 and 1000, got " + runs);
        }
        String self = launcher != null ? launcher : System.getenv("KCHECK_LAUNCHER");
        if (self == null) {
            String jar = BenchCommand.class.getProtectionDomain().getCodeSource().getLocation().getPath();
            if (!jar.endsWith(".jar")) {
                throw new UsageException("--startup: name the kcheck to measure with --launcher (this run was not started by the launcher or a jar)");
            }
            self = jar;
        }
        for (String k : against == null ? List.of(self) : List.of(self, against)) {
            if (!java.nio.file.Files.isRegularFile(java.nio.file.Path.of(k))) {
                throw new UsageException("--startup: no such file: " + k);
            }
        }
        return new StartupBench(self, against, runs).run(json, System.out);
    }

    private static List<String> concat(List<String> a, String b) {
        List<String> out = new ArrayList<>(a);
        out.add(b);
        return List.copyOf(out);
    }

    @Parameters(paramLabel = "MODEL", arity = "0..*", description = "only these models")
    List<String> models = new ArrayList<>();

    @Mixin
    SearchOptions search = new SearchOptions();

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @Option(names = "--variant-file", paramLabel = "FILE.java", description = "bench your own variant (a Java source file, see "
            + "'kcheck variant new') on its model's benchmark bounds")
    Path variantFile;

    @Option(names = "--quiet", description = "no progress line")
    boolean quiet;

    @Mixin
    GuardOptions guard = new GuardOptions();

    @Option(names = "--jmh", description = "run the JMH micro-benchmarks (state stores, successor generation) instead")
    boolean jmh;

    @Option(names = "--jmh-include", paramLabel = "REGEX", description = "only the JMH benchmarks matching REGEX")
    String jmhInclude = "kcheck\\.bench\\..*";

    @Option(names = "--startup", description = "measure start-up instead: the whole-process time of short commands (--version, "
            + "small rq-lock checks), each run a new process, with where the time went (JVM start, command line, model set-up, "
            + "search, report and exit)")
    boolean startup;

    @Option(names = "--against", paramLabel = "KCHECK|JAR", description = "with --startup: alternate every run with this other "
            + "kcheck (a launcher script, or a release jar run with java -jar) and give both medians and their ratio")
    String against;

    @Option(names = "--runs", paramLabel = "N", description = "with --startup: runs per command and side (default: ${DEFAULT-VALUE})")
    int runs = 11;

    @Option(names = "--launcher", paramLabel = "KCHECK", description = "with --startup: the kcheck to measure (default: the "
            + "launcher that started this run, or the release jar this runs from)")
    String launcher;

    @Override
    public Integer call() throws Exception {
        guard.apply();
        if (startup) {
            return startup();
        }
        if (against != null || launcher != null) {
            throw new UsageException("--against and --launcher go with --startup");
        }
        if (jmh) {
            org.openjdk.jmh.runner.options.Options o = new org.openjdk.jmh.runner.options.OptionsBuilder()
                    .include(jmhInclude).build();
            if (Jmh.runUntilStopped(o) == null) {
                System.err.println("kcheck bench: " + Interrupts.reason() + ": JMH stopped; the benchmarks above are those measured so far");
                return ExitCodes.INCOMPLETE;
            }
            return ExitCodes.OK;
        }
        for (String m : models) {
            Models.get(m);
        }
        VariantFile vf = variantFile == null ? null : VariantFile.load(variantFile, models.size() == 1 ? Models.get(models.get(0)) : null);
        List<Entry> entries = FIXED;
        if (vf != null) {
            if (!models.isEmpty() && !models.equals(List.of(vf.model().name()))) {
                throw new UsageException("--variant-file " + variantFile + " is a " + vf.model().name() + " variant: name no other model");
            }
            entries = new ArrayList<>();
            for (Entry e : FIXED) {
                if (e.model().equals(vf.model().name())) {
                    entries.add(new Entry(e.model(), vf.variantName(), e.params(), e.label(), e.properties()));
                }
            }
            if (entries.isEmpty()) {
                entries.add(new Entry(vf.model().name(), vf.variantName(), Map.of()));
            }
            if (!json) {
                System.out.println(VariantFiles.describe(vf));
            }
        }
        Options options = search.toOptions().withListener(ProgressPrinter.create(quiet));
        ArrayNode arr = JsonNodeFactory.instance.arrayNode();
        if (!json) {
            System.out.printf(Locale.ROOT, "%-52s %14s %14s %11s %9s %8s  %s%n", "benchmark", "states", "states/s",
                    "bytes/state", "wall s", "workers", "complete");
        }
        boolean allComplete = true;
        for (Entry e : entries) {
            if (Interrupts.reason() != null) {
                /* a signal: the benchmarks measured so far are printed, the rest not run */
                allComplete = false;
                break;
            }
            if (!models.isEmpty() && !models.contains(e.model())) {
                continue;
            }
            if (Models.all().stream().noneMatch(f -> f.name().equals(e.model()))) {
                continue;
            }
            Model m = Instances.create(e.model(), e.variant(), vf, null, e.params(), e.properties());
            long t0 = System.nanoTime();
            RunResult r = vf == null ? Engine.check(m, options) : vf.guard(options.timeLimit(), () -> Engine.check(m, options));
            double wall = (System.nanoTime() - t0) / 1e9;
            ProgressPrinter.done(options.listener());
            RunResult.Stats s = r.stats();
            allComplete &= s.complete();
            if (json) {
                ObjectNode o = arr.addObject();
                o.put("benchmark", e.name());
                if (vf != null) {
                    o.put("variantFile", vf.path().toString());
                    o.put("sha256", vf.sha256());
                }
                o.put("states", s.states());
                o.put("transitions", s.transitions());
                o.put("statesPerSecond", Math.round(s.statesPerSecond()));
                o.put("bytesPerState", Math.round(s.bytesPerState() * 10) / 10.0);
                o.put("linkBytesPerState", Math.round(s.linkBytesPerState() * 10) / 10.0);
                if (s.diskBytes() > 0) {
                    o.put("diskBytes", s.diskBytes());
                }
                o.put("wallSeconds", Math.round(wall * 1000) / 1000.0);
                o.put("workers", s.workers());
                o.put("store", s.store().name().toLowerCase(Locale.ROOT));
                o.put("complete", s.complete());
            } else {
                System.out.printf(Locale.ROOT, "%-52s %,14d %,14.0f %11.1f %9.2f %8d  %s%n", e.name(), s.states(),
                        s.statesPerSecond(), s.bytesPerState(), wall, s.workers(), s.complete() ? "yes" : "no (" + s.limit() + ")");
            }
        }
        if (Interrupts.reason() != null) {
            System.err.println("kcheck bench: " + Interrupts.reason() + ": the benchmarks above are those measured so far");
        }
        int exit = allComplete ? ExitCodes.OK : ExitCodes.INCOMPLETE;
        if (json) {
            ObjectNode doc = Json.document("bench", allComplete ? "COMPLETE" : "INCOMPLETE", exit);
            doc.set("benchmarks", arr);
            System.out.println(TraceIO.mapper().writeValueAsString(doc));
            Session.documentPrinted = true;
        }
        return exit;
    }
}
