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
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import kcheck.crosscheck.LincheckRunner.Call;
import kcheck.crosscheck.LincheckRunner.Outcome;
import kcheck.crosscheck.LincheckRunner.Scenario;
import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;
import kcheck.engine.Verdict;
import kcheck.model.ModelFactory;
import kcheck.model.Models;

/**
 * The JVM-thread cross-check: for every configuration, the explicit-state verdict
 * ({@code kcheck check}: the engine on the model) and Lincheck's verdict on the same reference
 * code run by real threads must both be the one docs/spec.md expects, so they agree. When every
 * configuration has run and agreed, the side-by-side table is written to
 * {@code docs/lincheck-table.md}.
 *
 * <p>Lincheck stops at the first failure, so each configuration is checked in several Lincheck
 * checks: the properties expected to hold together (their monitors are independent), each
 * property expected to fail in a check of its own. A hang is reported whatever the monitors, so
 * every check also decides {@code deadlock-free}. Lincheck explores schedules, not data choices: each
 * check has one scenario per choice the model makes by itself (rq-lock: the busiest CPU of each
 * CPU, 1 choice with 2 CPUs, 8 with 3; rwsem-owner: three starting situations, see
 * {@link #RWSEM_SCENARIOS}). Lincheck's search is bounded: its "holds" means no violation in the
 * schedules it explored, whose number is in the table, unless it says it ran out of schedules.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class LincheckCrossCheckTest {
    /**
     * Schedules per Lincheck scenario; sized so the suite stays well under 90 s on a busy 2-core
     * machine. {@code -Dkcheck.lincheck.scale=N} multiplies them for a deeper search.
     */
    private static final int SCALE = Integer.getInteger("kcheck.lincheck.scale", 1);
    private static final Map<Integer, Integer> RQLOCK_SCHEDULES = Map.of(2, 800 * SCALE, 3, 80 * SCALE);
    private static final int RWSEM_SCHEDULES = 150 * SCALE;
    /**
     * Every configuration of the table ({@code -Dkcheck.long=true}, as .ci/run runs it
     * after the default build, which checks the README's table then); the default build runs the
     * rows each {@link #rows} call marks quick: each model's before and after at the smallest
     * size, native qspinlock, and one mutant per kind of property (a few seconds a row).
     */
    static final boolean FULL = Boolean.getBoolean("kcheck.long");

    private static final List<String> RQLOCK_ORDER = List.of("mutual-exclusion", "deadlock-free", "holds-both-on-return",
            "return-contract", "fifo-entry");
    private static final List<String> RWSEM_ORDER = List.of("exclusion", "owner-sound", "deadlock-free", "no-spin-on-readers-k2",
            "no-spin-on-readers-strict", "handoff");

    /**
     * The rwsem-owner scenarios, readers = 1 (task 0), writers = 2 (tasks 1, 2), one round each,
     * as the model's {@code readers=1 writers=2 rounds=1}: (1) writer 0 holds the lock when the
     * others start (Lincheck's initial part), and the reader's critical section ends after
     * writer 0's {@code up_write} (its {@code up_read} runs on writer 0's thread once its
     * {@code down_read} has returned); (2) writer 0 holds the lock when the others start; (3)
     * every task starts idle. Every schedule of each is a schedule of the model's configuration.
     */
    static final List<Scenario> RWSEM_SCENARIOS = List.of(
            new Scenario("W0-holds,R-late", List.of(new Call("lock", 1)),
                    List.of(List.of(new Call("unlock", 1), new Call("unlockWhenHeld", 0)), List.of(new Call("task", 2)),
                            List.of(new Call("lock", 0)))),
            new Scenario("W0-holds", List.of(new Call("lock", 1)),
                    List.of(List.of(new Call("unlock", 1)), List.of(new Call("task", 2)), List.of(new Call("task", 0)))),
            new Scenario("all-idle", List.of(),
                    List.of(List.of(new Call("task", 0)), List.of(new Call("task", 1)), List.of(new Call("task", 2)))));

    /**
     * The v5.3+ scenarios: readers = 1 (task 0), RT writers = 2 (tasks 1, 2), writer 0 holds the lock
     * when the others start; (1) it drops it, takes it again and drops it again while the reader and
     * writer 1 run one round each (a second attempt while a waiter may hold the handoff); (2) it drops
     * it once. Every schedule is one of the model's {@code readers=1 writers=2 rt=all rounds=2}.
     */
    static final List<Scenario> RWSEM_V6_SCENARIOS = List.of(
            new Scenario("W0-relocks", List.of(new Call("lock", 1)),
                    List.of(List.of(new Call("unlock", 1), new Call("lock", 1), new Call("unlock", 1)), List.of(new Call("task", 2)),
                            List.of(new Call("task", 0)))),
            new Scenario("W0-holds", List.of(new Call("lock", 1)),
                    List.of(List.of(new Call("unlock", 1)), List.of(new Call("task", 2)), List.of(new Call("task", 0)))));
    private static final List<String> RWSEM_V6_ORDER = List.of("exclusion", "owner-sound", "deadlock-free", "handoff");

    private static final int CONFIGS = 18;
    private static final List<Row> ROWS = new ArrayList<>();
    private static int configsRun;
    private static boolean allAgree = true;

    /** One line of the table. */
    record Row(String model, String property, String variant, String config, Verdict kcheck, String kcheckText,
               Verdict lincheck, String lincheckText) {
        boolean agree() {
            return kcheck == lincheck;
        }
    }

    /** Lincheck's verdict on one property and how it was reached. */
    record LincheckVerdict(Verdict verdict, String text) {
    }

    /* ---------------- rq-lock ---------------- */

    static Stream<Arguments> rqLock() {
        Map<String, Verdict> fifoViolated = expect(RQLOCK_ORDER, "fifo-entry", Verdict.VIOLATED);
        Map<String, Verdict> allHold = expect(RQLOCK_ORDER, "fifo-entry", Verdict.HOLDS);
        return rows(Set.of(0, 1, 2, 6, 10),
                Arguments.of("before", "ticket", 2, fifoViolated),
                Arguments.of("after", "ticket", 2, allHold),
                Arguments.of("after", "tas", 2, fifoViolated),
                Arguments.of("before", "ticket", 3, fifoViolated),
                Arguments.of("after", "ticket", 3, allHold),
                Arguments.of("after", "tas", 3, fifoViolated),
                /* native qspinlock's fifo-entry violation needs one precise switch (between the failed fast path and the
                   btsl): kcheck finds it in 9 steps, Lincheck not within 800 schedules; safety rows only (docs/lincheck.md) */
                Arguments.of("v6.12", "qspinlock", 2, safetyHolds()),
                Arguments.of("v6.12", "qspinlock-virt", 2, fifoViolated),
                Arguments.of("mutant-returns-zero", "ticket", 3, Map.of("return-contract", Verdict.VIOLATED)),
                Arguments.of("mutant-skips-relock", "ticket", 3, Map.of("holds-both-on-return", Verdict.VIOLATED)),
                Arguments.of("mutant-unordered", "ticket", 3, Map.of("deadlock-free", Verdict.VIOLATED)),
                Arguments.of("mutant-unlocks-this", "ticket", 3, Map.of("deadlock-free", Verdict.VIOLATED)));
    }

    /** The rows of one table part: all with {@link #FULL}, else those whose index is in {@code quick}. */
    private static Stream<Arguments> rows(Set<Integer> quick, Arguments... all) {
        return java.util.stream.IntStream.range(0, all.length).filter(i -> FULL || quick.contains(i)).mapToObj(i -> all[i]);
    }

    @ParameterizedTest(name = "rq-lock {0} {1} cpus={2}")
    @MethodSource("rqLock")
    void rqLockVerdictsOfKcheckAndLincheckAgreeWithKernelMd(String variant, String lock, int cpus, Map<String, Verdict> expected) {
        RunResult k = kcheck("rq-lock", variant, Map.of("cpus", Integer.toString(cpus), "lock", lock), expected.keySet());
        int budget = RQLOCK_SCHEDULES.get(cpus);
        int choices = LincheckRunner.busiestChoices(cpus).size();
        String scope = choices == 1 ? "" : choices + " busiest choices, " + budget + " each, ";
        Map<String, LincheckVerdict> l = lincheck(expected,
                monitored -> List.of(LincheckRunner.check(variant, lock, cpus, monitored, budget)), scope,
                "rq-lock-" + variant + "-" + lock + "-" + cpus + "cpus");
        record("rq-lock", variant, lock + ", " + cpus + " CPUs", expected, k, l);
    }

    /* ---------------- rwsem-owner ---------------- */

    static Stream<Arguments> rwsem() {
        Map<String, Verdict> before = expect(RWSEM_ORDER, "no-spin-on-readers-k2", Verdict.VIOLATED);
        before.put("no-spin-on-readers-strict", Verdict.VIOLATED);
        Map<String, Verdict> after = expect(RWSEM_ORDER, "no-spin-on-readers-strict", Verdict.VIOLATED);
        return rows(Set.of(0, 2),
                Arguments.of("before", before),
                Arguments.of("after", after),
                Arguments.of("mutant-early-release", Map.of("owner-sound", Verdict.VIOLATED)),
                Arguments.of("mutant-trylock-ignores-readers", Map.of("exclusion", Verdict.VIOLATED)),
                Arguments.of("mutant-up-read-no-wake", Map.of("deadlock-free", Verdict.VIOLATED)),
                Arguments.of("mutant-no-reader-owned", Map.of("no-spin-on-readers-k2", Verdict.VIOLATED)));
    }

    @ParameterizedTest(name = "rwsem-owner {0}")
    @MethodSource("rwsem")
    void rwsemVerdictsOfKcheckAndLincheckAgreeWithKernelMd(String variant, Map<String, Verdict> expected) {
        RunResult k = kcheck("rwsem-owner", variant, Map.of("readers", "1", "writers", "2", "rounds", "1"), expected.keySet());
        String scope = RWSEM_SCENARIOS.size() + " scenarios, " + RWSEM_SCHEDULES + " each, ";
        Map<String, LincheckVerdict> l = lincheck(expected, monitored -> {
                    List<Outcome> out = new ArrayList<>();
                    for (Scenario sc : RWSEM_SCENARIOS) {
                        Outcome o = LincheckRunner.checkRwsem(() -> new RwsemRun(variant, 1, 2, 1, monitored, LincheckRunner.SPIN_BUDGET),
                                sc, RWSEM_SCHEDULES);
                        out.add(o);
                        if (o.violated() != null) {
                            break;
                        }
                    }
                    return out;
                }, scope, "rwsem-owner-" + variant);
        record("rwsem-owner", variant, "1 reader, 2 writers, 1 round", expected, k, l);
    }

    static Stream<Arguments> rwsemV6() {
        Map<String, Verdict> allHold = expect(RWSEM_V6_ORDER, "handoff", Verdict.HOLDS);
        return rows(Set.of(0, 1),
                Arguments.of("v6.12", allHold),
                Arguments.of("mutant-unqueued-ignores-handoff", Map.of("handoff", Verdict.VIOLATED)));
    }

    @ParameterizedTest(name = "rwsem-owner {0}")
    @MethodSource("rwsemV6")
    void rwsemV6VerdictsOfKcheckAndLincheckAgree(String variant, Map<String, Verdict> expected) {
        RunResult k = kcheck("rwsem-owner", variant, Map.of("readers", "1", "writers", "2", "rounds", "2", "rt", "all"),
                expected.keySet());
        String scope = RWSEM_V6_SCENARIOS.size() + " scenarios, " + RWSEM_SCHEDULES + " each, ";
        Map<String, LincheckVerdict> l = lincheck(expected, monitored -> {
                    List<Outcome> out = new ArrayList<>();
                    for (Scenario sc : RWSEM_V6_SCENARIOS) {
                        Outcome o = LincheckRunner.checkRwsem(() -> new RwsemRun(variant, 1, 2, new boolean[] {true, true}, 1,
                                monitored, LincheckRunner.SPIN_BUDGET), sc, RWSEM_SCHEDULES);
                        out.add(o);
                        if (o.violated() != null) {
                            break;
                        }
                    }
                    return out;
                }, scope, "rwsem-owner-" + variant);
        record("rwsem-owner", variant, "1 reader, 2 RT writers, deadlines passed", expected, k, l);
    }

    /* ---------------- shared ---------------- */

    private static Map<String, Verdict> safetyHolds() {
        Map<String, Verdict> m = new LinkedHashMap<>();
        for (String p : RQLOCK_ORDER) {
            if (!p.equals("fifo-entry")) {
                m.put(p, Verdict.HOLDS);
            }
        }
        return m;
    }

    private static Map<String, Verdict> expect(List<String> order, String odd, Verdict oddVerdict) {
        Map<String, Verdict> m = new LinkedHashMap<>();
        for (String p : order) {
            m.put(p, p.equals(odd) ? oddVerdict : Verdict.HOLDS);
        }
        return m;
    }

    private static RunResult kcheck(String model, String variant, Map<String, String> params, Set<String> properties) {
        ModelFactory f = Models.get(model);
        return Engine.check(f.create(variant, f.params(params), new LinkedHashSet<>(properties)), Options.defaults().withWorkers(1));
    }

    private static String kcheckText(RunResult r, PropertyResult p) {
        return switch (p.verdict()) {
            case HOLDS -> "exhaustive, " + r.stats().states() + " states";
            case VIOLATED -> p.trace().loopStart() >= 0 ? "lasso, " + p.trace().length() + " steps"
                    : "shortest trace " + p.trace().length() + " steps";
            case INCOMPLETE -> "search limit hit";
        };
    }

    /**
     * Runs the Lincheck checks of one configuration: the properties docs/spec.md expects to hold
     * together (their monitors are independent), and each property it expects to fail in a
     * check of its own (Lincheck stops at the first failure). {@code check} runs one check (its
     * scenarios, in order, until one fails). A property expected to hold that fails makes the
     * others of its check undecided, and the test fails.
     */
    private static Map<String, LincheckVerdict> lincheck(Map<String, Verdict> expected, Function<Set<String>, List<Outcome>> check,
                                                         String scope, String name) {
        List<Set<String>> checks = new ArrayList<>();
        Set<String> holding = new LinkedHashSet<>();
        expected.forEach((p, v) -> {
            if (v == Verdict.HOLDS) {
                holding.add(p);
            }
        });
        if (!holding.isEmpty()) {
            checks.add(holding);
        }
        expected.forEach((p, v) -> {
            if (v != Verdict.HOLDS) {
                checks.add(Set.of(p));
            }
        });
        Map<String, LincheckVerdict> out = new LinkedHashMap<>();
        for (Set<String> monitored : checks) {
            /* a hang is reported whatever the monitors: every check decides deadlock-free too */
            Set<String> decided = new LinkedHashSet<>(monitored);
            decided.add("deadlock-free");
            decided.retainAll(expected.keySet());
            List<Outcome> outcomes = check.apply(monitored);
            int schedules = outcomes.stream().mapToInt(Outcome::schedules).sum();
            boolean complete = outcomes.stream().allMatch(Outcome::complete);
            Outcome last = outcomes.get(outcomes.size() - 1);
            Outcome failed = last.violated() == null ? null : last;
            if (failed != null) {
                saveReport(name, failed);
            }
            for (String p : decided) {
                if (failed != null && failed.violated().equals(p)) {
                    out.put(p, new LincheckVerdict(Verdict.VIOLATED, "found within " + schedules + " schedules, in " + failed.scenario()));
                } else if (out.containsKey(p)) {
                    continue;
                } else if (failed == null) {
                    out.put(p, new LincheckVerdict(Verdict.HOLDS, complete
                            ? "every schedule explored (" + schedules + " schedules)"
                            : "no violation in " + scope + schedules + " schedules"));
                } else {
                    out.put(p, new LincheckVerdict(Verdict.INCOMPLETE, "not decided: the check stopped at a "
                            + failed.violated() + " violation"));
                }
            }
        }
        return out;
    }

    private static void record(String model, String variant, String config, Map<String, Verdict> expected, RunResult k,
                               Map<String, LincheckVerdict> l) {
        List<Row> rows = new ArrayList<>();
        for (String p : expected.keySet()) {
            PropertyResult pr = k.property(p);
            LincheckVerdict lv = l.get(p);
            rows.add(new Row(model, p, variant, config, pr.verdict(), kcheckText(k, pr), lv.verdict(), lv.text()));
        }
        synchronized (ROWS) {
            ROWS.addAll(rows);
            configsRun++;
            for (Row r : rows) {
                allAgree &= r.agree();
            }
        }
        for (Row r : rows) {
            assertThat(r.kcheck()).as("kcheck: %s %s on %s (%s)", model, r.property(), variant, config)
                    .isEqualTo(expected.get(r.property()));
            assertThat(r.lincheck()).as("Lincheck: %s %s on %s (%s): %s", model, r.property(), variant, config, r.lincheckText())
                    .isEqualTo(r.kcheck());
        }
    }

    private static void saveReport(String name, Outcome o) {
        Path dir = Path.of("target", "lincheck-reports");
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(name + "-" + o.violated() + ".txt"),
                    o.scenario() + ", schedule " + o.schedules() + "\n" + o.report());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Writes the table under target/ (and to docs/ when asked with {@code -Dkcheck.docs=DIR}),
     * and, once every configuration ran, checks that the README's table (between the
     * {@code lincheck-table} markers) says exactly what was computed.
     */
    @AfterAll
    static void writeTable() throws IOException {
        String table = table();
        Path target = Path.of("target", "lincheck-table.md");
        Files.createDirectories(target.getParent());
        Files.writeString(target, table);
        Files.writeString(Path.of("target", "lincheck-readme-table.md"), readmeTable());
        String docs = System.getProperty("kcheck.docs");
        if (docs != null && configsRun == CONFIGS && allAgree) {
            Files.writeString(Path.of(docs, "lincheck-table.md"), table);
        }
        String readme = System.getProperty("kcheck.readme");
        if (readme != null && configsRun == CONFIGS) {
            String text = Files.readString(Path.of(readme));
            String start = "<!-- lincheck-table:start -->\n";
            String end = "<!-- lincheck-table:end -->";
            int i = text.indexOf(start);
            int j = text.indexOf(end);
            org.assertj.core.api.Assertions.assertThat(i).as("README has the lincheck-table markers").isNotNegative();
            org.assertj.core.api.Assertions.assertThat(text.substring(i + start.length(), j))
                    .as("README's Lincheck table is out of date: copy crosscheck/target/lincheck-readme-table.md into it")
                    .isEqualTo(readmeTable());
        }
    }

    /** The README's compact form: verdicts only, one row per configuration. */
    private static String readmeTable() {
        List<Row> rows = new ArrayList<>(ROWS);
        rows.sort(Comparator.comparing(Row::model)
                .thenComparingInt(r -> (r.model().equals("rq-lock") ? RQLOCK_ORDER : RWSEM_ORDER).indexOf(r.property()))
                .thenComparing(r -> r.variant().startsWith("mutant-")));
        StringBuilder sb = new StringBuilder("| model | property | variant | configuration | kcheck (exhaustive) | Lincheck (threads) |\n");
        sb.append("|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            sb.append("| ").append(r.model()).append(" | ").append(r.property()).append(" | ").append(r.variant()).append(" | ")
                    .append(r.config()).append(" | ").append(r.kcheck()).append(" | ").append(r.lincheck())
                    .append(r.agree() ? "" : " (**disagrees**)").append(" |\n");
        }
        return sb.toString();
    }

    private static String table() {
        List<Row> rows = new ArrayList<>(ROWS);
        rows.sort(Comparator.comparing(Row::model)
                .thenComparingInt(r -> (r.model().equals("rq-lock") ? RQLOCK_ORDER : RWSEM_ORDER).indexOf(r.property()))
                .thenComparing(r -> r.variant().startsWith("mutant-")));
        StringBuilder sb = new StringBuilder();
        sb.append("<!-- generated by crosscheck/src/test/java/kcheck/crosscheck/LincheckCrossCheckTest.java"
                + " (mvn -B verify); do not edit -->\n");
        sb.append("# Explicit-state verdicts vs Lincheck on JVM threads\n\n");
        sb.append("`kcheck check` explores the model of the reference code exhaustively; Lincheck 3.7 model-checks the "
                + "same reference classes run by real threads, up to a budget of schedules per scenario (rq-lock: one "
                + "scenario per busiest choice, 2 CPUs " + RQLOCK_SCHEDULES.get(2) + ", 3 CPUs " + RQLOCK_SCHEDULES.get(3)
                + "; rwsem-owner: " + RWSEM_SCENARIOS.size() + " scenarios, " + RWSEM_SCHEDULES + " each). "
                + "The test fails if a row disagrees. See docs/lincheck.md for what runs on the threads, the "
                + "scenarios and the monitors.\n");
        String model = "";
        for (Row r : rows) {
            if (!r.model().equals(model)) {
                model = r.model();
                sb.append("\n## ").append(model).append("\n\n");
                sb.append("| property | variant | configuration | kcheck check | Lincheck | agree |\n");
                sb.append("|---|---|---|---|---|---|\n");
            }
            sb.append("| `").append(r.property()).append("` | ").append(r.variant()).append(" | ").append(r.config())
                    .append(" | ").append(r.kcheck()).append(" (").append(r.kcheckText()).append(") | ")
                    .append(r.lincheck()).append(" (").append(r.lincheckText()).append(") | ")
                    .append(r.agree() ? "yes" : "**NO**").append(" |\n");
        }
        return sb.toString();
    }
}
