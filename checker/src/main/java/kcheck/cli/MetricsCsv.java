package kcheck.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import kcheck.engine.MetricResult;
import kcheck.engine.PropertyResult;
import kcheck.engine.RunResult;

/**
 * {@code check --metrics-csv FILE}: every metric's maximum per component, one CSV row each; the
 * verdict column is the bound's verdict, empty for a metric without a bound (a figure).
 */
final class MetricsCsv {
    static final String HEADER = "model,variant,params,metric,component,max,saturated,bound,verdict,complete,witness_steps";

    private MetricsCsv() {
    }

    /** Refuses, before the search, a target that is a directory, whose directory is missing, or that exists without {@code force}. */
    static void checkTarget(Path file, boolean force) {
        OutputFile.check(file, "--metrics-csv", force, "metrics.csv");
    }

    static String render(RunResult r) {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        String params = r.model().params().toString();
        for (PropertyResult p : r.properties()) {
            MetricResult m = p.metric();
            if (m == null) {
                continue;
            }
            for (int c = 0; c < m.max().length; c++) {
                long v = m.max()[c];
                b.append(csv(r.model().name())).append(',').append(csv(r.model().variant())).append(',').append(csv(params))
                        .append(',').append(csv(p.id())).append(',').append(csv(m.components().get(c))).append(',')
                        .append(v == Long.MIN_VALUE ? "" : Long.toString(v)).append(',').append(m.saturated(c)).append(',')
                        .append(m.bound() == Long.MAX_VALUE ? "" : Long.toString(m.bound())).append(',').append(p.figure() ? "" : p.verdict())
                        .append(',').append(r.stats().complete()).append(',')
                        .append(m.witnesses()[c] == null ? "" : Integer.toString(m.witnesses()[c].length())).append('\n');
            }
        }
        return b.toString();
    }

    static void write(Path file, RunResult r, boolean force) {
        OutputFile.write(file, render(r), force, "--metrics-csv");
    }

    /** A CSV field: quoted if it holds a comma, quote or line break. */
    static String csv(String s) {
        if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
            return "\"" + s.replace("\"", "\"\"") + "\"";
        }
        return s;
    }
}
