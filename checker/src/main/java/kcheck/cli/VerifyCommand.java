package kcheck.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

import kcheck.engine.Options;
import kcheck.gate.Baseline;
import kcheck.gate.HtmlReport;
import kcheck.gate.JUnitXml;
import kcheck.gate.Markdown;
import kcheck.gate.Verification;
import kcheck.report.TraceFactory;
import kcheck.trace.TimelineRenderer;
import kcheck.trace.Trace;
import kcheck.variantfile.VariantFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kcheck verify}: run the catalogue in the baseline file, print the verdict table, exit 0
 * only if every verdict equals its baseline.
 */
@Command(name = "verify", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the baseline catalogue (every model, variant, bound and property with its expected verdict, "
            + "including before-variants and seeded mutants that must stay VIOLATED) and compare every verdict with it: the "
            + "CI gate. The baseline and the regression corpus are built into kcheck, so verify works from any directory; "
            + "--baseline runs another file. Nothing is written unless asked (--trace-dir, --junit-xml, --markdown, --html)."},
        footer = {"", "Exit codes: 0 every verdict as the baseline; 1 a verdict differs (also one found before Ctrl-C); 2 "
            + "usage or input error; 3 interrupted before every verdict was computed, none differing so far.", "", "Examples:", "  kcheck verify", "  kcheck verify --quick",
            "  kcheck verify --junit-xml kcheck.xml --markdown kcheck.md --html kcheck.html --trace-dir traces/",
            "  kcheck verify --variant-file /tmp/patch/Mine.java"})
final class VerifyCommand implements Callable<Integer> {

    @Option(names = "--baseline", paramLabel = "FILE", description = "expected verdicts (default: the baseline built into this "
            + "kcheck, the repository's kcheck-baseline.json when it was built)")
    Path baseline;

    @Option(names = "--junit-xml", paramLabel = "FILE", description = "write JUnit XML, one testcase per entry")
    Path junitXml;

    @Option(names = "--markdown", paramLabel = "FILE", description = "write a markdown summary")
    Path markdown;

    @Option(names = "--trace-dir", paramLabel = "DIR", description = "write each violation's trace into DIR (created if "
            + "missing; a trace of the same name there is kept unless --force); without it no trace is written")
    Path traceDir;

    @Option(names = "--html", paramLabel = "FILE", description = "write an HTML report: the verdict table and an SVG plot of "
            + "every metric per component and variant")
    Path html;

    @Option(names = "--variant-file", paramLabel = "FILE.java", description = "verify your own variant (a Java source file, see "
            + "'kcheck variant new'): the baseline entries of its model's --as variant, run on the file's variant, must keep "
            + "their expected verdicts")
    Path variantFile;

    @Option(names = "--as", paramLabel = "V", description = "with --variant-file: whose baseline entries the file stands in "
            + "for (default after)")
    String as;

    @Option(names = "--quick", description = "smaller bounds for pre-commit use (stated in the output)")
    boolean quick;

    @Option(names = "--corpus", paramLabel = "DIR", description = "(re)write the regression corpus: one trace per expected "
            + "violation of a non-mutant variant, named MODEL-VARIANT-PROPERTY.json")
    Path corpus;

    @Option(names = "--workers", paramLabel = "N", description = "BFS worker threads (default: available cores)")
    Integer workers;

    @Option(names = "--quiet", description = "no progress line")
    boolean quiet;

    @Option(names = "--force", description = "overwrite existing files (never a directory): --junit-xml, --markdown, --html and the "
            + "traces --trace-dir and --corpus write")
    boolean force;

    @Mixin
    GuardOptions guard = new GuardOptions();

    /** The trace files this run has written (rows may share a name). */
    private final java.util.Set<Path> saved = new java.util.HashSet<>();

    @Option(names = "--shard", paramLabel = "I/N", description = "run only shard I of N (1-based) for a CI matrix: the "
            + "baseline's searches dealt round-robin, so shards 1..N hold every entry exactly once")
    String shard;

