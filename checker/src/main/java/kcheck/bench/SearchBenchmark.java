package kcheck.bench;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.RunResult;
import kcheck.engine.StoreMode;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;

/**
 * A whole exhaustive search, warm: rq-lock after, ticket locks, 4 CPUs, the four safety
 * properties and fifo-entry. The score is searches per second; states/s is the score times the
 * state count the run prints.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g", "-XX:+UseParallelGC"})
public class SearchBenchmark {

    @Param({"1", "2"})
    public int workers;

    @Param({"exact", "fingerprint"})
    public String store;

    Model model;
    Options options;

    @Setup(Level.Trial)
    public void setup() {
        ModelFactory f = Models.get("rq-lock");
        model = f.create("after", f.params(Map.of("cpus", "4")), Set.of("mutual-exclusion", "deadlock-free",
                "holds-both-on-return", "return-contract", "fifo-entry"));
        options = Options.defaults().withWorkers(workers)
                .withStore(store.equals("exact") ? StoreMode.EXACT : StoreMode.FINGERPRINT);
        RunResult r = Engine.check(model, options);
        System.out.println("states per search: " + r.stats().states());
    }

    @Benchmark
    public long search() {
        return Engine.check(model, options).stats().states();
    }
}
