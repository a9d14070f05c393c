package kcheck.properties.power;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.gate.Baseline;
import kcheck.model.Metric;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.Property;
import kcheck.model.PropertyInfo;
import kcheck.model.VariantInfo;
import kcheck.properties.gen.InputSearch;

/**
 * What each property catches, computed from the model catalogues and the baseline, so that
 * variants and properties added later are measured without touching this code.
 *
 * <p><b>Exhaustive</b>: for every model, every seeded mutant ({@code mutant-*}) and real kernel bug
 * ({@code bug-*}) its catalogue lists is checked against every property of the model (opt-in ones
 * included; metrics without a bound are measurements and are left out), exhaustively, once per
 * parameter set the baseline gives that variant (its bounds; a variant without a baseline entry
 * is an error: nothing would say what it must catch). A cell is caught if some parameter set
 * violates the property. The baseline's VIOLATED entries of these variants are the pairs a
 * property must catch.
 *
 * <p><b>Generated</b>: every search of {@link GeneratedSuites} runs on {@code before} and on every
 * mutant and bug variant of its model, {@value #RUNS} times from different seeds (the fraction of
 * runs that find a violation), and single inputs are checked one by one (the per-input hit rate:
 * near 1 the bug is hit by any input, below 1 % finding it is a search). The suites' "finds the
 * bug" searches ({@link GeneratedSuites#FINDS}) run on their target variant the same way, with
 * {@value #FIND_SAMPLES} single inputs.
 *
 * <p>Every seed is fixed ({@value #SEED} and offsets from it), so the table is the same on every
 * machine and can be committed; it does not follow {@code -Dkcheck.seed}.
 */
final class PowerTable {
    static final long SEED = 20_240_611L;
    static final int RUNS = 5;
    /** Single inputs checked for the per-input rate of a search the suites present as a real one. */
    static final int FIND_SAMPLES = 2000;
    /** A search is a real search where single inputs find the bug less often than this. */
    static final double REAL_SEARCH = 0.01;
    /**
     * Each run stops at this many states, a bound every machine reaches at the same point (the
     * table is compared as text), so whether a run is exhaustive does not depend on the machine's
     * speed; the time limit is only a backstop for a machine far slower than CI's.
     */
    static final long SEARCH_MAX_STATES = 50_000_000L;
    private static final Duration SEARCH_TIME_LIMIT = Duration.ofMinutes(10);

    /** One exhaustive run: a variant at one parameter set, every checkable property. */
    record Run(String variant, Map<String, String> params, Map<String, PropertyResult> results, long states, double seconds,
               String error, String limit) {

        /**
         * A progress property's cycle analysis needs the whole graph: when a limit stopped the run
         * (its state bound, or on a slow machine its time backstop), the property is not decided,
         * and whether a partial answer came first would depend on the machine. The table is compared as
         * text, so every progress property of such a run renders "incomplete" (the run is not
         * exhaustive either way); safety catches keep their trace, found at the same breadth-first
         * depth on any machine that reaches it.
         */
        boolean analysisCutShort(PropertyResult p) {
            return !limit.isEmpty() && p.kind() == Property.Kind.PROGRESS;
        }
    }

    /** One generated cell: runs that found a violation, and the per-input rate; or why it could not run. */
    record Gen(int found, double perInput, String error, double seconds) {
    }

    /** The table of one model. */
    static final class ModelPower {
        final String model;
        final List<PropertyInfo> properties = new ArrayList<>();
        /** Properties that are metrics without a bound: measured, never violated. */
        final Set<String> measured = new TreeSet<>();
        /** The mutant and real-bug variants, in catalogue order. */
        final List<VariantInfo> columns = new ArrayList<>();
        final List<Run> runs = new ArrayList<>();
        /** Variants with no baseline entry (an error). */
        final List<String> unlisted = new ArrayList<>();
        /** property -> the baseline's other variants expected to violate it ("before", "after [lock=tas]"). */
        final Map<String, List<String>> historical = new LinkedHashMap<>();
        /** (variant, property) pairs the baseline says must be caught, with their parameters. */
        final List<Baseline.Entry> mustCatch = new ArrayList<>();
        /** search name -> variant -> cell. */
        final Map<GeneratedSuites, Map<String, Gen>> generated = new LinkedHashMap<>();
        /** The variants the generated searches run on: before, then the mutant and bug columns. */
        final List<String> generatedColumns = new ArrayList<>();
        /** The find tests' searches on their targets. */
        final Map<GeneratedSuites.Find, Gen> finds = new LinkedHashMap<>();

