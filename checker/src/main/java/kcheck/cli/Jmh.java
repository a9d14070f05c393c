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

/** Runs JMH: {@code bench --jmh}, and a benchmark with parameters {@code variant} and {@code cpus} for {@code simulate --jmh}. */
final class Jmh {
    private Jmh() {
    }

    /**
     * Runs JMH in a thread of its own while this one watches for SIGINT/SIGTERM ({@link Interrupts}):
     * then the JVMs JMH forked are ended and the result is null (what JMH measured so far is
     * already printed, unless silent).
     */
    static Collection<RunResult> runUntilStopped(Options o) throws RunnerException {
        java.util.concurrent.FutureTask<Collection<RunResult>> task = new java.util.concurrent.FutureTask<>(() -> new Runner(o).run());
        Thread t = new Thread(task, "kcheck-jmh");
        t.setDaemon(true);
        t.start();
        while (true) {
            try {
                return task.get(100, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                if (Interrupts.reason() != null) {
                    ProcessHandle.current().descendants().forEach(ProcessHandle::destroy);
                    return null;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof RunnerException r) {
                    throw r;
                }
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
        }
    }

    /** The timings of {@code benchmark} per variant and CPU count; null if a signal stopped JMH. */
    static List<Report.Timing> run(String benchmark, List<String> variants, List<Integer> cpus, boolean silent) {
        Options o = new OptionsBuilder().include("^" + java.util.regex.Pattern.quote(benchmark) + "\\..*")
                .param("variant", variants.toArray(String[]::new))
                .param("cpus", cpus.stream().map(String::valueOf).toArray(String[]::new))
                .verbosity(silent ? VerboseMode.SILENT : VerboseMode.NORMAL)
                .build();
        Collection<RunResult> results;
        try {
            results = runUntilStopped(o);
        } catch (RunnerException | RuntimeException e) {
            Throwable c = e.getCause() != null ? e.getCause() : e;
            throw new UsageException("JMH could not run " + benchmark + ": " + Main.oneLine(c.getMessage()));
        }
        if (results == null) {
            return null;
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
