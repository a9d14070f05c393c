package kcheck.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import kcheck.engine.Hashing;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;

/**
 * Successor generation of the rq-lock model (after, ticket, 4 CPUs) on a fixed sample of its
 * reachable states: the model's successors(), canonical form and hash, without the store.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "-XX:+UseParallelGC"})
public class SuccessorBenchmark {
    static final int SAMPLE = 1 << 16;

    @Param({"mutual-exclusion", "all"})
    public String properties;

    Model model;
    long[][] sample;

    @Setup(Level.Trial)
    public void setup() {
        ModelFactory f = Models.get("rq-lock");
        Set<String> props = properties.equals("all") ? Set.of("mutual-exclusion", "deadlock-free", "holds-both-on-return",
                "return-contract", "fifo-entry", "bypass", "overtake") : Set.of(properties);
        model = f.create("after", f.params(Map.of("cpus", "4")), props);
        List<long[]> frontier = new ArrayList<>();
        model.initial(s -> frontier.add(s.clone()));
        List<long[]> out = new ArrayList<>();
        java.util.Random r = new java.util.Random(7);
        while (out.size() < SAMPLE) {
            long[] cur = frontier.get(r.nextInt(frontier.size()));
            List<long[]> next = new ArrayList<>();
            model.successors(cur, (a, b, n) -> next.add(n.clone()));
            if (next.isEmpty()) {
                frontier.clear();
                model.initial(s -> frontier.add(s.clone()));
                continue;
            }
            long[] pick = next.get(r.nextInt(next.size()));
            out.add(pick);
            frontier.clear();
            frontier.add(pick);
        }
        sample = out.toArray(new long[0][]);
    }

    /** successors() of each sampled state, each successor canonicalised and hashed. */
    @Benchmark
    @OperationsPerInvocation(SAMPLE)
    public void expand(Blackhole bh) {
        long[] tmp = new long[model.width()];
        for (long[] s : sample) {
            model.successors(s, (a, b, n) -> {
                System.arraycopy(n, 0, tmp, 0, tmp.length);
                model.canonicalize(tmp);
                bh.consume(Hashing.hash(tmp, 0, tmp.length));
            });
        }
    }
}