        ModelPower(String model) {
            this.model = model;
        }

        /** The runs of {@code variant}. */
        List<Run> runsOf(String variant) {
            return runs.stream().filter(r -> r.variant.equals(variant)).toList();
        }

        /** The shortest violation of {@code property} over the variant's runs, or null. */
        PropertyResult caught(String variant, String property) {
            PropertyResult best = null;
            for (Run r : runsOf(variant)) {
                PropertyResult p = r.results.get(property);
                if (p != null && p.verdict() == Verdict.VIOLATED && !r.analysisCutShort(p)
                        && (best == null || best.trace() == null || (p.trace() != null && p.trace().length() < best.trace().length()))) {
                    best = p;
                }
            }
            return best;
        }

        boolean isMustCatch(String variant, String property) {
            return mustCatch.stream().anyMatch(e -> e.variant().equals(variant) && e.property().equals(property));
        }

        /** Properties that catch no mutant or bug here and no historical variant in the baseline. */
        List<String> catchingNothing() {
            List<String> out = new ArrayList<>();
            for (PropertyInfo p : properties) {
                if (measured.contains(p.id())) {
                    continue;
                }
                boolean any = !historical.getOrDefault(p.id(), List.of()).isEmpty();
                for (VariantInfo v : columns) {
                    any |= caught(v.name(), p.id()) != null;
                }
                if (!any) {
                    out.add(p.id());
                }
            }
            return out;
        }
    }

    private final Baseline baseline;
    private final java.io.PrintStream log;

    PowerTable(Baseline baseline, java.io.PrintStream log) {
        this.baseline = baseline;
        this.log = log;
    }

    List<ModelPower> compute() {
        List<ModelPower> out = new ArrayList<>();
        for (ModelFactory f : Models.all()) {
            out.add(compute(f));
        }
        return out;
    }

    private static boolean isBug(VariantInfo v) {
        return v.mutant() || v.realBug();
    }

