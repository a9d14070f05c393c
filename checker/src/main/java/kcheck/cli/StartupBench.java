package kcheck.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code kcheck bench --startup}: the whole-process time of short commands, as a user waits for
 * them, measured by starting the launcher (or a jar) as a new process for every run. With
 * {@code --against}, the runs alternate between this kcheck and the other one (A B, then B A), so
 * drift in the machine's speed falls on both; the table gives the medians. This kcheck's runs carry
 * {@link StartupClock}'s variable, so the breakdown says where the time went: the JVM before
 * {@code main}, the command line, the model's set-up, the search, and the report and exit.
 */
final class StartupBench {
    /** One command line, measured as a whole process. */
    record Case(String label, List<String> args) {
    }

    static final List<Case> CASES = List.of(
            new Case("--version", List.of("--version")),
            new Case("check rq-lock after, 2 CPUs, fifo-entry",
                    List.of("check", "rq-lock", "--variant", "after", "--cpus", "2", "--property", "fifo-entry")),
            new Case("check rq-lock after, 4 CPUs, fifo-entry",
                    List.of("check", "rq-lock", "--variant", "after", "--cpus", "4", "--property", "fifo-entry")),
            new Case("check rq-lock after, 2 CPUs, defaults", List.of("check", "rq-lock", "--variant", "after", "--cpus", "2")));

    static final List<String> PHASES = List.of("JVM start", "command line", "model set-up", "search", "report, exit");

    /** One process's figures: its wall time, its exit code, and (this kcheck only) the phase ends in ms since main. */
    record Run(double wallMs, int exit, Map<String, Double> marks) {
    }

    private final List<String> self;
    private final List<String> against;
    private final int runs;

    StartupBench(String self, String against, int runs) {
        this.self = command(self);
        this.against = against == null ? null : command(against);
        this.runs = runs;
    }

    /** A launcher script runs as itself; a jar with the java that runs this bench. */
    static List<String> command(String launcherOrJar) {
        if (launcherOrJar.endsWith(".jar")) {
            return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", launcherOrJar);
        }
        return List.of(launcherOrJar);
    }

    int run(boolean json, PrintStream out) throws IOException, InterruptedException {
        ArrayNode arr = JsonNodeFactory.instance.arrayNode();
        if (!json) {
            out.printf(Locale.ROOT, "start-up, whole process: median of %d runs%s, ms%n", runs,
                    against == null ? "" : ", alternating with " + String.join(" ", against));
            out.printf(Locale.ROOT, "%-42s %8s%s  %s%n", "command", "this", against == null ? "" : String.format(Locale.ROOT, " %8s %6s", "other", "ratio"),
                    String.join(" | ", PHASES));
        }
        for (Case c : CASES) {
            if (Interrupts.reason() != null) {
                break;
            }
            List<Run> mine = new ArrayList<>();
            List<Run> theirs = new ArrayList<>();
            for (int r = 0; r < runs && Interrupts.reason() == null; r++) {
                if (against != null && r % 2 == 1) {
                    theirs.add(once(against, c, false));
                }
                mine.add(once(self, c, true));
                if (against != null && r % 2 == 0) {
                    theirs.add(once(against, c, false));
                }
            }
            double a = median(mine.stream().mapToDouble(Run::wallMs).toArray());
            double b = theirs.isEmpty() ? Double.NaN : median(theirs.stream().mapToDouble(Run::wallMs).toArray());
            double[] phases = phases(mine);
            if (json) {
                ObjectNode o = arr.addObject();
                o.put("command", String.join(" ", c.args()));
                o.put("runs", mine.size());
                o.put("medianMs", Math.round(a));
                if (!theirs.isEmpty()) {
                    o.put("otherMedianMs", Math.round(b));
                }
                o.put("exit", mine.get(0).exit());
                ObjectNode p = o.putObject("phasesMs");
                for (int i = 0; i < PHASES.size(); i++) {
                    if (!Double.isNaN(phases[i])) {
                        p.put(PHASES.get(i), Math.round(phases[i]));
                    }
                }
            } else {
                StringBuilder ph = new StringBuilder();
                for (int i = 0; i < PHASES.size(); i++) {
                    ph.append(i == 0 ? "" : " | ").append(Double.isNaN(phases[i]) ? "-" : String.format(Locale.ROOT, "%.0f", phases[i]));
                }
                out.printf(Locale.ROOT, "%-42s %8.0f%s  %s%n", c.label(), a,
                        theirs.isEmpty() ? "" : String.format(Locale.ROOT, " %8.0f %6.2f", b, a / b), ph);
            }
        }
        if (json) {
            ObjectNode doc = Json.document("bench", Interrupts.reason() == null ? "COMPLETE" : "INCOMPLETE", ExitCodes.OK);
            doc.set("startup", arr);
            out.println(kcheck.trace.TraceIO.mapper().writeValueAsString(doc));
            Session.documentPrinted = true;
        }
        return Interrupts.reason() == null ? ExitCodes.OK : ExitCodes.INCOMPLETE;
    }

    /** Starts one process, waits for it (at most 5 minutes), and reads its phase marks. */
    private static Run once(List<String> launcher, Case c, boolean traced) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(launcher);
        cmd.addAll(c.args());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        Path marks = traced ? Files.createTempFile("kcheck-startup", ".txt") : null;
        pb.environment().remove(StartupClock.ENV);
        if (marks != null) {
            pb.environment().put(StartupClock.ENV, marks.toString());
        }
        try {
            long t0 = System.nanoTime();
            Process p = pb.start();
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new UsageException("bench --startup: '" + String.join(" ", cmd) + "' ran for 5 minutes");
            }
            double wall = (System.nanoTime() - t0) / 1e6;
            if (p.exitValue() == ExitCodes.USAGE) {
                throw new UsageException("bench --startup: '" + String.join(" ", cmd) + "' exited 2 (run it to see why)");
            }
            return new Run(wall, p.exitValue(), marks == null ? Map.of() : read(marks));
        } finally {
            if (marks != null) {
                Files.deleteIfExists(marks);
            }
        }
    }

    private static Map<String, Double> read(Path marks) throws IOException {
        Map<String, Double> m = new LinkedHashMap<>();
        for (String line : Files.readAllLines(marks)) {
            String[] f = line.trim().split(" ");
            if (f.length == 2) {
                m.put(f[0], Double.parseDouble(f[1]));
            }
        }
        return m;
    }

    /** Median of each phase over the runs: JVM start (wall less the exit mark), then the gaps between the marks present. */
    static double[] phases(List<Run> runs) {
        double[][] per = new double[PHASES.size()][runs.size()];
        boolean[] seen = new boolean[PHASES.size()];
        for (int r = 0; r < runs.size(); r++) {
            Map<String, Double> m = runs.get(r).marks();
            Double exit = m.get("exit");
            if (exit == null) {
                return nan();
            }
            per[0][r] = runs.get(r).wallMs() - exit;
            seen[0] = true;
            double prev = 0;
            for (int i = 0; i < StartupClock.MARKS_IN_ORDER.size(); i++) {
                Double t = m.get(StartupClock.MARKS_IN_ORDER.get(i));
                if (t != null) {
                    per[i + 1][r] = t - prev;
                    seen[i + 1] = true;
                    prev = t;
                }
            }
        }
        double[] out = nan();
        for (int i = 0; i < out.length; i++) {
            if (seen[i]) {
                out[i] = median(per[i]);
            }
        }
        return out;
    }

    private static double[] nan() {
        double[] d = new double[PHASES.size()];
        Arrays.fill(d, Double.NaN);
        return d;
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        int n = s.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