    @Option(names = "--merge-junit-xml", paramLabel = "FILE", description = "merge the --junit-xml reports of shard runs "
            + "(repeatable) into the --junit-xml file; runs no search")
    List<Path> mergeJunit = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        guard.apply();
        if (!mergeJunit.isEmpty()) {
            return merge();
        }
        Baseline b = baseline == null ? Baseline.builtIn() : Baseline.read(baseline);
        int[] sh = shard == null ? null : parseShard(shard);
        if (sh != null) {
            int all = b.entries().size();
            b = b.shard(sh[0], sh[1], quick);
            System.out.println("kcheck verify: shard " + sh[0] + "/" + sh[1] + ": " + b.entries().size() + " of " + all
                    + " entries");
        }
        if (variantFile == null && as != null) {
            throw new UsageException("--as applies only with --variant-file");
        }
        if (variantFile != null && corpus != null) {
            throw new UsageException("--corpus rewrites the built-in variants' regression corpus: it does not apply with --variant-file");
        }
        VariantFile vf = variantFile == null ? null : VariantFile.load(variantFile, null);
        String standIn = as == null ? "after" : as;
        if (vf != null) {
            b = standIn(b, vf, standIn);
        }
        OutputFile.checkWritable(junitXml, "--junit-xml", "kcheck.xml");
        OutputFile.checkWritable(markdown, "--markdown", "kcheck.md");
        OutputFile.checkWritable(html, "--html", "kcheck.html");
        if (corpus != null && !Files.isDirectory(corpus)) {
            throw new UsageException("--corpus " + corpus + ": directory does not exist");
        }
        if (!force) {
            refuseOverwrite(b, quick);
        }
        Options o = Options.defaults().withWorkers(workers != null ? workers : Runtime.getRuntime().availableProcessors())
                .withListener(ProgressPrinter.create(quiet));
        if (workers != null && (workers < 1 || workers > 256)) {
            throw new UsageException("--workers must be in 1..256, got " + workers);
        }
        if (vf != null) {
            System.out.println("kcheck verify: " + VariantFiles.describe(vf) + ", in place of " + vf.model().name() + "/" + standIn
                    + " (expected verdicts: " + standIn + "'s)");
        }
        System.out.println("kcheck verify: " + b.entries().size() + " entries from " + b.file()
                + (quick ? " (QUICK bounds: smaller than the baseline's, for pre-commit use)" : ""));
        System.out.printf(Locale.ROOT, "%-12s %-26s %-22s %-24s %-10s %-10s %12s %8s  %s%n", "model", "property", "variant",
                "params", "verdict", "expected", "states", "seconds", "trace");
        Map<Verification.Row, String> traceFiles = new IdentityHashMap<>();
        Path traces = traceDir;
        if (traces != null) {
            try {
                Files.createDirectories(traces);
            } catch (IOException e) {
                throw new UsageException("cannot create --trace-dir " + traces + ": " + e.getMessage());
            }
        }
        String label = vf == null ? null : vf.label();
        Consumer<Verification.Row> each = row -> {
            ProgressPrinter.done(o.listener());
            String file = traces == null ? null : writeTrace(row, traces, true, label, "--trace-dir");
            if (corpus != null && row.matches() && row.entry().expected() == kcheck.engine.Verdict.VIOLATED
                    && !kcheck.model.Models.get(row.entry().model()).variant(row.entry().variant()).mutant()) {
                file = writeTrace(row, corpus, false, null, "--corpus");
            }
            if (file != null) {
                traceFiles.put(row, file);
            }
            System.out.printf(Locale.ROOT, "%-12s %-26s %-22s %-24s %-10s %-10s %,12d %8.2f  %s%s%n", row.entry().model(),
                    row.entry().property(), row.entry().variant(), shortParams(row), row.shown(),
                    row.expectedShown(), row.run().stats().states(), row.run().stats().seconds(),
                    file == null ? "" : file, row.matches() ? "" : undecided(row) ? "   (interrupted)" : "   <-- DIFFERS");
        };
        Baseline run = b;
        List<Verification.Row> rows = vf == null ? Verification.run(run, quick, o, each)
                : vf.guard(() -> Verification.run(run, quick, o, each, (f, v, p, props) -> vf.create(p, props)));
        if (junitXml != null) {
            OutputFile.write(junitXml, JUnitXml.render(rows, this::timeline, quick), force, "--junit-xml");
        }
        if (markdown != null) {
            OutputFile.write(markdown, Markdown.render(rows, traceFiles, quick), force, "--markdown");
        }
        if (html != null) {
            OutputFile.write(html, HtmlReport.render(rows, traceFiles, quick, kcheck.report.BuildInfo.label()), force, "--html");
        }
        List<String> differ = new ArrayList<>();
        for (Verification.Row r : rows) {
            if (!r.matches() && !undecided(r)) {
                differ.add(r.entry().name() + ": expected " + r.expectedShown() + ", got " + r.shown());
            }
        }
        /* only a signal leaves entries undecided; a verdict that differs stays exit 1 however the run ended */
        long decided = rows.stream().filter(r -> !undecided(r)).count();
        boolean stopped = decided < b.entries().size();
        if (stopped) {
            System.out.println("kcheck verify: " + Interrupts.reason() + " after " + decided + " of " + b.entries().size()
                    + " entries: not every verdict was computed");
        }
        if (differ.isEmpty() && stopped) {
            return ExitCodes.INCOMPLETE;
        }
        if (differ.isEmpty()) {
            System.out.println("all " + rows.size() + " verdicts match the baseline");
            return ExitCodes.OK;
        }
        System.out.println(differ.size() + " verdict(s) differ from the baseline:");
        differ.forEach(d -> System.out.println("  " + d));
        return ExitCodes.VIOLATED;
    }

    /** A row a signal left INCOMPLETE: not a verdict that differs, but one not computed. */
    private static boolean undecided(Verification.Row r) {
        return Interrupts.reason() != null && r.result().verdict() == kcheck.engine.Verdict.INCOMPLETE && !r.matches();
    }

    static int[] parseShard(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,4})/(\\d{1,4})").matcher(text.trim());
        if (!m.matches()) {
            throw new UsageException("--shard must be I/N (e.g. 2/3), got '" + text + "'");
        }
        int i = Integer.parseInt(m.group(1));
        int n = Integer.parseInt(m.group(2));
        if (n < 1 || i < 1 || i > n) {
            throw new UsageException("--shard " + text + ": I must be in 1..N and N at least 1");
        }
        return new int[] {i, n};
    }

    private int merge() throws IOException {
        if (junitXml == null) {
            throw new UsageException("--merge-junit-xml needs --junit-xml FILE to write the merged report to");
        }
        if (shard != null || variantFile != null || corpus != null) {
            throw new UsageException("--merge-junit-xml runs no search: it does not take --shard, --variant-file or --corpus");
        }
        OutputFile.check(junitXml, "--junit-xml", force, "kcheck.xml");
        for (Path p : mergeJunit) {
            if (!Files.isRegularFile(p)) {
                throw new UsageException("--merge-junit-xml " + p + ": no such file");
            }
            if (p.toAbsolutePath().normalize().equals(junitXml.toAbsolutePath().normalize())) {
                throw new UsageException("--merge-junit-xml " + p + " is also the --junit-xml output");
            }
        }
        String merged;
        try {
            merged = JUnitXml.merge(mergeJunit);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Files.writeString(junitXml, merged);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("tests=\"(\\d+)\" failures=\"(\\d+)\"").matcher(merged);
        m.find();
        System.out.println("merged " + mergeJunit.size() + " reports into " + junitXml + ": " + m.group(1) + " test cases, "
                + m.group(2) + " failures");
        return m.group(2).equals("0") ? ExitCodes.OK : ExitCodes.VIOLATED;
    }

    private static String shortParams(Verification.Row r) {
        StringBuilder b = new StringBuilder();
        r.params().forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return b.toString();
    }

    /**
     * Writes the row's trace into {@code dir} ({@code withParams}: the name carries the
     * non-default parameters). Rows whose traces share a name (--corpus names them without
     * parameters) replace this run's own file: the last one is kept.
     */
    private String writeTrace(Verification.Row row, Path dir, boolean withParams, String variantFile, String option) {
        if (row.result().trace() == null) {
            return null;
        }
        Path p = traceFile(dir, row.entry(), row.params(), withParams);
        Trace t = TraceFactory.withVariantFile(TraceFactory.of(row.run().model(), row.result(), null, null, false,
                row.result().verdict().name()), variantFile);
        boolean ours = !saved.add(p.toAbsolutePath().normalize());
        OutputFile.write(p, t, force || ours, option);
        return p.toString();
    }

    /** Where an entry's trace goes in {@code dir}: MODEL-VARIANT[-PARAMVALUE...]-PROPERTY.json. */
    private static Path traceFile(Path dir, Baseline.Entry e, Map<String, String> params, boolean withParams) {
        StringBuilder name = new StringBuilder(e.model() + "-" + e.variant());
        if (withParams) {
            for (kcheck.model.ParamSpec p : kcheck.model.Models.get(e.model()).params()) {
                String v = params.get(p.name());
                if (v != null && !v.equals(p.defaultValue())) {
                    name.append('-').append(p.name()).append(v);
                }
            }
        }
        return dir.resolve(name + "-" + e.property() + ".json");
    }

    /**
     * The baseline entries of {@code model/standIn}, each now naming the file's variant: the
     * file must give the verdicts expected of the variant it stands in for.
     */
    private static Baseline standIn(Baseline b, VariantFile vf, String standIn) {
        vf.model().variant(standIn);
        List<Baseline.Entry> entries = new ArrayList<>();
        for (Baseline.Entry e : b.entries()) {
            if (e.model().equals(vf.model().name()) && e.variant().equals(standIn)) {
                entries.add(new Baseline.Entry(e.model(), vf.variantName(), e.params(), e.property(), e.expected(), e.quick(),
                        "as " + standIn + (e.note().isEmpty() ? "" : "; " + e.note())));
            }
        }
        if (entries.isEmpty()) {
            throw new UsageException("baseline " + b.file() + " has no entries for " + vf.model().name() + "/" + standIn);
        }
        return new Baseline(b.file(), entries);
    }

    private String timeline(Verification.Row row) {
        if (row.result().trace() == null) {
            return row.result().message();
        }
        return TimelineRenderer.render(TraceFactory.of(row.run().model(), row.result(), null, null, false,
                row.result().verdict().name()));
    }

    /**
     * Nothing the user saved is overwritten without --force: the report files and every trace this
     * run could write (into --corpus, --trace-dir), checked before the run.
     */
    private void refuseOverwrite(Baseline b, boolean quickMode) {
        List<Path> targets = new ArrayList<>();
        if (junitXml != null) {
            targets.add(junitXml);
        }
        if (markdown != null) {
            targets.add(markdown);
        }
        if (html != null) {
            targets.add(html);
        }
        for (Baseline.Entry e : b.entries()) {
            if (corpus != null && e.expected() == kcheck.engine.Verdict.VIOLATED
                    && !kcheck.model.Models.get(e.model()).variant(e.variant()).mutant()) {
                targets.add(traceFile(corpus, e, e.params(), false));
            }
            if (traceDir != null) {
                targets.add(traceFile(traceDir, e, kcheck.model.Models.get(e.model()).params(e.effectiveParams(quickMode)).asMap(), true));
            }
        }
        List<Path> existing = targets.stream().distinct().filter(Files::exists).toList();
        if (!existing.isEmpty()) {
            throw new UsageException(existing.get(0) + " exists" + (existing.size() > 1 ? " (and " + (existing.size() - 1)
                    + " more file" + (existing.size() > 2 ? "s" : "") + " this run would write)" : "") + ": pass --force to overwrite");
        }
    }

}