    ModelPower compute(ModelFactory f) {
        ModelPower mp = new ModelPower(f.name());
        mp.properties.addAll(f.properties());
        List<Baseline.Entry> entries = baseline.entries().stream().filter(e -> e.model().equals(f.name())).toList();
        for (Baseline.Entry e : entries) {
            boolean bugColumn = f.variants().stream().anyMatch(v -> v.name().equals(e.variant()) && isBug(v));
            if (e.expected() != Verdict.VIOLATED) {
                continue;
            }
            if (bugColumn) {
                mp.mustCatch.add(e);
            } else {
                String name = e.variant() + " (" + params(e.params()) + ")";
                List<String> h = mp.historical.computeIfAbsent(e.property(), k -> new ArrayList<>());
                if (!h.contains(name)) {
                    h.add(name);
                }
            }
        }
        for (VariantInfo v : f.variants()) {
            if (!isBug(v)) {
                continue;
            }
            mp.columns.add(v);
            Set<Map<String, String>> paramSets = new LinkedHashSet<>();
            entries.stream().filter(e -> e.variant().equals(v.name())).forEach(e -> paramSets.add(f.params(e.params()).asMap()));
            if (paramSets.isEmpty()) {
                mp.unlisted.add(v.name());
                continue;
            }
            for (Map<String, String> params : paramSets) {
                mp.runs.add(exhaustive(f, v.name(), params, mp));
            }
        }
        if (f.variants().stream().anyMatch(v -> v.name().equals("before"))) {
            mp.generatedColumns.add("before");
        }
        mp.columns.forEach(v -> mp.generatedColumns.add(v.name()));
        /* the generated cells are independent (each builds its own model instances): two at a time */
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "power");
            t.setDaemon(true);
            return t;
        });
        try {
            Map<GeneratedSuites, Map<String, java.util.concurrent.Future<Gen>>> futures = new LinkedHashMap<>();
            for (GeneratedSuites g : GeneratedSuites.ALL) {
                if (!g.model().equals(f.name())) {
                    continue;
                }
                Map<String, java.util.concurrent.Future<Gen>> cells = new LinkedHashMap<>();
                for (String v : mp.generatedColumns) {
                    cells.put(v, pool.submit(() -> generated(g.model() + " / " + g.name(), () -> g.search().apply(v), v, g.samples())));
                }
                futures.put(g, cells);
            }
            Map<GeneratedSuites.Find, java.util.concurrent.Future<Gen>> findFutures = new LinkedHashMap<>();
            for (GeneratedSuites.Find fs : GeneratedSuites.FINDS) {
                if (fs.model().equals(f.name())) {
                    findFutures.put(fs, pool.submit(() -> generated(fs.model() + " / find " + fs.name(), fs.search(), fs.variant(),
                            FIND_SAMPLES)));
                }
            }
            for (Map.Entry<GeneratedSuites, Map<String, java.util.concurrent.Future<Gen>>> e : futures.entrySet()) {
                Map<String, Gen> cells = new LinkedHashMap<>();
                for (Map.Entry<String, java.util.concurrent.Future<Gen>> c : e.getValue().entrySet()) {
                    cells.put(c.getKey(), get(c.getValue()));
                }
                mp.generated.put(e.getKey(), cells);
            }
            for (Map.Entry<GeneratedSuites.Find, java.util.concurrent.Future<Gen>> e : findFutures.entrySet()) {
                mp.finds.put(e.getKey(), get(e.getValue()));
            }
        } finally {
            pool.shutdownNow();
        }
        return mp;
    }

    private Run exhaustive(ModelFactory f, String variant, Map<String, String> params, ModelPower mp) {
        long t0 = System.nanoTime();
        Set<String> all = new LinkedHashSet<>();
        f.properties().forEach(p -> all.add(p.id()));
        Set<String> selected = new LinkedHashSet<>();
        try {
            Model probe = f.create(variant, f.params(params), all);
            for (Property p : probe.properties()) {
                if (p instanceof Metric m && m.bound() == Long.MAX_VALUE) {
                    mp.measured.add(p.id());
                } else {
                    selected.add(p.id());
                }
            }
            Model m = f.create(variant, f.params(params), selected);
            // one worker where the count depends on the workers' timing (a cyclic model's partial-order proviso): the table is compared as text
            int workers = Engine.countDependsOnOrder(m) ? 1 : 2;
            RunResult r = Engine.check(m, Options.defaults().withWorkers(workers).withMaxStates(SEARCH_MAX_STATES)
                    .withTimeLimit(SEARCH_TIME_LIMIT));
            Map<String, PropertyResult> res = new LinkedHashMap<>();
            r.properties().forEach(p -> res.put(p.id(), p));
            double s = (System.nanoTime() - t0) / 1e9;
            log.printf(Locale.ROOT, "[power] %s %s %s: %,d states, %.1f s%n", f.name(), variant, params, r.stats().states(), s);
            /* a search stopped by a limit has a count that depends on the workers' timing: the table says so instead */
            return new Run(variant, params, res, r.stats().states(), s, null, r.stats().limit());
        } catch (RuntimeException e) {
            log.printf("[power] %s %s %s: cannot run: %s%n", f.name(), variant, params, e);
            return new Run(variant, params, Map.of(), 0, (System.nanoTime() - t0) / 1e9, e.getMessage(), "");
        }
    }

    private static Gen get(java.util.concurrent.Future<Gen> f) {
        try {
            return f.get();
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(x);
        } catch (java.util.concurrent.ExecutionException x) {
            throw new IllegalStateException(x.getCause());
        }
    }

    private Gen generated(String what, java.util.function.Supplier<InputSearch> search, String variant, int samples) {
        long t0 = System.nanoTime();
        try {
            InputSearch s = search.get();
            int found = 0;
            for (int r = 0; r < RUNS; r++) {
                found += s.finds(SEED + 1000L * (r + 1)) ? 1 : 0;
            }
            double p = s.perInput(SEED, samples);
            double secs = (System.nanoTime() - t0) / 1e9;
            synchronized (log) {
                log.printf(Locale.ROOT, "[power] %s on %s: %d/%d runs, per input %.4f, %.1f s%n", what, variant, found, RUNS, p, secs);
            }
            return new Gen(found, p, null, secs);
        } catch (RuntimeException e) {
            synchronized (log) {
                log.printf("[power] %s on %s: cannot run: %s%n", what, variant, e);
            }
            return new Gen(0, 0, e.getClass().getSimpleName() + ": " + e.getMessage(), (System.nanoTime() - t0) / 1e9);
        }
    }

    /** "cpus=3 rounds=1 lock=tas". */
    static String params(Map<String, String> params) {
        StringBuilder b = new StringBuilder();
        params.forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return b.toString();
    }

    /** The markdown of docs/power.md. */
    static String markdown(List<ModelPower> models) {
        StringBuilder b = new StringBuilder();
        b.append("<!-- generated by properties/src/test/java/kcheck/properties/power/PowerTableTest.java (mvn -B verify -Dkcheck.power=true, which .ci/run runs); "
                + "do not edit: copy properties/target/power.md here -->\n");
        b.append("# Power of the properties: what each one catches\n\n");
        b.append("Computed by the build from the model catalogues and `kcheck-baseline.json` (a mutant or bug variant added to a "
                + "catalogue appears here by itself). A property that catches nothing fails the build.\n\n");
        b.append("**Exhaustive.** Every seeded mutant (`mutant-*`) and real kernel bug (`bug-*`) of a model against every property "
                + "of the model, opt-in ones included, by exhaustive search at each parameter set the baseline gives that variant "
                + "(the bounds under each table). **caught (n)**: the baseline lists the pair, the property must catch it, and does "
                + "(shortest counterexample n steps); caught (n): caught as well; \u2014: holds, exhaustively; incomplete: a limit "
                + "stopped the search first. Metrics without a bound are measurements and catch nothing by design (listed, not "
                + "checked). *Also caught in the baseline*: the other variants the baseline expects to violate the property (the "
                + "historical bugs; `./kcheck verify` checks them at these bounds).\n\n");
        b.append("**Generated.** Each search of the generated-input suites that claim a property holds (one run as the suite "
                + "does it) on `before` and on every mutant and bug variant: the fraction of " + RUNS + " runs from different "
                + "seeds that find a violation, and in brackets the per-input hit rate, the share of single inputs (schedules, "
                + "call sequences, domains; 200 of them, 30 where one input is a domain searched exhaustively) that violate on "
                + "their own. Near 100 % the bug is hit by any input and the run proves little about the search; "
                + "**bold** marks a real search: runs find what fewer than 1 % of single inputs hit. PCT: probabilistic "
                + "concurrency testing (Burckhardt et al., ASPLOS 2010; `kcheck.properties.gen.Pct`). The suites' tests that "
                + "find a bug are measured the same way on their target (" + FIND_SAMPLES + " single inputs); the build fails if "
                + "one presented as a real search is not one. Seeds are fixed (" + SEED + " and offsets), so this file is "
                + "reproducible.\n");
        for (ModelPower mp : models) {
            b.append("\n## ").append(mp.model).append("\n\n### Exhaustive\n\n");
            b.append("| property |");
            mp.columns.forEach(v -> b.append(" ").append(v.name()).append(" |"));
            b.append(" also caught in the baseline |\n|---|");
            mp.columns.forEach(v -> b.append("---|"));
            b.append("---|\n");
            for (PropertyInfo p : mp.properties) {
                b.append("| `").append(p.id()).append("`").append(p.optIn() ? " (opt-in)" : "").append(" |");
                for (VariantInfo v : mp.columns) {
                    b.append(" ").append(cell(mp, v.name(), p.id())).append(" |");
                }
                List<String> h = mp.historical.getOrDefault(p.id(), List.of());
                b.append(" ").append(h.isEmpty() ? "" : String.join("; ", h)).append(" |\n");
            }
            b.append("\nBounds: ");
            List<String> bounds = new ArrayList<>();
            for (VariantInfo v : mp.columns) {
                List<Run> rs = mp.runsOf(v.name());
                bounds.add("`" + v.name() + "` " + (rs.isEmpty() ? "no baseline entry"
                        : String.join("; ", rs.stream().map(r -> params(r.params) + (r.error != null ? " (cannot run: " + r.error + ")"
                                : !r.limit.isEmpty() ? " (stopped by its " + r.limit + " before it was exhaustive)"
                                : " (" + String.format(Locale.ROOT, "%,d", r.states) + " states)")).toList())));
            }
            b.append(String.join(". ", bounds)).append(".\n");
            if (!mp.generated.isEmpty()) {
                b.append("\n### Generated\n\n| search (suite) |");
                mp.generatedColumns.forEach(v -> b.append(" ").append(v).append(" |"));
                b.append("\n|---|");
                mp.generatedColumns.forEach(v -> b.append("---|"));
                b.append("\n");
                for (Map.Entry<GeneratedSuites, Map<String, Gen>> e : mp.generated.entrySet()) {
                    GeneratedSuites g = e.getKey();
                    b.append("| ").append(g.name()).append(" (").append(g.suite()).append(") |");
                    for (String v : mp.generatedColumns) {
                        b.append(" ").append(genCell(e.getValue().get(v))).append(" |");
                    }
                    b.append("\n");
                }
            }
            if (!mp.finds.isEmpty()) {
                b.append("\n### The suites' \"finds the bug\" searches\n\n| search | test | variant | runs (per input) | a search? |\n"
                        + "|---|---|---|---|---|\n");
                for (Map.Entry<GeneratedSuites.Find, Gen> e : mp.finds.entrySet()) {
                    GeneratedSuites.Find fs = e.getKey();
                    Gen g = e.getValue();
                    boolean real = g.error() == null && g.perInput() < REAL_SEARCH;
                    b.append("| ").append(fs.name()).append(" | `").append(fs.test()).append("` | ").append(fs.variant()).append(" | ")
                            .append(genCell(g)).append(" | ").append(real ? "yes" : "no: single inputs hit it").append(" |\n");
                }
            }
        }
        return b.toString();
    }

    private static String cell(ModelPower mp, String variant, String property) {
        if (mp.measured.contains(property)) {
            return "measured";
        }
        List<Run> rs = mp.runsOf(variant);
        if (rs.isEmpty()) {
            return "no entry";
        }
        PropertyResult c = mp.caught(variant, property);
        if (c != null) {
            String t = "caught" + (c.trace() != null ? " (" + c.trace().length() + ")" : "");
            return mp.isMustCatch(variant, property) ? "**" + t + "**" : t;
        }
        boolean incomplete = rs.stream().anyMatch(r -> r.error != null || r.results.get(property) == null
                || r.results.get(property).verdict() == Verdict.INCOMPLETE || r.analysisCutShort(r.results.get(property)));
        return incomplete ? "incomplete" : "\u2014";
    }

    private static String genCell(Gen g) {
        if (g == null || g.error() != null) {
            return "n/a";
        }
        String rate = g.perInput() == 0 ? "0" : g.perInput() < 0.01
                ? String.format(Locale.ROOT, "%.1f %%", 100 * g.perInput()) : String.format(Locale.ROOT, "%.0f %%", 100 * g.perInput());
        String runs = g.found() + "/" + RUNS;
        boolean real = g.found() > 0 && g.perInput() < REAL_SEARCH;
        return (real ? "**" + runs + "**" : runs) + " (" + rate + ")";
    }
}
