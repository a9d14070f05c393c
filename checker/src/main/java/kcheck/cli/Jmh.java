package kcheck.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

import kcheck.simulate.Report;

/** Runs a JMH benchmark with parameters {@code variant} and {@code cpus} (for {@code simulate --jmh}). */
final class Jmh {
    private Jmh() {
    }

    static List<Report.Timing> run(String benchmark, List<String> variants, List<Integer> cpus, boolean silent) {
        Options o = new OptionsBuilder().include("^" + java.util.regex.Pattern.quote(benchmark) + "\\..*")
                .param("variant", variants.toArray(String[]::new))
                .param("cpus", cpus.stream().map(String::valueOf).toArray(String[]::new))
                .verbosity(silent ? VerboseMode.SILENT : VerboseMode.NORMAL)
                .build();
        Collection<RunResult> results;
        try {
            results = new Runner(o).run();
        } catch (RunnerException | RuntimeException e) {
            Throwable c = e.getCause() != null ? e.getCause() : e;
            throw new UsageException("JMH could not run " + benchmark + ": " + Main.oneLine(c.getMessage()));
        }
        List<Report.Timing> out = new ArrayList<>();
        for (RunResult r : results) {
            var p = r.getParams();
            out.add(new Report.Timing(benchmark, p.getParam("variant"), Integer.parseInt(p.getParam("cpus")),
                    r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError(), r.getPrimaryResult().getScoreUnit()));
        }
        return out;
    }
}
