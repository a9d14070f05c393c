package kcheck.crosscheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.ModelFactory;
import kcheck.model.Models;

/**
 * The JVM-thread cross-check of rq-lock (KERNEL.md section 1): for every configuration, the
 * explicit-state verdict ({@code kcheck check}: the engine on RqLockModel) and Lincheck's
 * verdict on the same reference code run by real threads ({@link RqLockRun}) must both be the
 * one KERNEL.md expects, so they agree. When every configuration has run and agreed, the
 * side-by-side table is written to {@code docs/lincheck-table.md}.
 *
 * <p>Lincheck checks: one for the safety properties together (their monitors are independent;
 * Lincheck stops at the first failure, so a property that fails goes in a check of its own),
 * one for {@code fifo-entry}. Lincheck explores schedules, not data choices, so each check has
 * one scenario per busiest choice (2 CPUs: 1; 3 CPUs: 8), while kcheck explores every choice in
 * one search. Lincheck's search
 * is bounded: "holds" from Lincheck means no violation in the schedules it explored (their
 * number is in the table), unless it says it ran out of schedules first.
 */
class RqLockCrossCheckTest {
    private static final String[] ORDER = {"mutual-exclusion", "deadlock-free", "holds-both-on-return", "return-contract", "fifo-entry"};
    /**
     * Lincheck's schedule budget per run, by CPU count (3 CPUs: per busiest choice); sized so the
     * suite stays well under 90 s on a busy 2-core machine. {@code -Dkcheck.lincheck.scale=N}
     * multiplies it for a deeper search.
     */
    private static final int SCALE = Integer.getInteger("kcheck.lincheck.scale", 1);
    private static final Map<Integer, Integer> SCHEDULES = Map.of(2, 2000 * SCALE, 3, 200 * SCALE);
    private static final int CONFIGS = 10;
    private static final List<Row> ROWS = new ArrayList<>();
    private static int configsRun;
    private static boolean allAgree = true;

    /** One line of the table. */
    record Row(String property, String variant, String lock, int cpus, Verdict kcheck, String kcheckText,
               Verdict lincheck, String lincheckText) {
        boolean agree() {
            return kcheck == lincheck;
        }
    }

    static Stream<Arguments> configurations() {
        Map<String, Verdict> holdsFifoViolated = expect(Verdict.VIOLATED);
        Map<String, Verdict> allHold = expect(Verdict.HOLDS);
        return Stream.of(
                Arguments.of("before", "ticket", 2, holdsFifoViolated),
                Arguments.of("after", "ticket", 2, allHold),
                Arguments.of("after", "tas", 2, holdsFifoViolated),
                Arguments.of("before", "ticket", 3, holdsFifoViolated),
                Arguments.of("after", "ticket", 3, allHold),
                Arguments.of("after", "tas", 3, holdsFifoViolated),
                Arguments.of("mutant-returns-zero", "ticket", 3, Map.of("return-contract", Verdict.VIOLATED)),
                Arguments.of("mutant-skips-relock", "ticket", 3, Map.of("holds-both-on-return", Verdict.VIOLATED)),
                Arguments.of("mutant-unordered", "ticket", 3, Map.of("deadlock-free", Verdict.VIOLATED)),
                Arguments.of("mutant-unlocks-this", "ticket", 3, Map.of("deadlock-free", Verdict.VIOLATED)));
    }

    private static Map<String, Verdict> expect(Verdict fifo) {
        Map<String, Verdict> m = new LinkedHashMap<>();
        for (String p : ORDER) {
            m.put(p, p.equals("fifo-entry") ? fifo : Verdict.HOLDS);
        }
        return m;
    }

    @ParameterizedTest(name = "{0} {1} cpus={2}")
    @MethodSource("configurations")
    void explicitStateAndLincheckVerdictsAgreeWithKernelMd(String variant, String lock, int cpus, Map<String, Verdict> expected) {
        RunResult k = kcheck(variant, lock, cpus, expected.keySet());
        Map<String, LincheckVerdict> l = lincheck(variant, lock, cpus, expected.keySet());
        List<Row> rows = new ArrayList<>();
        for (String p : expected.keySet()) {
            PropertyResult pr = k.property(p);
            LincheckVerdict lv = l.get(p);
            rows.add(new Row(p, variant, lock, cpus, pr.verdict(), kcheckText(k, pr), lv.verdict(), lv.text()));
        }
        synchronized (ROWS) {
            ROWS.addAll(rows);
            configsRun++;
        }
        for (Row r : rows) {
            allAgree &= r.agree();
        }
        for (Row r : rows) {
            assertThat(r.kcheck()).as("kcheck: %s on %s+%s, %d CPUs", r.property(), variant, lock, cpus).isEqualTo(expected.get(r.property()));
            assertThat(r.lincheck()).as("Lincheck: %s on %s+%s, %d CPUs (%s)", r.property(), variant, lock, cpus, r.lincheckText())
                    .isEqualTo(r.kcheck());
        }
    }

    private static RunResult kcheck(String variant, String lock, int cpus, Set<String> properties) {
        ModelFactory f = Models.get("rq-lock");
        Map<String, String> params = Map.of("cpus", Integer.toString(cpus), "lock", lock);
        return Engine.check(f.create(variant, f.params(params), new LinkedHashSet<>(properties)), Options.defaults().withWorkers(1));
    }

    private static String kcheckText(RunResult r, PropertyResult p) {
        return switch (p.verdict()) {
            case HOLDS -> "exhaustive, " + r.stats().states() + " states";
            case VIOLATED -> "shortest trace " + p.trace().length() + " steps";
            case INCOMPLETE -> "search limit hit";
        };
    }

    /** Lincheck's verdict on one property and how it was reached. */
    record LincheckVerdict(Verdict verdict, String text) {
    }

    private static Map<String, LincheckVerdict> lincheck(String variant, String lock, int cpus, Set<String> properties) {
        Map<String, LincheckVerdict> out = new LinkedHashMap<>();
        Set<String> safety = new LinkedHashSet<>();
        for (String p : properties) {
            if (RqLockRun.SAFETY.contains(p)) {
                safety.add(p);
            }
        }
        List<Set<String>> runs = new ArrayList<>();
        if (!safety.isEmpty() || properties.equals(Set.of("deadlock-free"))) {
            runs.add(safety);
        }
        if (properties.contains("fifo-entry")) {
            runs.add(Set.of("fifo-entry"));
        }
        int budget = SCHEDULES.get(cpus);
        for (Set<String> monitored : runs) {
            /* a hang is reported whatever the monitors, so every run also checks deadlock-free */
            Set<String> decided = new LinkedHashSet<>(monitored);
            decided.add("deadlock-free");
            decided.retainAll(properties);
            int choices = LincheckRunner.busiestChoices(cpus).size();
            LincheckRunner.Outcome o = LincheckRunner.check(variant, lock, cpus, monitored, budget);
            LincheckRunner.Outcome failed = o.violated() == null ? null : o;
            if (failed != null) {
                saveReport(variant, lock, cpus, o);
            }
            for (String p : decided) {
                LincheckVerdict before = out.get(p);
                if (failed != null && failed.violated().equals(p)) {
                    out.put(p, new LincheckVerdict(Verdict.VIOLATED, "schedule " + failed.schedules() + ", busiest choice "
                            + failed.busiest()));
                } else if (before != null) {
                    continue;
                } else if (failed == null) {
                    String scope = choices == 1 ? "" : choices + " busiest choices, ";
                    out.put(p, new LincheckVerdict(Verdict.HOLDS, o.complete()
                            ? "every schedule explored (" + scope + o.schedules() + " schedules)"
                            : "no violation in " + scope + (choices == 1 ? "" : budget + " each, ") + o.schedules() + " schedules"));
                } else {
                    out.put(p, new LincheckVerdict(Verdict.INCOMPLETE, "not decided: the run stopped at a "
                            + failed.violated() + " violation"));
                }
            }
        }
        return out;
    }

    private static void saveReport(String variant, String lock, int cpus, LincheckRunner.Outcome o) {
        Path dir = Path.of("target", "lincheck-reports");
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(variant + "-" + lock + "-" + cpus + "cpus-" + o.violated() + ".txt"),
                    "busiest choice " + o.busiest() + ", schedule " + o.schedules() + "\n" + o.report());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the table: always under target/, and to docs/ once every configuration ran and agreed. */
    @AfterAll
    static void writeTable() throws IOException {
        String table = table();
        Path target = Path.of("target", "lincheck-table.md");
        Files.createDirectories(target.getParent());
        Files.writeString(target, table);
        String docs = System.getProperty("kcheck.docs");
        if (docs != null && configsRun == CONFIGS && allAgree) {
            Files.writeString(Path.of(docs, "lincheck-table.md"), table);
        }
    }

    private static String table() {
        List<Row> rows = new ArrayList<>(ROWS);
        List<String> order = List.of(ORDER);
        rows.sort(Comparator.comparingInt((Row r) -> order.indexOf(r.property()))
                .thenComparing(r -> r.variant().startsWith("mutant-"))
                .thenComparingInt(Row::cpus));
        StringBuilder sb = new StringBuilder();
        sb.append("<!-- generated by crosscheck/src/test/java/kcheck/crosscheck/RqLockCrossCheckTest.java"
                + " (mvn -B verify); do not edit -->\n");
        sb.append("# rq-lock: explicit-state verdicts vs Lincheck on JVM threads\n\n");
        sb.append("`kcheck check` explores the model of the reference code exhaustively; Lincheck 3.7 model-checks "
                + "the same reference classes run by real threads on atomic locks, up to a budget of schedules "
                + "(2 CPUs: " + SCHEDULES.get(2) + "; 3 CPUs: " + SCHEDULES.get(3) + " per busiest choice). "
                + "The test fails if a row disagrees.\n\n");
        sb.append("| property | variant | lock | CPUs | kcheck check | Lincheck | agree |\n");
        sb.append("|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            sb.append("| `").append(r.property()).append("` | ").append(r.variant()).append(" | ").append(r.lock())
                    .append(" | ").append(r.cpus()).append(" | ").append(r.kcheck()).append(" (").append(r.kcheckText())
                    .append(") | ").append(r.lincheck()).append(" (").append(r.lincheckText()).append(") | ")
                    .append(r.agree() ? "yes" : "**NO**").append(" |\n");
        }
        return sb.toString();
    }
}
